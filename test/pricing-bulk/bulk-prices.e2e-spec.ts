import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { jobProgress, untilProgressStops } from '../fault/fault-tools';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp, usingMysql } from '../support/test-app';

describe('Bulk prices (POST /prices/bulk)', () => {
  let t: TestApp;
  let manager: string;
  let worker: INestApplicationContext | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'pos-bulk-'));

  beforeAll(async () => {
    t = await startTestApp(usingMysql() ? {} : { DB_SQLITE_PATH: join(dir, 'pos.sqlite') });
    // With Redis the job goes to BullMQ: the worker app consumes it.
    if (t.isMysql) worker = await NestFactory.createApplicationContext(WorkerModule.register(t.config), { logger: false });
    await worker?.init();
    manager = await login(t, DEMO.manager);
  });
  afterAll(async () => {
    await worker?.close();
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('validates every row first and names each bad one (422), changing nothing', async () => {
    const shape = await request(t.http)
      .post('/api/v1/prices/bulk')
      .set(bearer(manager))
      .send({
        changes: [
          { item_id: 1, price: 1.5 },
          { item_id: 2, price: -1 },
          { item_id: 'x', price: 1.234 },
        ],
      });
    expectErrorEnvelope(shape, 422);
    expect(Object.keys(shape.body.errors).sort()).toEqual(['changes.1.price', 'changes.2.item_id']);
    // the currency's decimals once the rows fit their schema: every row too fine for dollars, named at once
    const cents = await request(t.http)
      .post('/api/v1/prices/bulk')
      .set(bearer(manager))
      .send({
        changes: [
          { item_id: 1, price: 1.5 },
          { item_id: 2, price: 1.234 },
          { item_id: 3, price: 2.0001 },
        ],
      });
    expectErrorEnvelope(cents, 422);
    expect(cents.body.errors).toEqual({
      'changes.1.price': ['The changes.1.price must have at most 2 decimal places.'],
      'changes.2.price': ['The changes.2.price must have at most 2 decimal places.'],
    });
    const res = await request(t.http)
      .post('/api/v1/prices/bulk')
      .set(bearer(manager))
      .send({
        changes: [
          { item_id: 1, price: 1.5 },
          { item_id: 999999, price: 1 },
          { item_id: 3, price_book_id: 99, price: 2 },
          { item_id: 1, price: 1.6 },
        ],
      });
    expectErrorEnvelope(res, 422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['changes.1.item_id', 'changes.2.price_book_id', 'changes.3']);
    const [item] = await t.db.query('SELECT base_price FROM items WHERE id = 1');
    expect(Number(item.base_price)).toBe(129);
    expectErrorEnvelope(await request(t.http).post('/api/v1/prices/bulk').set(bearer(manager)).send({ changes: [] }), 422);
    const tooMany = Array.from({ length: 10_001 }, (_, i) => ({ item_id: 1 + (i % 30), price: 1 }));
    expectErrorEnvelope(await request(t.http).post('/api/v1/prices/bulk').set(bearer(manager)).send({ changes: tooMany }), 422);
    const cashier = await login(t, DEMO.cashier);
    expectErrorEnvelope(
      await request(t.http)
        .post('/api/v1/prices/bulk')
        .set(bearer(cashier))
        .send({ changes: [{ item_id: 1, price: 1 }] }),
      403,
    );
  });

  it('applies item and price-book prices through a queued job, reports progress, emits prices.bulk_updated', async () => {
    const changes = [
      { item_id: 1, price: 1.39 },
      { item_id: 6, price_book_id: 1, price: 7.49 },
      { item_id: 9, price_book_id: 2, price: 2.99 },
      ...Array.from({ length: 1200 }, (_, i) => ({ item_id: 10 + (i % 20), price_book_id: 2, min_quantity: 2 + Math.floor(i / 20), price: 1 + (i % 7) / 100 })),
    ];
    const res = await request(t.http).post('/api/v1/prices/bulk').set(bearer(manager)).send({ changes });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'queued', total: changes.length });
    const jobId = res.body.data.job_id;
    const done = await untilProgressStops(
      () => request(t.http).get(`/api/v1/prices/bulk/${jobId}`).set(bearer(manager)),
      (r) => r.body.data.status === 'completed',
      (r) => jobProgress(r.body.data),
    );
    expect(done.body.data).toMatchObject({
      status: 'completed',
      processed: changes.length,
      progress: 100,
      result: { items_updated: 1, price_book_entries_updated: changes.length - 1 },
    });
    expect(Number((await t.db.query('SELECT base_price FROM items WHERE id = 1'))[0].base_price)).toBe(139);
    expect(Number((await t.db.query('SELECT price FROM price_book_entries WHERE price_book_id = 1 AND item_id = 6 AND min_quantity = 1'))[0].price)).toBe(749);
    expect(Number((await t.db.query('SELECT price FROM price_book_entries WHERE price_book_id = 2 AND item_id = 9'))[0].price)).toBe(299);
    const events = await t.db.query("SELECT payload FROM outbox_events WHERE type = 'prices.bulk_updated'");
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0].payload)).toMatchObject({ job_id: jobId, total: changes.length });
    // the engine now uses the new prices
    const priced = await request(t.http).post('/api/v1/pricing/calculate').set(bearer(manager)).send({ item_id: 1, store_id: 1 });
    expect(priced.body.data.unit_price).toBe(1.39);
    expectErrorEnvelope(await request(t.http).get('/api/v1/prices/bulk/999999').set(bearer(manager)), 404);
  });
});
