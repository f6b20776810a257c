import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import request from 'supertest';
import { ProcessLifecycle } from '@pos/platform';
import { BulkPriceService } from '@pos/pricing';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';
import { jobProgress, untilProgressStops } from './fault-tools';

/**
 * Issue 25 item 6: a bulk price job handed back at a drain (the worker's SIGTERM: the running
 * job stops at its next chunk boundary, its row goes back to `queued` with its progress) resumes
 * from its last committed chunk. It used to start over from 0, re-applying every chunk before
 * it (overwriting prices edited meanwhile), so a rolling deploy more often than a job's length
 * never finished it.
 */
const BASE_ITEMS = Array.from({ length: 20 }, (_, i) => 10 + i);
const BOOK = 2;

describe('A bulk price job handed back at a drain resumes from its progress (embedded and MySQL)', () => {
  let t: TestApp;
  let manager: string;
  let worker: INestApplicationContext | undefined;
  let changes: { item_id: number; price: number; price_book_id?: number; min_quantity?: number }[];

  beforeAll(async () => {
    t = await startTestApp();
    if (t.isMysql) {
      worker = await NestFactory.createApplicationContext(WorkerModule.register(t.config), { logger: false });
      await worker.init();
    }
    manager = await login(t, DEMO.manager);
    // 20 base prices (each differs from the demo's, so each application records price history),
    // then price-book entries: 1200 changes, in chunks of 500 on MySQL, 100 on SQLite (BulkPriceService.chunkSize).
    const rows = (await t.db.query(`SELECT id, base_price FROM items WHERE id IN (${BASE_ITEMS.join(', ')})`)) as { id: number; base_price: number }[];
    expect(rows).toHaveLength(BASE_ITEMS.length);
    changes = [
      ...rows.map((r) => ({ item_id: Number(r.id), price: (Number(r.base_price) + 7) / 100 })),
      ...Array.from({ length: 1180 }, (_, i) => ({
        item_id: 10 + (i % 20),
        price_book_id: BOOK,
        min_quantity: 2 + Math.floor(i / 20),
        price: 1 + (i % 7) / 100,
      })),
    ];
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await worker?.close();
    await t.close();
  });

  /** The process that runs the jobs: the worker with BullMQ, the API itself with the in-process queue. */
  const runner = () => worker ?? t.app;
  const jobRow = async (id: number) =>
    ((await t.db.query('SELECT status, processed FROM bulk_price_jobs WHERE id = ?', [id])) as { status: string; processed: number }[])[0];
  const entryPrice = async (i: number) => {
    const c = changes[i];
    const rows = await t.db.query('SELECT price FROM price_book_entries WHERE price_book_id = ? AND item_id = ? AND min_quantity = ?', [
      c.price_book_id,
      c.item_id,
      c.min_quantity,
    ]);
    return Number(rows[0]?.price);
  };
  const basePrice = async (itemId: number) => Number((await t.db.query('SELECT base_price FROM items WHERE id = ?', [itemId]))[0].base_price);
  const historyRows = async (itemId: number, sinceId: number) =>
    Number((await t.db.query('SELECT COUNT(*) AS n FROM item_price_changes WHERE item_id = ? AND id > ?', [itemId, sinceId]))[0].n);
  const lastHistoryId = async () => Number((await t.db.query('SELECT MAX(id) AS m FROM item_price_changes'))[0].m ?? 0);
  const count = async (sql: string, params: unknown[]) => Number((await t.db.query(sql, params))[0].n);

  it('applies each change once across the hand-back: no chunk before the drain is applied again', async () => {
    const service = runner().get(BulkPriceService);
    const lifecycle = runner().get(ProcessLifecycle);
    const historyBefore = await lastHistoryId();
    const applied: number[] = [];
    let drainNow = false;
    // SIGTERM at the first chunk boundary: the drain flag is up exactly when the job checks it.
    jest.spyOn(lifecycle, 'draining', 'get').mockImplementation(() => {
      const answer = drainNow;
      drainNow = false;
      return answer;
    });
    const applyChunk = service.applyChunk.bind(service);
    jest.spyOn(service, 'applyChunk').mockImplementation(async (jobId, chunk, processed, all) => {
      await applyChunk(jobId, chunk, processed, all);
      applied.push(chunk.length);
      if (applied.length === 1) {
        // After chunk 1 committed, a manager edits a price it set (directly: no history row of its own).
        await t.db.query('UPDATE items SET base_price = 4242 WHERE id = ?', [BASE_ITEMS[0]]);
        await t.db.query('UPDATE price_book_entries SET price = 4242 WHERE price_book_id = ? AND item_id = ? AND min_quantity = ?', [
          BOOK,
          changes[50].item_id,
          changes[50].min_quantity,
        ]);
        drainNow = true;
      }
    });
    try {
      const res = await request(t.http).post('/api/v1/prices/bulk').set(bearer(manager)).send({ changes }).expect(200);
      const jobId = res.body.data.job_id as number;
      const done = await untilProgressStops(
        () => jobRow(jobId),
        (r) => r.status === 'completed' || r.status === 'failed',
        jobProgress,
      );
      expect(done).toMatchObject({ status: 'completed', processed: changes.length });
      expect(applied[0]).toBe(service.chunkSize); // the drain came after chunk 1
      expect(applied.reduce((a, b) => a + b, 0)).toBe(changes.length); // every change written once, none twice
      expect(await basePrice(BASE_ITEMS[0])).toBe(4242); // the edit made after chunk 1 stands
      expect(await entryPrice(50)).toBe(4242);
      expect(await historyRows(BASE_ITEMS[0], historyBefore)).toBe(1); // the job's own change, not a second one over the edit
      for (const id of BASE_ITEMS.slice(1)) expect(await historyRows(id, historyBefore)).toBe(1);
      for (const i of [600, 1199]) expect(await entryPrice(i)).toBe(Math.round(changes[i].price * 100));
      expect(await count("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'prices.bulk_submitted' AND target_id = ?", [String(jobId)])).toBe(1);
      const events = (await t.db.query("SELECT payload FROM outbox_events WHERE type = 'prices.bulk_updated'")) as { payload: string }[];
      expect(events.filter((e) => (JSON.parse(e.payload) as { job_id?: number }).job_id === jobId)).toHaveLength(1);
    } finally {
      jest.restoreAllMocks();
    }
  });

  it('a handed-back row whose queue entry was lost is queued again by the sweeper and resumes from its progress', async () => {
    const res = await request(t.http)
      .post('/api/v1/prices/bulk')
      .set(bearer(manager))
      .send({ changes: changes.slice(20) })
      .expect(200);
    const jobId = res.body.data.job_id as number;
    await untilProgressStops(
      () => jobRow(jobId),
      (r) => r.status === 'completed',
      jobProgress,
    );
    // What a drain leaves when the queue refuses the hand-back (the in-process queue is closing):
    // the row `queued` at 500 of 1180, nothing queued. Marks: one entry of each side of the boundary.
    const mark = (i: number) =>
      t.db.query('UPDATE price_book_entries SET price = 4343 WHERE price_book_id = ? AND item_id = ? AND min_quantity = ?', [
        BOOK,
        changes[i].item_id,
        changes[i].min_quantity,
      ]);
    await mark(20);
    await mark(720);
    const old = new Date(Date.now() - 3_600_000);
    await t.db.query("UPDATE bulk_price_jobs SET status = 'queued', processed = 500, finished_at = NULL, result = NULL, updated_at = ? WHERE id = ?", [
      t.isMysql ? old : old.toISOString().replace('T', ' ').replace('Z', ''),
      jobId,
    ]);
    expect(await runner().get(BulkPriceService).sweep(1000, 60_000)).toBeGreaterThanOrEqual(1);
    const done = await untilProgressStops(
      () => jobRow(jobId),
      (r) => r.status === 'completed',
      jobProgress,
    );
    expect(done).toMatchObject({ status: 'completed', processed: 1180 });
    expect(await entryPrice(20)).toBe(4343); // before the hand-back: not applied again
    expect(await entryPrice(720)).toBe(Math.round(changes[720].price * 100)); // after it: applied by the resumed run
  });
});
