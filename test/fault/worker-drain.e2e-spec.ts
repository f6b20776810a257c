import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import request from 'supertest';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { bearer, DEMO, login, startTestApp, TestApp, usingMysql } from '../support/test-app';
import { PrivateRedis, timed, until } from './fault-tools';

/**
 * Issue 14 item 5: shutting the worker down mid-job (what SIGTERM does: app.close()) stops it
 * at a chunk boundary with the database still open, hands the rest back, and the next worker
 * finishes the job with every price applied.
 */
const describeMysql = usingMysql() ? describe : describe.skip;
if (!usingMysql()) console.info('worker-drain: skipped (needs TEST_DB=mysql: BullMQ on a private redis-server)');

describeMysql('Worker drain on shutdown mid-job (MySQL + private Redis)', () => {
  const redis = new PrivateRedis(6393);
  let t: TestApp;
  const workers: INestApplicationContext[] = [];

  beforeAll(async () => {
    await redis.start();
    t = await startTestApp({ REDIS_URL: redis.url });
  });
  afterAll(async () => {
    for (const w of workers) await w.close().catch(() => undefined);
    await t?.close();
    await redis.stop();
  });

  async function startWorker(): Promise<INestApplicationContext> {
    const w = await NestFactory.createApplicationContext(WorkerModule.register(t.config), { logger: false });
    await w.init();
    workers.push(w);
    return w;
  }

  it('stops at a chunk boundary, loses nothing, and the next worker completes the job', async () => {
    const manager = await login(t, DEMO.manager);
    const changes = Array.from({ length: 4000 }, (_, i) => ({
      item_id: 10 + (i % 20),
      price_book_id: 1,
      min_quantity: 2 + Math.floor(i / 20),
      price: 2 + (i % 9) / 100,
    }));
    const res = await request(t.http).post('/api/v1/prices/bulk').set(bearer(manager)).send({ changes }).expect(200);
    const jobId = res.body.data.job_id as number;
    const status = () => request(t.http).get(`/api/v1/prices/bulk/${jobId}`).set(bearer(manager));
    const first = await startWorker();
    await until(status, (r) => r.body.data.processed > 0, 20_000, 50);
    const { ms } = await timed(() => first.close());
    workers.splice(workers.indexOf(first), 1);
    const after = (await status()).body.data;
    console.info(`worker drain: closed in ${ms} ms at ${after.processed}/${changes.length} (${after.status})`);
    expect(after.processed % 500 === 0 || after.processed === changes.length).toBe(true);
    if (after.processed < changes.length) expect(after.status).toBe('queued');
    await startWorker();
    const done = await until(status, (r) => r.body.data.status === 'completed', 25_000, 200);
    expect(done.body.data).toMatchObject({ status: 'completed', processed: changes.length });
    const [{ n }] = await t.db.query('SELECT COUNT(*) AS n FROM price_book_entries WHERE price_book_id = 1 AND min_quantity >= 2 AND min_quantity < 202');
    expect(Number(n)).toBe(changes.length);
  });
});
