import request from 'supertest';
import { WebhookMaintenanceService } from '@pos/webhooks';
import { bearer, DEMO, expectErrorEnvelope, integrationToken, login, TestApp } from '../support/test-app';
import { insertEvent, readLog, sqlTime, Stack, startStack } from './event-log-support';
import { WebhookReceiver } from './receiver';

const byNumber = (a: number, b: number) => a - b;

/**
 * replay_from on POST /webhooks and PUT /webhooks/{id} (deliveries of past events, exactly once
 * per event and endpoint, in order, also while the relay fans out events committed meanwhile),
 * and the EVENT_RETENTION_DAYS purge (events with their deliveries and attempts).
 */
describe('Event log: replay_from and retention', () => {
  let s: Stack;
  let t: TestApp;
  let admin: string;
  let cashier: string;
  let receiver: WebhookReceiver;
  let beverage: number;
  let saleN = 0;
  const api = () => request(t.http);

  const sell = () =>
    api()
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .send({
        store_id: 1,
        idempotency_key: `replay-sale-${++saleN}-${Date.now()}`,
        items: [{ id: beverage, qty: 1 }],
        payments: [{ payment_method_code: 'cash', amount: 2 }],
        total_amount: 1.32,
      });
  const deliveriesOf = async (endpointId: number) =>
    (
      (await t.db.query('SELECT id, event_id, status FROM webhook_deliveries WHERE endpoint_id = ? ORDER BY id', [endpointId])) as {
        id: number;
        event_id: number;
      }[]
    ).map((d) => ({ id: Number(d.id), eventId: Number(d.event_id) }));
  const eventsSince = async (from: Date, type: string) =>
    (
      (await t.db.query('SELECT id FROM outbox_events WHERE type = ? AND created_at >= ? ORDER BY created_at, id', [type, sqlTime(t, from)])) as {
        id: number;
      }[]
    ).map((r) => Number(r.id));

  /** Waits (a bounded number of relay passes) until the relay has published these events. */
  const relayed = async (ids: number[]) => {
    const marks = ids.map(() => '?').join(', ');
    for (let pass = 0; pass < 600; pass++) {
      const [{ n }] = (await t.db.query(`SELECT COUNT(*) AS n FROM outbox_events WHERE id IN (${marks}) AND published_at IS NULL`, ids)) as { n: number }[];
      if (Number(n) === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`events ${ids.join(', ')} were not relayed`);
  };

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    s = await startStack();
    t = s.t;
    admin = await login(t, DEMO.admin);
    cashier = await login(t, DEMO.cashier);
    beverage = Number((await t.db.query("SELECT id FROM items WHERE sku = 'BEV-001'"))[0].id);
    expect((await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 50 })).status).toBe(200);
  });
  afterAll(async () => {
    await s.close();
    await receiver.close();
  });

  it('POST /webhooks with replay_from delivers each past subscribed event once, in order; a second replay adds nothing', async () => {
    // whole seconds: MariaDB keeps created_at to the second
    const from = new Date(Math.floor(Date.now() / 1000) * 1000 - 1000);
    for (let i = 0; i < 4; i++) expect((await sell()).status).toBe(201);
    const past = await eventsSince(from, 'sale.completed');
    expect(past).toHaveLength(4);
    // The relay has fanned them out before the endpoint exists (else it may fan one out to the new
    // endpoint itself, after the replay's: exactly once still, but not in event order; the race
    // is the next test's subject).
    await relayed(past);
    const created = await api()
      .post('/api/v1/webhooks')
      .set(bearer(admin))
      .send({ url: receiver.url('/replay'), events: ['sale.completed'], replay_from: from.toISOString() });
    expect(created.status).toBe(201);
    const id = created.body.data.id as number;
    // created with the answer, in event order
    expect((await deliveriesOf(id)).map((d) => d.eventId)).toEqual(past);
    const got = await receiver.waitFor('/replay', (g) => g.length >= 4);
    expect(got.map((r) => r.body.id).sort(byNumber)).toEqual([...past].sort(byNumber));
    expect(got.every((r) => r.body.type === 'sale.completed')).toBe(true);

    const again = await api().put(`/api/v1/webhooks/${id}`).set(bearer(admin)).send({ replay_from: from.toISOString() });
    expect(again.status).toBe(200);
    expect((await deliveriesOf(id)).map((d) => d.eventId)).toEqual(past);
    // a new sale after that is relayed once, as usual
    expect((await sell()).status).toBe(201);
    await receiver.waitFor('/replay', (g) => g.length >= 5);
    const log = await deliveriesOf(id);
    expect(log).toHaveLength(5);
    expect(new Set(log.map((d) => d.eventId)).size).toBe(5);
  });

  it('PUT with replay_from (widening the subscription) adds only what the endpoint has not received', async () => {
    const from = new Date(Math.floor(Date.now() / 1000) * 1000 - 1000);
    const e = await api()
      .post('/api/v1/webhooks')
      .set(bearer(admin))
      .send({ url: receiver.url('/widen'), events: ['sale.completed'] });
    expect(e.status).toBe(201);
    expect((await sell()).status).toBe(201);
    expect((await sell()).status).toBe(201);
    await receiver.waitFor('/widen', (g) => g.length >= 2);
    const relayed = await deliveriesOf(e.body.data.id);
    expect(relayed).toHaveLength(2);
    const res = await api()
      .put(`/api/v1/webhooks/${e.body.data.id}`)
      .set(bearer(admin))
      .send({ events: ['sale.completed', 'session.opened'], replay_from: new Date(Date.now() - 86_400_000).toISOString() });
    expect(res.status).toBe(200);
    const expected = [
      ...(await eventsSince(new Date(Date.now() - 86_400_000), 'sale.completed')),
      ...(await eventsSince(new Date(Date.now() - 86_400_000), 'session.opened')),
    ].sort(byNumber);
    expect((await eventsSince(from, 'sale.completed')).length).toBeGreaterThanOrEqual(2);
    const log = await deliveriesOf(e.body.data.id);
    expect(log.map((d) => d.eventId).sort(byNumber)).toEqual(expected);
    // the two it had received kept their deliveries (same rows, not duplicated)
    expect(log.slice(0, 2)).toEqual(relayed);
    expect(new Set(log.map((d) => d.eventId)).size).toBe(log.length);
  });

  it('an endpoint created while sales commit gets each of their events exactly once (replay and relay race)', async () => {
    const from = new Date(Math.floor(Date.now() / 1000) * 1000 - 1000);
    const before = [sell(), sell(), sell()];
    const create = api()
      .post('/api/v1/webhooks')
      .set(bearer(admin))
      .send({ url: receiver.url('/race'), events: ['sale.completed'], replay_from: from.toISOString() });
    const during = [sell(), sell(), sell()];
    const [created, ...sales] = await Promise.all([create, ...before, ...during]);
    expect(created.status).toBe(201);
    // concurrent checkouts of one item may meet contention (503, nothing written): what committed counts
    for (const sale of sales) expect([201, 503]).toContain(sale.status);
    const expected = await eventsSince(from, 'sale.completed');
    const committed = sales.filter((x) => x.status === 201).map((x) => x.body.data.id as number);
    expect(committed.length).toBeGreaterThanOrEqual(3);
    expect(expected.length).toBeGreaterThanOrEqual(committed.length);
    const got = await receiver.waitFor('/race', (g) => g.length >= expected.length);
    expect(got.map((r) => (r.body.data.sale as { id: number }).id)).toEqual(expect.arrayContaining(committed));
    await new Promise((r) => setTimeout(r, 1500)); // a duplicate would arrive within the relay's next turns
    expect(
      receiver
        .at('/race')
        .map((r) => r.body.id)
        .sort(byNumber),
    ).toEqual([...expected].sort(byNumber));
    expect(got.length).toBe(expected.length);
    const log = await deliveriesOf(created.body.data.id);
    expect(log.map((d) => d.eventId).sort(byNumber)).toEqual([...expected].sort(byNumber));
  });

  it('refuses replay_from that is malformed, in the future, older than the retention, or for an inactive endpoint (422)', async () => {
    const url = receiver.url('/refused');
    const cases: Record<string, unknown>[] = [
      { replay_from: 'yesterday' },
      { replay_from: '2026-01-01' },
      { replay_from: new Date(Date.now() + 3_600_000).toISOString() },
      { replay_from: new Date(Date.now() - 31 * 86_400_000).toISOString() },
      { replay_from: new Date().toISOString(), active: false },
    ];
    const [{ n: endpoints }] = await t.db.query('SELECT COUNT(*) AS n FROM webhook_endpoints');
    for (const extra of cases) {
      const res = await api()
        .post('/api/v1/webhooks')
        .set(bearer(admin))
        .send({ url, events: ['*'], ...extra });
      expectErrorEnvelope(res, 422);
      expect([extra, Object.keys(res.body.errors)]).toEqual([extra, ['replay_from']]);
    }
    expect((await t.db.query('SELECT COUNT(*) AS n FROM webhook_endpoints'))[0].n).toEqual(endpoints);
    const paused = await api()
      .post('/api/v1/webhooks')
      .set(bearer(admin))
      .send({ url, events: ['*'], active: false });
    expect(paused.status).toBe(201);
    const put = await api().put(`/api/v1/webhooks/${paused.body.data.id}`).set(bearer(admin)).send({ replay_from: new Date().toISOString() });
    expectErrorEnvelope(put, 422);
    expect(Object.keys(put.body.errors)).toEqual(['replay_from']);
    expect(await deliveriesOf(paused.body.data.id)).toEqual([]);
    const doc = (await api().get('/api/docs-json')).body;
    expect(doc.components.schemas.CreateWebhookDto.properties.replay_from).toMatchObject({ type: 'string', format: 'date-time' });
    expect(doc.components.schemas.UpdateWebhookDto.properties.replay_from).toMatchObject({ type: 'string', format: 'date-time' });
  });

  it('purges events older than EVENT_RETENTION_DAYS with their deliveries and attempts, and keeps younger ones', async () => {
    const maintenance = s.runner.get(WebhookMaintenanceService);
    const day = 86_400_000;
    const old = await insertEvent(t, { type: 'sale.completed', storeId: 1, createdAt: new Date(Date.now() - 31 * day) });
    const kept = await insertEvent(t, { type: 'sale.completed', storeId: 1, createdAt: new Date(Date.now() - 29 * day) });
    const [endpoint] = await t.db.query('SELECT id FROM webhook_endpoints ORDER BY id LIMIT 1');
    const now = sqlTime(t, new Date());
    for (const [eventId, uuid] of [
      [old, '00000000-0000-4000-8000-000000000001'],
      [kept, '00000000-0000-4000-8000-000000000002'],
    ] as const) {
      await t.db.query(
        "INSERT INTO webhook_deliveries (uuid, endpoint_id, event_id, event_type, status, attempts, round_start, created_at, updated_at) VALUES (?, ?, ?, 'sale.completed', 'failed', 1, 0, ?, ?)",
        [uuid, endpoint.id, eventId, now, now],
      );
      const [d] = await t.db.query('SELECT id FROM webhook_deliveries WHERE uuid = ?', [uuid]);
      await t.db.query('INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at, status_code, duration_ms) VALUES (?, 1, ?, 500, 3)', [
        d.id,
        now,
      ]);
    }
    const reader = (await integrationToken(t, ['sales.view'])).token;
    const before = await readLog(t, reader, { since: new Date(Date.now() - 40 * day).toISOString(), per_page: 2 });
    expect(before.rows.map((r) => r.id)).toEqual([old, kept]);

    const result = await maintenance.purge();
    expect(result).toEqual({ deliveries: 1, events: 1 });
    expect(await t.db.query('SELECT id FROM outbox_events WHERE id = ?', [old])).toEqual([]);
    expect(await t.db.query("SELECT id FROM webhook_deliveries WHERE uuid = '00000000-0000-4000-8000-000000000001'")).toEqual([]);
    expect(
      Number(
        (await t.db.query('SELECT COUNT(*) AS n FROM webhook_delivery_attempts a LEFT JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.id IS NULL'))[0]
          .n,
      ),
    ).toBe(0);
    expect(await t.db.query('SELECT id FROM outbox_events WHERE id = ?', [kept])).toHaveLength(1);
    expect(await t.db.query("SELECT id FROM webhook_deliveries WHERE uuid = '00000000-0000-4000-8000-000000000002'")).toHaveLength(1);
    const after = await readLog(t, reader, { since: new Date(Date.now() - 40 * day).toISOString(), per_page: 1 });
    expect(after.rows.map((r) => r.id)).toEqual([kept]);
    expect(await maintenance.purge()).toEqual({ deliveries: 0, events: 0 });
  });
});
