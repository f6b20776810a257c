import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Redis } from 'ioredis';
import request from 'supertest';
import { BulkPriceService } from '@pos/pricing';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { bearer, DEMO, login, startTestApp, TestApp, usingMysql } from '../support/test-app';
import { jobProgress, PrivateRedis, untilProgressStops } from './fault-tools';

/**
 * Issue 14 item 4: the bulk price job row is the job. A lost queue entry is queued again by
 * the sweeper, a run resumes from its last committed chunk, a queue entry without a row fails
 * loudly, and the last failed attempt marks the row `failed` with the reason.
 */
const CHANGES = Array.from({ length: 1200 }, (_, i) => ({
  item_id: 10 + (i % 20),
  price_book_id: 2,
  min_quantity: 2 + Math.floor(i / 20),
  price: 1 + (i % 7) / 100,
}));
const minor = (i: number) => Math.round(CHANGES[i].price * 100);

async function entryPrice(t: TestApp, i: number): Promise<number> {
  const c = CHANGES[i];
  const rows = await t.db.query('SELECT price FROM price_book_entries WHERE price_book_id = ? AND item_id = ? AND min_quantity = ?', [
    c.price_book_id,
    c.item_id,
    c.min_quantity,
  ]);
  return Number(rows[0]?.price);
}

describe('Bulk price jobs survive a lost queue entry and a crash (embedded and MySQL)', () => {
  let t: TestApp;
  let manager: string;
  let worker: INestApplicationContext | undefined;

  beforeAll(async () => {
    t = await startTestApp();
    if (t.isMysql) {
      worker = await NestFactory.createApplicationContext(WorkerModule.register(t.config), { logger: false });
      await worker.init();
    }
    manager = await login(t, DEMO.manager);
  });
  afterAll(async () => {
    await worker?.close();
    await t.close();
  });

  const status = (id: number) => request(t.http).get(`/api/v1/prices/bulk/${id}`).set(bearer(manager));

  it('finds unfinished jobs through an index on (status, updated_at), not a scan of every job kept', async () => {
    const qr = t.db.createQueryRunner();
    try {
      const table = (await qr.getTable('bulk_price_jobs'))!;
      expect(table.indices.map((i) => i.columnNames.join(','))).toContain('status,updated_at');
    } finally {
      await qr.release();
    }
  });

  it('resumes a stalled running job from its last committed chunk (the chunks before it are not applied again)', async () => {
    const res = await request(t.http).post('/api/v1/prices/bulk').set(bearer(manager)).send({ changes: CHANGES }).expect(200);
    const jobId = res.body.data.job_id as number;
    expect(
      (
        await untilProgressStops(
          () => status(jobId),
          (r) => r.body.data.status === 'completed',
          (r) => jobProgress(r.body.data),
        )
      ).body.data.status,
    ).toBe('completed');
    // The crash: chunk 1 (0-499) committed, the run died during chunk 2, the queue entry is gone.
    // Marks: one entry of each chunk holds a price the job never set.
    await t.db.query('UPDATE price_book_entries SET price = 4242 WHERE price_book_id = 2 AND item_id = ? AND min_quantity = ?', [
      CHANGES[0].item_id,
      CHANGES[0].min_quantity,
    ]);
    await t.db.query('UPDATE price_book_entries SET price = 4242 WHERE price_book_id = 2 AND item_id = ? AND min_quantity = ?', [
      CHANGES[700].item_id,
      CHANGES[700].min_quantity,
    ]);
    await t.db.query("UPDATE bulk_price_jobs SET status = 'running', processed = 500, finished_at = NULL, result = NULL, updated_at = ? WHERE id = ?", [
      sqlTime(t, new Date(Date.now() - 3_600_000)),
      jobId,
    ]);
    const service = (worker ?? t.app).get(BulkPriceService);
    expect(await service.sweep(1000, 60_000)).toBeGreaterThanOrEqual(1);
    const done = await untilProgressStops(
      () => status(jobId),
      (r) => r.body.data.status === 'completed',
      (r) => jobProgress(r.body.data),
    );
    expect(done.body.data).toMatchObject({ status: 'completed', processed: CHANGES.length });
    expect(await entryPrice(t, 0)).toBe(4242); // chunk 1 was committed before the crash: not applied again
    expect(await entryPrice(t, 700)).toBe(minor(700)); // chunk 2 was applied by the resumed run
  });

  it('fails loudly on a queue entry whose row does not exist', async () => {
    const service = (worker ?? t.app).get(BulkPriceService);
    await expect(service.run({ jobId: 987654 }, { attempt: 1 })).rejects.toThrow(/does not exist/);
  });

  it('marks the job failed with the reason after its last attempt', async () => {
    const res = await request(t.http)
      .post('/api/v1/prices/bulk')
      .set(bearer(manager))
      .send({ changes: CHANGES.slice(0, 3) })
      .expect(200);
    const jobId = res.body.data.job_id as number;
    await untilProgressStops(
      () => status(jobId),
      (r) => r.body.data.status === 'completed',
      (r) => jobProgress(r.body.data),
    );
    // a row whose payload cannot be applied (damaged), run again by a lost-entry sweep
    await t.db.query("UPDATE bulk_price_jobs SET status = 'queued', processed = 0, payload = 'not json' WHERE id = ?", [jobId]);
    const service = (worker ?? t.app).get(BulkPriceService);
    await expect(service.run({ jobId }, { attempt: 1 })).rejects.toThrow();
    expect((await status(jobId)).body.data.status).not.toBe('failed'); // attempts remain: BullMQ retries
    await expect(service.run({ jobId }, { attempt: 3 })).rejects.toThrow();
    const failed = (await status(jobId)).body.data;
    expect(failed.status).toBe('failed');
    expect(failed.result.error).toMatch(/JSON/);
    expect(failed.finished_at).not.toBeNull();
  });
});

