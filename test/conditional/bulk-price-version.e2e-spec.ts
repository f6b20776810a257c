import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp, usingMysql } from '../support/test-app';

/** Issue 26 item 4: a bulk price job is a write of the item like a PUT: it moves the version on, so an edit based on the old price loses (412). */
describe('Conditional requests: the bulk price job moves item versions on', () => {
  let t: TestApp;
  let manager: string;
  let worker: INestApplicationContext | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'pos-cond-bulk-'));
  const api = () => request(t.http);

  beforeAll(async () => {
    t = await startTestApp(usingMysql() ? {} : { DB_SQLITE_PATH: join(dir, 'pos.sqlite') });
    // With Redis the job goes to BullMQ: the worker app consumes it (as the bulk price suite does).
    if (t.isMysql) worker = await NestFactory.createApplicationContext(WorkerModule.register(t.config), { logger: false });
    await worker?.init();
    manager = await login(t, DEMO.manager);
  });
  afterAll(async () => {
    await worker?.close();
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an item repriced by POST /prices/bulk is at version + 1; a PUT based on the old version is 412', async () => {
    const created = await api().post('/api/v1/items').set(bearer(manager)).send({ sku: 'COND-BULK-1', name: 'Bulk versioned', base_price: 5 });
    expect(created.status).toBe(201);
    const id = created.body.data.id as number;
    const before = await api().get(`/api/v1/items/${id}`).set(bearer(manager));
    expect(before.body.data.version).toBe(1);

    const job = await api()
      .post('/api/v1/prices/bulk')
      .set(bearer(manager))
      .send({ changes: [{ item_id: id, price: 6.5 }] });
    expect(job.status).toBe(200);
    let status = '';
    for (let attempt = 0; attempt < 200 && status !== 'completed' && status !== 'failed'; attempt++) {
      if (attempt) await new Promise((r) => setTimeout(r, 100));
      status = (await api().get(`/api/v1/prices/bulk/${job.body.data.job_id}`).set(bearer(manager))).body.data.status;
    }
    expect(status).toBe('completed');

    const after = await api().get(`/api/v1/items/${id}`).set(bearer(manager)).set('If-None-Match', before.headers.etag);
    expect(after.status).toBe(200);
    expect(after.body.data).toMatchObject({ base_price: 6.5, version: 2 });

    const stale = await api().put(`/api/v1/items/${id}`).set(bearer(manager)).set('If-Match', before.headers.etag).send({ base_price: 5.5 });
    expectErrorEnvelope(stale, 412);
    expect(stale.body.current_version).toBe(2);
    expect((await api().get(`/api/v1/items/${id}`).set(bearer(manager))).body.data.base_price).toBe(6.5);
    const fresh = await api().put(`/api/v1/items/${id}`).set(bearer(manager)).set('If-Match', after.headers.etag).send({ base_price: 5.5 });
    expect(fresh.body.data).toMatchObject({ base_price: 5.5, version: 3 });
  });
});
