import request from 'supertest';
import { encodeCursor } from '@pos/kernel';
import { bearer, DEMO, expectErrorEnvelope, integrationToken, login, TestApp } from '../support/test-app';
import { insertEvent, LogRow, readAll, readLog, Stack, startStack } from './event-log-support';
import { eventually, WebhookReceiver } from './receiver';

/**
 * GET /integration/events (issue 26): paging by cursor with no gap or duplicate, the types
 * filter, the permission of each event's resource, the application's store scope, the change
 * horizon (CHANGE_FEED_SETTLE_SECONDS=5 here), bad input, and rows equal to the webhook bodies.
 */
describe('Event log: GET /integration/events', () => {
  let s: Stack;
  let t: TestApp;
  let everything: string;
  let receiver: WebhookReceiver;
  const api = () => request(t.http);
  const READ_ALL = ['sales.view', 'customers.view', 'returns.view', 'items.view', 'inventory.view', 'invoices.view', 'reports.sales'];
  /** The events this suite inserted, in the order the log must give them. */
  const inserted: { id: number; type: string; storeId: number | null; at: number }[] = [];

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    s = await startStack();
    t = s.t;
    everything = (await integrationToken(t, READ_ALL)).token;
    // 240 events over the last hour, 8 at each instant (ties broken by id), across two stores,
    // no store, and four kinds: inserted out of time order, as concurrent transactions commit.
    const base = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;
    const kinds = ['sale.completed', 'customer.created', 'sale.voided', 'inventory.low_stock'];
    for (let i = 0; i < 240; i++) {
      const slot = (i * 7) % 30; // 30 instants, visited out of order
      const storeId = [1, 2, null][i % 3];
      const at = base + slot * 60_000;
      const type = kinds[i % 4];
      const id = await insertEvent(t, { type, storeId, createdAt: new Date(at), data: { n: i } });
      inserted.push({ id, type, storeId, at });
    }
    inserted.sort((a, b) => a.at - b.at || a.id - b.id);
  });
  afterAll(async () => {
    await s.close();
    await receiver.close();
  });

  const mine = (rows: LogRow[]) => rows.filter((r) => inserted.some((e) => e.id === r.id));

  it('pages by cursor through every event exactly once, in (created_at, id) order', async () => {
    const { rows, pages } = await readAll(t, everything, {}, 37);
    expect(pages).toBeGreaterThan(6);
    const ids = rows.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(mine(rows).map((r) => r.id)).toEqual(inserted.map((e) => e.id));
    for (let i = 1; i < rows.length; i++) {
      const [a, b] = [rows[i - 1], rows[i]];
      expect(a.created_at < b.created_at || (a.created_at === b.created_at && a.id < b.id)).toBe(true);
    }
    // the body of a row: {id, type, created_at, data} exactly
    const first = mine(rows)[0];
    expect(Object.keys(first)).toEqual(['id', 'type', 'created_at', 'data']);
    expect(first).toEqual({ id: inserted[0].id, type: inserted[0].type, created_at: new Date(inserted[0].at).toISOString(), data: expect.any(Object) });
  });

  it('since starts at an instant (inclusive); the cursor of an empty page is the position given', async () => {
    const from = inserted[100].at;
    const { rows } = await readAll(t, everything, { since: new Date(from).toISOString() }, 100);
    expect(mine(rows).map((r) => r.id)).toEqual(inserted.filter((e) => e.at >= from).map((e) => e.id));
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const empty = await readLog(t, everything, { since: future });
    expect(empty.rows).toEqual([]);
    expect(empty.meta.has_more).toBe(false);
    const again = await readLog(t, everything, { after: empty.meta.next_cursor });
    expect(again.rows).toEqual([]);
    expect(again.meta.next_cursor).toBe(empty.meta.next_cursor);
    const meta = (await readLog(t, everything, { per_page: 5000 })).meta;
    expect(meta.per_page).toBe(500);
  });

  it('types filters by kind (comma-separated or repeated)', async () => {
    const voided = await readAll(t, everything, { types: 'sale.voided' });
    expect(mine(voided.rows).map((r) => r.id)).toEqual(inserted.filter((e) => e.type === 'sale.voided').map((e) => e.id));
    const two = await readAll(t, everything, { types: 'sale.voided, customer.created' });
    expect(new Set(two.rows.map((r) => r.type))).toEqual(new Set(['sale.voided', 'customer.created']));
    expect(mine(two.rows)).toHaveLength(120);
    const repeated = await api().get('/api/v1/integration/events?types=sale.voided&types=customer.created&per_page=500').set(bearer(everything));
    expect(repeated.status).toBe(200);
    expect(mine(repeated.body.data)).toHaveLength(120);
  });

  it('shows an event only under the permission of its resource (the route itself needs none)', async () => {
    const customersOnly = (await integrationToken(t, ['customers.view'])).token;
    const { rows } = await readAll(t, customersOnly, {}, 500);
    expect(new Set(rows.map((r) => r.type))).toEqual(new Set(['customer.created']));
    expect(mine(rows)).toHaveLength(60);
    // asking for a kind it may not read is not an error: it just sees none of it
    expect((await readLog(t, customersOnly, { types: 'sale.completed' })).rows).toEqual([]);
    const noneOfThem = (await integrationToken(t, ['stores.view'])).token;
    expect((await readLog(t, noneOfThem, { per_page: 500 })).rows).toEqual([]);
    const salesAndStock = (await integrationToken(t, ['sales.view', 'inventory.view'])).token;
    const seen = await readAll(t, salesAndStock, {}, 500);
    expect(new Set(mine(seen.rows).map((r) => r.type))).toEqual(new Set(['sale.completed', 'sale.voided', 'inventory.low_stock']));
  });

  it("shows only events of the application's stores (and of no store)", async () => {
    const admin = await login(t, DEMO.admin);
    const app = await api()
      .post('/api/v1/api-applications')
      .set(bearer(admin))
      .send({ name: 'Store 1 only', permissions: READ_ALL, store_ids: [1] });
    expect(app.status).toBe(201);
    const tok = await api()
      .post(`/api/v1/api-applications/${app.body.data.id}/tokens`)
      .set(bearer(admin))
      .send({ name: 's1', abilities: ['integration:read'] });
    const { rows } = await readAll(t, tok.body.data.token, {}, 500);
    const expected = inserted.filter((e) => e.storeId !== 2).map((e) => e.id);
    expect(mine(rows).map((r) => r.id)).toEqual(expected);
    expect(expected.length).toBe(160);
  });

  it('never serves an event stamped after the horizon; one stamped now appears once it settles', async () => {
    const { cursor } = await readAll(t, everything, {}, 500);
    const later = await insertEvent(t, { type: 'sale.completed', storeId: 1, createdAt: new Date(Date.now() + 60_000) });
    const now = await insertEvent(t, { type: 'sale.completed', storeId: 1, createdAt: new Date() });
    try {
      const page = await eventually(
        () => readLog(t, everything, { after: cursor }),
        (p) => p.rows.some((r) => r.id === now),
      );
      expect(page.rows.map((r) => r.id)).not.toContain(later);
      expect(page.rows.filter((r) => r.id === now)).toHaveLength(1);
      const next = await readLog(t, everything, { after: page.meta.next_cursor });
      expect(next.rows.map((r) => r.id)).not.toContain(now);
      expect(next.rows.map((r) => r.id)).not.toContain(later);
    } finally {
      await t.db.query('DELETE FROM outbox_events WHERE id IN (?, ?)', [later, now]);
    }
  });

  it('a row is exactly the body the webhook delivered for that event', async () => {
    const admin = await login(t, DEMO.admin);
    const cashier = await login(t, DEMO.cashier);
    const endpoint = await api()
      .post('/api/v1/webhooks')
      .set(bearer(admin))
      .send({ url: receiver.url('/same'), events: ['customer.created'] });
    expect(endpoint.status).toBe(201);
    const customer = await api().post('/api/v1/customers').set(bearer(cashier)).send({ name: 'Event Log Shopper', email: 'event-log@example.com' });
    expect(customer.status).toBe(201);
    const [got] = await receiver.waitFor('/same', (g) => g.length >= 1);
    const page = await eventually(
      () => readLog(t, everything, { types: 'customer.created', since: got.body.created_at }),
      (p) => p.rows.some((r) => r.id === got.body.id),
    );
    const row = page.rows.find((r) => r.id === got.body.id)!;
    expect(JSON.stringify(row)).toBe(got.rawBody);
    expect((row.data.customer as { id: number }).id).toBe(customer.body.data.id);
  });

  it('a position older than the retention is served from what is kept, with a Warning header', async () => {
    const old = await readLog(t, everything, { since: new Date(Date.now() - 40 * 86_400_000).toISOString(), per_page: 1 });
    expect(old.warning).toMatch(/^299 - "Events created before .* are no longer kept/);
    expect(old.rows).toHaveLength(1);
    const fresh = await readLog(t, everything, { since: new Date(Date.now() - 2 * 86_400_000).toISOString(), per_page: 1 });
    expect(fresh.warning).toBeUndefined();
    expect((await readLog(t, everything, { per_page: 1 })).warning).toBeUndefined();
  });

  it('refuses bad input with 422 on the field', async () => {
    const cases: [Record<string, string>, string[]][] = [
      [{ after: 'not a cursor!' }, ['after']],
      [{ after: 'eyJrIjoiZXZlbnRzIn0' }, ['after']],
      [{ after: encodeCursor('sales', new Date(), 1) }, ['after']],
      [{ after: encodeCursor('events', new Date(), 1), since: '2026-01-01T00:00:00Z' }, ['after', 'since']],
      [{ since: '2026-01-01' }, ['since']],
      [{ since: '2026-01-01T10:00:00' }, ['since']],
      [{ since: '2026-02-30T10:00:00Z' }, ['since']],
      [{ since: 'yesterday' }, ['since']],
      [{ types: 'sale.exploded' }, ['types']],
      [{ types: 'ping' }, ['types']],
      [{ types: '' }, ['types']],
      [{ per_page: '0' }, ['per_page']],
      [{ per_page: 'many' }, ['per_page']],
      [{ cursor: 'x' }, ['cursor']],
      [{ updated_since: '2026-01-01T00:00:00Z' }, ['updated_since']],
    ];
    for (const [query, fields] of cases) {
      const res = await api().get('/api/v1/integration/events').query(query).set(bearer(everything));
      expectErrorEnvelope(res, 422);
      expect([query, Object.keys(res.body.errors).sort()]).toEqual([query, fields]);
    }
  });

  it('is for API applications with integration:read (the /integrations alias too), and documented', async () => {
    const admin = await login(t, DEMO.admin);
    expectErrorEnvelope(await api().get('/api/v1/integration/events').set(bearer(admin)), 403);
    expectErrorEnvelope(await api().get('/api/v1/integration/events'), 401);
    const noRead = (await integrationToken(t, READ_ALL, ['pos'])).token;
    expectErrorEnvelope(await api().get('/api/v1/integration/events').set(bearer(noRead)), 403);
    const alias = await api().get('/api/v1/integrations/events?per_page=1').set(bearer(everything));
    expect(alias.status).toBe(200);
    expect(alias.body).toEqual({ success: true, data: [expect.any(Object)], meta: { per_page: 1, next_cursor: expect.any(String), has_more: true } });

    const doc = (await api().get('/api/docs-json')).body;
    const op = doc.paths['/api/v1/integration/events'].get;
    expect(op['x-permission']).toMatch(/integration:read/);
    expect(op.responses['200'].content['application/json'].schema.properties.meta).toEqual({ $ref: '#/components/schemas/EventLogMeta' });
    expect(op.responses['200'].headers.Warning).toBeDefined();
    for (const status of ['401', '403', '422']) expect(op.responses[status]).toBeDefined();
    const query = op.parameters.filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name);
    expect(query.sort()).toEqual(['after', 'per_page', 'since', 'types']);
  });
});