const describeMysql = usingMysql() ? describe : describe.skip;
if (!usingMysql()) console.info('bulk-jobs (lost queue entry): skipped (needs TEST_DB=mysql: BullMQ on a private redis-server)');

describeMysql('Bulk price job whose queue entry is lost (Redis restarted empty)', () => {
  const redis = new PrivateRedis(6392);
  let t: TestApp;
  let worker: INestApplicationContext | undefined;

  beforeAll(async () => {
    await redis.start();
    t = await startTestApp({ REDIS_URL: redis.url, BULK_JOB_SWEEP_INTERVAL_MS: '500' });
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await redis.stop();
  });

  it('is queued again by the sweeper and completes with every price applied', async () => {
    const manager = await login(t, DEMO.manager);
    const res = await request(t.http).post('/api/v1/prices/bulk').set(bearer(manager)).send({ changes: CHANGES }).expect(200);
    const jobId = res.body.data.job_id as number;
    const probe = new Redis(redis.url);
    try {
      expect((await probe.keys(`${t.config.queuePrefix}:*`)).length).toBeGreaterThan(0);
      await probe.flushall(); // the private Redis loses every queue entry
    } finally {
      probe.disconnect();
    }
    // the worker starts on the emptied Redis; only the database still knows the job
    worker = await NestFactory.createApplicationContext(WorkerModule.register(t.config), { logger: false });
    await worker.init();
    const done = await untilProgressStops(
      () => request(t.http).get(`/api/v1/prices/bulk/${jobId}`).set(bearer(manager)),
      (r) => r.body.data.status === 'completed',
      (r) => jobProgress(r.body.data),
      30_000,
      250,
    );
    expect(done.body.data).toMatchObject({ status: 'completed', processed: CHANGES.length });
    for (const i of [0, 599, 1199]) expect(await entryPrice(t, i)).toBe(minor(i));
  });
});

/** A datetime parameter as each driver stores it (SQLite: UTC text). */
function sqlTime(t: TestApp, d: Date): Date | string {
  return t.isMysql ? d : d.toISOString().replace('T', ' ').replace('Z', '');
}
