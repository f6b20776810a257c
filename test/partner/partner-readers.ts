import request from 'supertest';
import { bearer, TestApp } from '../support/test-app';

/**
 * What a partner runs: a reader per change-mode feed (`updated_since` once, then only the
 * `next_cursor` it was given) and a reader of the event log (`since` once, then `after`). Each
 * keeps every row it was served, so a suite can check "every change exactly once".
 */
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A stamp from either driver (Date from mysql2, 'YYYY-MM-DD HH:MM:SS.mmm' UTC text from SQLite) as ms. */
export function stampMs(v: unknown): number {
  if (v instanceof Date) return v.getTime();
  const s = String(v);
  return Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s : s.replace(' ', 'T') + 'Z');
}

export interface FeedRow {
  id: number;
  updated_at: string;
  [k: string]: unknown;
}

export interface Seen<R> {
  poll: number;
  row: R;
}

export interface PartnerEvent {
  id: number | string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

interface Page<R> {
  rows: R[];
  nextCursor: string | null;
  hasMore: boolean;
}

/** Shared paging: the first request carries the start position, every later one only the cursor. */
abstract class CursorReader<R> {
  cursor: string | null = null;
  polls = 0;
  readonly seen: Seen<R>[] = [];

  constructor(
    protected readonly t: TestApp,
    protected readonly token: string,
    readonly path: string,
    protected readonly perPage: number,
  ) {}

  protected abstract startQuery(): Record<string, string>;
  protected abstract cursorParam: string;

  private async page(): Promise<Page<R>> {
    const query = { ...(this.cursor === null ? this.startQuery() : { [this.cursorParam]: this.cursor }), per_page: String(this.perPage) };
    const res = await request(this.t.http).get(this.path).query(query).set(bearer(this.token));
    if (res.status !== 200) throw new Error(`${this.path} ${JSON.stringify(query)}: ${res.status} ${JSON.stringify(res.body)}`);
    const meta = res.body.meta as { next_cursor?: string | null; has_more?: boolean };
    if (typeof meta.next_cursor !== 'string' || typeof meta.has_more !== 'boolean')
      throw new Error(`${this.path}: change mode meta missing next_cursor/has_more: ${JSON.stringify(meta)}`);
    return { rows: res.body.data as R[], nextCursor: meta.next_cursor, hasMore: meta.has_more };
  }

  /** One poll: pages until has_more is false; returns what this poll was served. */
  async poll(): Promise<R[]> {
    this.polls += 1;
    const served: R[] = [];
    for (let pages = 0; ; pages++) {
      if (pages > 500) throw new Error(`${this.path}: runaway paging`);
      const p = await this.page();
      served.push(...p.rows);
      for (const row of p.rows) this.seen.push({ poll: this.polls, row });
      if (p.nextCursor) this.cursor = p.nextCursor;
      if (!p.hasMore) return served;
    }
  }
}

/** A change-mode feed (`/integration/sales`, `/integration/data/returns`, ...). */
export class FeedReader extends CursorReader<FeedRow> {
  protected cursorParam = 'cursor';

  constructor(
    t: TestApp,
    token: string,
    path: string,
    private readonly since: Date,
    perPage = 4,
  ) {
    super(t, token, path, perPage);
  }

  protected startQuery() {
    return { updated_since: this.since.toISOString() };
  }

  /** Every version served of one row, in the order served. */
  versions(id: number): FeedRow[] {
    return this.seen.filter((s) => s.row.id === id).map((s) => s.row);
  }

  /** (id, updated_at) pairs served more than once. */
  duplicatePairs(): string[] {
    const count = new Map<string, number>();
    for (const { row } of this.seen) {
      const key = `${row.id}@${stampMs(row.updated_at)}`;
      count.set(key, (count.get(key) ?? 0) + 1);
    }
    return [...count].filter(([, n]) => n > 1).map(([k]) => k);
  }

