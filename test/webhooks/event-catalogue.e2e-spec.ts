import { createHmac } from 'node:crypto';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import request from 'supertest';
import { EVENT_CATALOGUE } from '@pos/webhooks';
import { ResponseChecker } from '../support/openapi-fuzz';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { EventSchemas } from './event-support';
import { eventually, Received, WebhookReceiver } from './receiver';

/**
 * The event catalogue (GET /webhooks/event-types) and test sends (POST /webhooks/{id}/test):
 * every kind listed with a sample that matches its documented schema; a test send is a signed
 * delivery of the chosen kind's sample to a real receiver on 127.0.0.1, marked `test: true`,
 * through the normal delivery log, and never an event of the shop (the outbox row is marked).
 * With MySQL + Redis the deliveries run in a worker context, as in production.
 */
describe('Webhook event catalogue and test sends', () => {
  let t: TestApp;
  let worker: INestApplicationContext | undefined;
  let admin: string;
  let receiver: WebhookReceiver;
  let schemas: EventSchemas;
  const api = () => request(t.http);
  const sign = (secret: string, r: Received) =>
    createHmac('sha256', secret)
      .update(`${String(r.headers['x-service-timestamp'])}.${r.rawBody}`)
      .digest('hex');
  const endpoint = async (path: string, events: string[]) => {
    const res = await api()
      .post('/api/v1/webhooks')
      .set(bearer(admin))
      .send({ url: receiver.url(path), events });
    expect(res.status).toBe(201);
    return res.body.data as { id: number; secret: string };
  };
  const test = (id: number | string, body: unknown, token = admin) =>
    api()
      .post(`/api/v1/webhooks/${id}/test`)
      .set(bearer(token))
      .send(body as object);

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RELAY_INTERVAL_MS: '100', WEBHOOK_RETRY_SCHEDULE: '1,1,1' });
    if (t.isMysql) {
      worker = await NestFactory.createApplicationContext(WorkerModule.register(t.config), { logger: false });
      await worker.init();
    }
    admin = await login(t, DEMO.admin);
    schemas = await EventSchemas.load(t);
  });
  afterAll(async () => {
    await worker?.close();
    await t.close();
    await receiver.close();
  });

  it('GET /webhooks/event-types lists every kind with description, resource, permission and a sample matching its documented schema', async () => {
    const res = await api().get('/api/v1/webhooks/event-types').set(bearer(admin));
    expect(res.status).toBe(200);
    const kinds = res.body.data as { type: string; description: string; resource: string; permission: string | null; sample: unknown }[];
    const expected = [
      'sale.completed',
      'sale.voided',
      'invoice.payment_recorded',
      'return.created',
      'return.approved',
      'return.rejected',
      'return.cancelled',
      'return.processed',
      'session.opened',
      'session.closed',
      'inventory.low_stock',
      'inventory.out_of_stock',
      'customer.created',
      'customer.updated',
      'customer.deleted',
      'item.created',
      'item.updated',
      'item.deleted',
      'price.updated',
      'prices.bulk_updated',
      'ping',
    ];
    expect(kinds.map((k) => k.type).sort()).toEqual([...expected].sort());
    expect(kinds.map((k) => k.type)).toEqual(EVENT_CATALOGUE.map((k) => k.type));
    for (const k of kinds) {
      expect(k.description.length).toBeGreaterThan(20);
      expect(k.resource).toMatch(/^[a-z_]+$/);
      expect(k.sample).toEqual(expect.any(Object));
      expect({ type: k.type, problem: schemas.problem(k.type, k.sample) }).toEqual({ type: k.type, problem: null });
    }
    expect(kinds.find((k) => k.type === 'customer.deleted')).toMatchObject({
      resource: 'customer',
      permission: 'customers.view',
      sample: { customer: { id: 58 } },
    });
    expect(kinds.find((k) => k.type === 'ping')?.permission).toBeNull();

    // the whole answer matches the operation's documented schema (each entry its own kind's schema)
    const op = schemas.doc.paths['/api/v1/webhooks/event-types']?.get;
    expect(op).toBeDefined();
    expect(new ResponseChecker(schemas.doc).check(op!, 200, res.body, 'application/json')).toBeNull();
    // an entry whose sample does not fit its kind fails that check (the check can fail)
    const broken = { ...res.body, data: [{ ...kinds[0], sample: { nope: 1 } }] };
    expect(new ResponseChecker(schemas.doc).check(op!, 200, broken, 'application/json')).not.toBeNull();
  });

  it('needs webhooks.manage', async () => {
    const manager = await login(t, DEMO.manager);
    expectErrorEnvelope(await api().get('/api/v1/webhooks/event-types').set(bearer(manager)), 403);
    expectErrorEnvelope(await api().get('/api/v1/webhooks/event-types'), 401);
    expectErrorEnvelope(await test(1, { type: 'ping' }, manager), 403);
  });

  it('POST /webhooks/{id}/test sends a signed sample of the chosen kind, marked test, through the delivery log', async () => {
    // subscribed to sales only: a test send of another kind still goes to this endpoint alone
    const e = await endpoint('/test-sends', ['sale.completed']);
    const other = await endpoint('/bystander', ['*']);
    const res = await test(e.id, { type: 'customer.deleted' });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ endpoint_id: e.id, event: 'customer.deleted', status: 'pending', attempts: 0 });
    const delivery = res.body.data.id as string;

    const [got] = await receiver.waitFor('/test-sends', (r) => r.length === 1);
    expect(got.deliveryId).toBe(delivery);
    expect(got.headers['x-service-event']).toBe('customer.deleted');
    expect(got.headers['x-service-signature']).toBe(sign(e.secret, got));
    const body = JSON.parse(got.rawBody) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['id', 'type', 'created_at', 'data', 'test']);
    expect(body).toMatchObject({ type: 'customer.deleted', test: true, data: { customer: { id: 58 } } });
    expect(body.data).toEqual(EVENT_CATALOGUE.find((k) => k.type === 'customer.deleted')!.sample);

    const logged = await eventually(
      async () => (await api().get(`/api/v1/webhooks/${e.id}/deliveries`).set(bearer(admin))).body.data as { id: string; status: string; event: string }[],
      (d) => d.some((x) => x.id === delivery && x.status === 'delivered'),
    );
    expect(logged.find((x) => x.id === delivery)?.event).toBe('customer.deleted');
    // its detail shows the body as sent (bare type, test: true), as documented
    const shown = await api().get(`/api/v1/webhooks/${e.id}/deliveries/${delivery}`).set(bearer(admin));
    expect(shown.status).toBe(200);
    expect(shown.body.data.payload).toEqual(body);
    const detailOp = schemas.doc.paths['/api/v1/webhooks/{webhook}/deliveries/{delivery}']?.get;
    expect(new ResponseChecker(schemas.doc).check(detailOp!, 200, shown.body, 'application/json')).toBeNull();

    // a richer kind: the sale sample, the ping sample names this endpoint
    expect((await test(e.id, { type: 'sale.completed' })).status).toBe(202);
    expect((await test(e.id, { type: 'ping' })).status).toBe(202);
    const all = await receiver.waitFor('/test-sends', (r) => r.length === 3);
    const sale = all.find((r) => r.body.type === 'sale.completed')!;
    expect(sale.body).toMatchObject({ test: true, data: { sale: { id: 1042, receipt_number: 'R-MAIN-001042' } } });
    expect(all.find((r) => r.body.type === 'ping')!.body).toMatchObject({ test: true, data: { endpoint_id: e.id } });

    // never an event of the shop: the outbox rows are marked, nobody else received them, and the relay left them alone
    const rows = (await t.db.query("SELECT type FROM outbox_events WHERE type LIKE 'test:%' ORDER BY id")) as { type: string }[];
    expect(rows.map((r) => r.type)).toEqual(['test:customer.deleted', 'test:sale.completed', 'test:ping']);
    expect(receiver.at('/bystander')).toEqual([]);
    expect((await api().get(`/api/v1/webhooks/${other.id}/deliveries`).set(bearer(admin))).body.meta.total).toBe(0);
  });

  it('422 for an unknown, missing or malformed type; 404 for an unknown endpoint; 409 for an inactive one (as ping)', async () => {
    const e = await endpoint('/refused', ['*']);
    for (const body of [{ type: 'sale.exploded' }, {}, { type: '' }, { type: 42 }, { type: ['sale.completed'] }, { type: 'test:ping' }, { type: '*' }]) {
      const res = await test(e.id, body);
      expect({ body, status: res.status, fields: Object.keys(res.body.errors ?? {}) }).toEqual({ body, status: 422, fields: ['type'] });
      expectErrorEnvelope(res, 422);
    }
    // nothing was queued by the refused requests
    expect((await api().get(`/api/v1/webhooks/${e.id}/deliveries`).set(bearer(admin))).body.meta.total).toBe(0);
    expectErrorEnvelope(await test(999999, { type: 'ping' }), 404);
    expectErrorEnvelope(await test('abc', { type: 'ping' }), 404);

    expect((await api().put(`/api/v1/webhooks/${e.id}`).set(bearer(admin)).send({ active: false })).status).toBe(200);
    const inactive = await test(e.id, { type: 'sale.completed' });
    expectErrorEnvelope(inactive, 409);
    expect(inactive.body.code).toBe('webhook_endpoint_inactive');
    expectErrorEnvelope(await api().post(`/api/v1/webhooks/${e.id}/ping`).set(bearer(admin)), 409);
    expect((await api().get(`/api/v1/webhooks/${e.id}/deliveries`).set(bearer(admin))).body.meta.total).toBe(0);
    expect(Number((await t.db.query("SELECT COUNT(*) AS n FROM outbox_events WHERE type LIKE 'test:%'"))[0].n)).toBe(3);
    expect(receiver.at('/refused')).toEqual([]);
  });
});
