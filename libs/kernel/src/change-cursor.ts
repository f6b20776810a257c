import { ValidationFailedError } from './errors';

/**
 * Change cursors (issue 26): a partner reading a feed or the event log in change order keeps an
 * opaque position, base64url of `{k: kind, t: ms of the last row's stamp, i: its id}`. Order is
 * always (stamp ASC, id ASC); the next page is the rows with (stamp, id) > (t, i) and
 * stamp <= the horizon. The kind makes a sales cursor given to the returns feed a 422.
 */

const CURSOR_MAX_LENGTH = 512;
/** Stamps a cursor may carry: 1970 up to year 9999 (anything else was not written by us). */
const MAX_STAMP_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export interface ChangePosition {
  t: Date;
  id: number;
}

/** The opaque cursor naming the row (t, id) of the feed or log `kind`. */
export function encodeCursor(kind: string, t: Date, id: number): string {
  return Buffer.from(JSON.stringify({ k: kind, t: t.getTime(), i: id }), 'utf8').toString('base64url');
}

/** Reads a cursor of `kind`; anything else (malformed, tampered, another kind's) is 422 on `field`. */
export function decodeCursor(kind: string, raw: string, field = 'cursor'): ChangePosition {
  const invalid = () => ValidationFailedError.field(field, `The ${field} is not a valid cursor of this feed.`);
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > CURSOR_MAX_LENGTH || !/^[A-Za-z0-9_-]+$/.test(raw)) {
    throw invalid();
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalid();
  const { k, t, i } = parsed as Record<string, unknown>;
  if (k !== kind) throw invalid();
  if (typeof t !== 'number' || !Number.isSafeInteger(t) || t < 0 || t > MAX_STAMP_MS) throw invalid();
  if (typeof i !== 'number' || !Number.isSafeInteger(i) || i < 0) throw invalid();
  return { t: new Date(t), id: i };
}

/**
 * The newest stamp a change reader may serve: anything later may still belong to an uncommitted
 * transaction. `granularityMs`: how much earlier than the instant it records a stored stamp can
 * be (MySQL/MariaDB DATETIME keeps whole seconds: 1000, SQLite keeps milliseconds: 0). A change
 * at 10:00:00.900 is stored as 10:00:00; it may commit up to the settle time after 10:00:00.900,
 * so a stored 10:00:00 is safe to serve only from 10:00:01 + settle on. Without the margin a
 * second change in the same second as one already served would keep its stamp and be missed.
 */
export function changeHorizon(now: Date, settleSeconds: number, granularityMs = 0): Date {
  return new Date(now.getTime() - settleSeconds * 1000 - granularityMs);
}

/** A change-mode read: the rows after `after` in (stamp, id) order, stamped no later than `horizon`, at most `limit`. */
export interface ChangeRead {
  after: ChangePosition;
  horizon: Date;
  limit: number;
}

/**
 * A page of a feed in change mode. The HTTP envelope answers `meta: {per_page, next_cursor,
 * has_more}`: next_cursor names the page's last row (the position asked from when the page is
 * empty), has_more whether rows up to the horizon remain after it.
 */
export class ChangePage<T> {
  constructor(
    readonly items: T[],
    readonly perPage: number,
    readonly nextCursor: string,
    readonly hasMore: boolean,
  ) {}

  map<U>(fn: (item: T) => U): ChangePage<U> {
    return new ChangePage(this.items.map(fn), this.perPage, this.nextCursor, this.hasMore);
  }
}

/** The page from the rows of a read asked with `limit: perPage + 1` (one more tells whether more remain). */
export function changePage<T>(kind: string, read: ChangeRead, perPage: number, rows: T[], positionOf: (row: T) => ChangePosition): ChangePage<T> {
  const items = rows.slice(0, perPage);
  const last = items.length ? positionOf(items[items.length - 1]) : read.after;
  return new ChangePage(items, perPage, encodeCursor(kind, last.t, last.id), rows.length > perPage);
}

/**
 * SQL of a change read on `alias` (columns `updated_at` and `id`): `after` as
 * `updated_at >= t AND (updated_at > t OR id > i)` (one range on the (updated_at, id) index on
 * both engines) and the horizon. Parameters are named (TypeORM query builder).
 */
export function changeWhere(alias: string, read: ChangeRead): { sql: string; params: Record<string, unknown> } {
  const col = `${alias}.updated_at`;
  return {
    sql: `${col} >= :changeT AND (${col} > :changeT OR ${alias}.id > :changeId) AND ${col} <= :changeHorizon`,
    params: { changeT: read.after.t, changeId: read.after.id, changeHorizon: read.horizon },
  };
}