  /** The newest updated_at served per row id (ms). */
  latest(): Map<number, number> {
    const out = new Map<number, number>();
    for (const { row } of this.seen) out.set(row.id, Math.max(out.get(row.id) ?? 0, stampMs(row.updated_at)));
    return out;
  }

  /** Whether rows were served in (updated_at, id) order across all polls. */
  inOrder(): boolean {
    return this.seen.every((s, i) => {
      if (i === 0) return true;
      const a = this.seen[i - 1].row;
      const b = s.row;
      const [ta, tb] = [stampMs(a.updated_at), stampMs(b.updated_at)];
      return ta < tb || (ta === tb && a.id < b.id);
    });
  }
}

/** The event log, `GET /integration/events`. */
export class EventReader extends CursorReader<PartnerEvent> {
  protected cursorParam = 'after';

  constructor(
    t: TestApp,
    token: string,
    private readonly since: Date,
    perPage = 7,
    private readonly types?: string,
  ) {
    super(t, token, '/api/v1/integration/events', perPage);
  }

  protected startQuery(): Record<string, string> {
    return { since: this.since.toISOString(), ...(this.types ? { types: this.types } : {}) };
  }

  events(): PartnerEvent[] {
    return this.seen.map((s) => s.row);
  }

  duplicateIds(): string[] {
    const ids = this.events().map((e) => String(e.id));
    return ids.filter((id, i) => ids.indexOf(id) !== i);
  }
}

/** The resource an event is about: data.<resource>.id (the kind's prefix: sale, return, customer...) or data.id. */
export function eventResourceId(e: PartnerEvent): number | undefined {
  const inner = e.data[e.type.split('.')[0]] as { id?: unknown } | undefined;
  if (inner && typeof inner === 'object' && inner.id !== undefined) return Number(inner.id);
  return e.data.id === undefined ? undefined : Number(e.data.id);
}

/**
 * Runs a reader every `intervalMs` until `done()` holds after a poll (at most `maxPolls` polls):
 * the bounded wait for the horizon to pass, never a timing assertion.
 */
export async function pollUntil(reader: { poll(): Promise<unknown> }, done: () => boolean, maxPolls: number, intervalMs = 500): Promise<void> {
  for (let i = 0; i < maxPolls; i++) {
    await reader.poll();
    if (done()) return;
    await sleep(intervalMs);
  }
  throw new Error(`not caught up after ${maxPolls} polls`);
}

/**
 * The partner's loops running side by side with the shop: each polls its reader every
 * `intervalMs` until its `caughtUp()` holds (at most `maxPolls` polls). A loop that fails is
 * reported by `waitFor` at once; `stop()` ends them all (so a failed test leaves no poller behind).
 */
export class PartnerLoops {
  private stopped = false;
  private failure: unknown = null;
  readonly done: Promise<void>;

  constructor(
    runs: { reader: { poll(): Promise<unknown> }; caughtUp: () => boolean; missing: () => unknown }[],
    private readonly maxPolls: number,
    private readonly intervalMs = 500,
  ) {
    this.done = Promise.all(runs.map((r) => this.run(r.reader, r.caughtUp, r.missing))).then(() => undefined);
    this.done.catch((e: unknown) => (this.failure = e));
  }

  private async run(reader: { poll(): Promise<unknown> }, caughtUp: () => boolean, missing: () => unknown): Promise<void> {
    for (let i = 0; i < this.maxPolls; i++) {
      if (this.stopped) return;
      await reader.poll();
      if (caughtUp()) return;
      await sleep(this.intervalMs);
    }
    throw new Error(`partner loop not caught up after ${this.maxPolls} polls; missing ${JSON.stringify(missing())}`);
  }

  /** Waits (bounded) until `condition` holds, failing at once if a loop has failed. */
  async waitFor(condition: () => boolean, what: string): Promise<void> {
    for (let i = 0; i < this.maxPolls * 2; i++) {
      if (this.failure) throw this.failure;
      if (condition()) return;
      await sleep(this.intervalMs / 2);
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.done.catch(() => undefined);
  }
}
