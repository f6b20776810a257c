import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import request from 'supertest';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { bearer, startTestApp, TestApp } from '../support/test-app';

/**
 * The event log suites' stack: the API (relay and deliveries in-process on SQLite) and, on MySQL
 * + Redis, a worker context running the relay and the deliveries as production does.
 */
export interface Stack {
  t: TestApp;
  /** Where the relay, the deliveries and the maintenance run: the worker with Redis, else the API. */
  runner: INestApplicationContext;
  close(): Promise<void>;
}

export const FAST = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_RETRY_SCHEDULE: '1,1,1',
  WEBHOOK_RELAY_INTERVAL_MS: '100',
  WEBHOOK_SWEEP_INTERVAL_MS: '1000',
  WEBHOOK_TIMEOUT_MS: '3000',
  // short, so fresh events appear within a test; not shorter: a write transaction older than the
  // window less 2 s is rolled back (503), and checkouts under a loaded MySQL can take a second
  CHANGE_FEED_SETTLE_SECONDS: '5',
};

export async function startStack(overrides: Record<string, string> = {}): Promise<Stack> {
  const t = await startTestApp({ ...FAST, ...overrides });
  let worker: INestApplicationContext | undefined;
  if (t.isMysql) {
    worker = await NestFactory.createApplicationContext(WorkerModule.register(t.config), { logger: false });
    await worker.init();
  }
  return {
    t,
    runner: worker ?? t.app,
    close: async () => {
      await worker?.close();
      await t.close();
    },
  };
}

/** A timestamp parameter for raw SQL (better-sqlite3 binds no Date), in the format TypeORM stores. */
export function sqlTime(t: TestApp, d: Date): Date | string {
  return t.isMysql ? d : d.toISOString().replace('T', ' ').replace('Z', '');
}

/** Inserts an outbox event as ChangeLog writes one (published: the relay leaves it alone). */
export async function insertEvent(t: TestApp, e: { type: string; storeId: number | null; createdAt: Date; data?: Record<string, unknown> }): Promise<number> {
  const at = sqlTime(t, e.createdAt);
  const payload = JSON.stringify(e.data ?? { test_event: true });
  await t.db.query('INSERT INTO outbox_events (type, store_id, payload, created_at, published_at) VALUES (?, ?, ?, ?, ?)', [
    e.type,
    e.storeId,
    payload,
    at,
    at,
  ]);
  const [row] = await t.db.query('SELECT MAX(id) AS id FROM outbox_events');
  return Number(row.id);
}

export interface LogRow {
  id: number;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

export interface LogPage {
  status: number;
  rows: LogRow[];
  meta: { per_page: number; next_cursor: string; has_more: boolean };
  warning?: string;
}

export async function readLog(t: TestApp, token: string, query: Record<string, string | number> = {}): Promise<LogPage> {
  const res = await request(t.http).get('/api/v1/integration/events').query(query).set(bearer(token));
  if (res.status !== 200) throw new Error(`GET /integration/events ${JSON.stringify(query)}: ${res.status} ${JSON.stringify(res.body)}`);
  return { status: res.status, rows: res.body.data, meta: res.body.meta, warning: res.headers.warning as string | undefined };
}

/** Every page from `start` until has_more is false; returns the rows and the last cursor. */
export async function readAll(
  t: TestApp,
  token: string,
  start: Record<string, string | number> = {},
  perPage = 50,
): Promise<{ rows: LogRow[]; cursor: string; pages: number }> {
  const rows: LogRow[] = [];
  let query: Record<string, string | number> = { ...start, per_page: perPage };
  for (let pages = 1; pages <= 1000; pages++) {
    const page = await readLog(t, token, query);
    rows.push(...page.rows);
    if (!page.meta.has_more) return { rows, cursor: page.meta.next_cursor, pages };
    const { since: _since, after: _after, ...rest } = query;
    query = { ...rest, after: page.meta.next_cursor };
  }
  throw new Error('more than 1000 pages');
}
