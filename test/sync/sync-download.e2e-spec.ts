import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import request from 'supertest';
import { Clock } from '@pos/kernel';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';
import { downloadAll, sleep } from './sync-helpers';

/**
 * GET /sync/initial and /sync/delta on the demo data: paging to the end, the token, gzip, and a
 * delta that carries a change, a new item and deletions (tombstones), and nothing unchanged. The
 * overlap window is 2 s here so "unchanged" can be observed after a short wait.
 */
describe('Offline sync: initial download and delta', () => {
  let t: TestApp;
  let cashier: string;
  let admin: string;
  const api = () => request(t.http);
  const count = async (sql: string, params: unknown[] = []) => Number((await t.db.query(sql, params))[0].n);

  beforeAll(async () => {
    t = await startTestApp({ SYNC_OVERLAP_SECONDS: '2', TOKEN_TTL_MINUTES: '5256000' });
    cashier = await login(t, DEMO.cashier, { device_name: 'Till 1' });
    admin = await login(t, DEMO.admin);
  });
  afterAll(() => t.close());

  it('pages the demo store to the end: every record once, one token, the reference on the first page', async () => {
    const d = await downloadAll(t, cashier, '/api/v1/sync/initial', { store_id: 1, limit: 7 });
    expect(d.pages).toBeGreaterThan(5);
    expect(d.tokens.size).toBe(1);
    expect(d.referencePages).toBe(1);
    const ids = (type: string) => d.records[type].map((r) => r.id);
    const sellable = await count('SELECT COUNT(*) AS n FROM items WHERE deleted_at IS NULL AND is_active = 1');
    expect(ids('items')).toHaveLength(sellable);
    expect(new Set(ids('items')).size).toBe(sellable);
    expect(ids('items')).toEqual([...ids('items')].sort((a, b) => a - b));
    expect(ids('categories')).toHaveLength(await count('SELECT COUNT(*) AS n FROM categories WHERE deleted_at IS NULL'));
    expect(ids('customers')).toHaveLength(await count('SELECT COUNT(*) AS n FROM customers WHERE deleted_at IS NULL'));
    // the members book applies everywhere; the airport book only at the airport
    expect(new Set(d.records.price_book_entries.map((e) => e.price_book_id))).toEqual(new Set([1]));
    expect(Object.values(d.deleted).flat()).toEqual([]);

    const water = d.records.items.find((i) => i.sku === 'BEV-001')!;
    expect(water).toMatchObject({
      name: 'Still Water 500ml',
      base_price: 1.29,
      price: 1.29,
      price_source: 'base',
      tax_rate: 2,
      barcodes: ['4006381333900'],
      units: [{ name: 'case', factor: 12, price: 13.99, barcode: '14006381333907' }],
      stock: [
        { warehouse_id: 1, quantity: 50 },
        { warehouse_id: 3, quantity: 200 },
      ],
    });
    expect(d.records.items.find((i) => i.sku === 'SNK-006')).toBeUndefined(); // inactive: not for sale
    const ref = d.reference as Record<string, any>;
    expect(ref.store).toMatchObject({ id: 1, code: 'DT', currency: 'USD', timezone: 'America/New_York', prices_include_tax: false });
    expect(ref.store.receipt_footer).toBe('Thank you for shopping with us!');
    expect(ref.currency).toMatchObject({ code: 'USD', decimals: 2 });
    expect(ref.discount_limits).toEqual({ max_discount_percent: 10, max_discount_amount: 20, can_approve_discounts: false });
    expect(ref.payment_methods.map((m: { code: string }) => m.code)).toEqual(['cash', 'card', 'on_account']);
    expect(ref.tax.tax_classes.find((c: { code: string }) => c.code === 'standard').rate).toBe(8.25);
    expect(ref.customer_groups.map((g: { code: string }) => g.code).sort()).toEqual(['members', 'retail']);
    expect(ref.price_books.map((b: { code: string }) => b.code)).toEqual(['MEMBERS']);
    expect(Array.isArray(ref.pricing_rules) && Array.isArray(ref.bundles)).toBe(true);
  });

  it('gives the airport store its own book, prices and tax', async () => {
    const manager = await login(t, DEMO.manager);
    const d = await downloadAll(t, manager, '/api/v1/sync/initial', { store_id: 2, limit: 1000 });
    expect(d.pages).toBe(1);
    expect((d.reference as any).price_books.map((b: { code: string }) => b.code).sort()).toEqual(['AIRPORT', 'MEMBERS']);
    const water = d.records.items.find((i) => i.sku === 'BEV-001')!;
    expect(water).toMatchObject({
      price: 2.49,
      price_source: 'price_book',
      stock: [
        { warehouse_id: 2, quantity: 30 },
        { warehouse_id: 3, quantity: 200 },
      ],
    });
    expect(d.records.items.find((i) => i.sku === 'BEV-003')!.tax_rate).toBe(7.5);
  });

  it('compresses pages with gzip when the client accepts it', async () => {
    const server = t.http.listening ? t.http : t.http.listen(0);
    const port = (server.address() as { port: number }).port;
    const get = (encoding: string | null) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const req = http.get(
          {
            host: '127.0.0.1',
            port,
            path: '/api/v1/sync/initial?store_id=1&limit=50',
            headers: { authorization: `Bearer ${cashier}`, ...(encoding ? { 'accept-encoding': encoding } : {}) },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          },
        );
        req.on('error', reject);
      });
    const zipped = await get('gzip, deflate');
    const plain = await get(null);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/Accept-Encoding/i);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(zipped.body.length).toBeLessThan(plain.body.length / 3);
    const unzipped = JSON.parse(gunzipSync(zipped.body).toString('utf8'));
    expect(unzipped.success).toBe(true);
    expect(unzipped.data.records.items.length).toBe(JSON.parse(plain.body.toString('utf8')).data.records.items.length);
    expect((await get('gzip;q=0')).headers['content-encoding']).toBeUndefined();
  });

  it('delivers a change, a new item and deletions (tombstones) in the delta, and nothing unchanged', async () => {
    // The delta reads from the token's time less the 2 s overlap: wait first so the demo data
    // (written when the app started) is older than that window, whatever the machine's speed.
    await sleep(3100);
    const first = await downloadAll(t, cashier, '/api/v1/sync/initial', { store_id: 1, limit: 1000 });
    await sleep(2500); // changes below are then after the token
    const items = Object.fromEntries(first.records.items.map((i) => [i.sku as string, i.id]));
    await api().put(`/api/v1/items/${items['COF-003']}`).set(bearer(admin)).send({ name: 'Green Tea 25 bags', base_price: 4.79 }).expect(200);
    const created = await api()
      .post('/api/v1/items')
      .set(bearer(admin))
      .send({ sku: 'SYNC-NEW-1', name: 'Delta Biscuits', base_price: 2.5, category_id: first.records.categories[0].id, barcodes: ['9990001112223'] });
    expect(created.status).toBe(201);
    await api().delete(`/api/v1/items/${items['HSE-005']}`).set(bearer(admin)).expect(200);
    const category = await api().post('/api/v1/categories').set(bearer(admin)).send({ name: 'Short-lived' });
    await api().delete(`/api/v1/categories/${category.body.data.id}`).set(bearer(admin)).expect(200);
    const jane = first.records.customers.find((c) => c.email === 'jane.doe@example.com')!;
    const temp = await api().post('/api/v1/customers').set(bearer(admin)).send({ name: 'Temp Customer' });
    await api().delete(`/api/v1/customers/${temp.body.data.id}`).set(bearer(admin)).expect(200);
    // stock that moves in the store's warehouse is a change of the item too
    await api()
      .post('/api/v1/inventory/adjustments')
      .set(bearer(admin))
      .send({ type: 'receive', warehouse_id: 1, items: [{ item_id: items['GRO-006'], quantity: 5 }] })
      .expect(201);
    // ...but not stock in another store's warehouse
    await api()
      .post('/api/v1/inventory/adjustments')
      .set(bearer(admin))
      .send({ type: 'receive', warehouse_id: 2, items: [{ item_id: items['GRO-004'], quantity: 5 }] })
      .expect(201);

    await sleep(2500); // so the delta's own token is past the overlap of these changes (see the quiet delta below)
    const delta = await downloadAll(t, cashier, '/api/v1/sync/delta', { since: first.token, limit: 2 });
    expect(delta.tokens.size).toBe(1);
    expect(delta.token).not.toBe(first.token);
    expect(delta.referencePages).toBe(0); // the reference sets did not change
    const bySku = Object.fromEntries(delta.records.items.map((i) => [i.sku as string, i]));
    expect(Object.keys(bySku).sort()).toEqual(['COF-003', 'GRO-006', 'SYNC-NEW-1']);
    expect(bySku['COF-003']).toMatchObject({ name: 'Green Tea 25 bags', base_price: 4.79, price: 4.79 });
    expect(bySku['SYNC-NEW-1']).toMatchObject({
      name: 'Delta Biscuits',
      barcodes: ['9990001112223'],
      stock: [
        { warehouse_id: 1, quantity: 0 },
        { warehouse_id: 3, quantity: 0 },
      ],
    });
    expect(bySku['GRO-006'].stock).toContainEqual({ warehouse_id: 1, quantity: 55 });
    expect(delta.deleted.items).toContain(items['HSE-005']);
    expect(delta.deleted.categories).toContain(category.body.data.id);
    expect(delta.deleted.customers).toContain(temp.body.data.id);
    expect(delta.records.customers.map((c) => c.id)).not.toContain(jane.id);
    expect(delta.records.customers.map((c) => c.id)).not.toContain(temp.body.data.id);
    expect(delta.records.categories.map((c) => c.id)).not.toContain(category.body.data.id);
    // the tombstones are there for devices that only read the deletions
    expect(await count("SELECT COUNT(*) AS n FROM tombstones WHERE entity = 'item' AND entity_id = ?", [items['HSE-005']])).toBe(1);

    // the next delta from the new token is empty: the changes were more than the overlap before it
    const quiet = await downloadAll(t, cashier, '/api/v1/sync/delta', { since: delta.token });
    expect(Object.values(quiet.records).flat()).toEqual([]);
    expect(Object.values(quiet.deleted).flat()).toEqual([]);
  });

  it('sends the reference sets again when they changed', async () => {
    const first = await downloadAll(t, cashier, '/api/v1/sync/initial', { store_id: 1 });
    const rule = await api()
      .post('/api/v1/pricing-rules')
      .set(bearer(admin))
      .send({ name: 'Sync rule', kind: 'percent_off', percent_off: 10, store_ids: [1] });
    expect(rule.status).toBeLessThan(300);
    const delta = await downloadAll(t, cashier, '/api/v1/sync/delta', { since: first.token });
    expect(delta.referencePages).toBe(1);
    expect((delta.reference as any).pricing_rules.map((r: { name: string }) => r.name)).toContain('Sync rule');
  });

  it('records the device syncs for /sync/status', async () => {
    const res = await api().get('/api/v1/sync/status?store_id=1').set(bearer(cashier)).expect(200);
    expect(res.body.data.device.name).toBe('Till 1');
    expect(Date.parse(res.body.data.device.last_initial_sync_at)).toBeGreaterThan(0);
    expect(Date.parse(res.body.data.device.last_delta_sync_at)).toBeGreaterThan(0);
    expect(res.body.data.device.last_upload_at).toBeNull();
  });

  it('refuses a malformed or tampered token and cursor (422), another store (403), and an old token (409)', async () => {
    const { token } = await downloadAll(t, cashier, '/api/v1/sync/initial', { store_id: 1 });
    const delta = (q: Record<string, string>) => api().get('/api/v1/sync/delta').query(q).set(bearer(cashier));
    expectErrorEnvelope(await delta({}), 422);
    expect((await delta({})).body.errors.since).toBeDefined();
    for (const bad of ['garbage', token.slice(0, -2) + 'xx', 'x' + token, token.replace(/^[^.]/, 'A'), '2026-13-45']) {
      const res = await delta({ since: bad });
      expectErrorEnvelope(res, 422);
      expect(res.body.errors.since).toBeDefined();
    }
    const cursorRes = await api().get('/api/v1/sync/initial').query({ cursor: 'not-a-cursor' }).set(bearer(cashier));
    expectErrorEnvelope(cursorRes, 422);
    expect(cursorRes.body.errors.cursor).toBeDefined();
    expectErrorEnvelope(await api().get('/api/v1/sync/initial').query({ limit: 0 }).set(bearer(cashier)), 422);
    expectErrorEnvelope(await api().get('/api/v1/sync/initial').query({ store_id: 2 }).set(bearer(cashier)), 403);
    expectErrorEnvelope(await delta({ since: token, store_id: '2' }), 422);
    // an ISO 8601 time is accepted as since (the contract's timestamp)...
    const iso = await delta({ since: new Date(Date.now() - 60_000).toISOString(), store_id: '1' });
    expect(iso.status).toBe(200);
    expect(iso.body.data.reference).not.toBeNull();
    // ...but not one older than the tombstone retention: 409, run the initial sync again
    const old = await delta({ since: new Date(Date.now() - 91 * 86_400_000).toISOString(), store_id: '1' });
    expectErrorEnvelope(old, 409);
    expect(old.body.message).toMatch(/initial/);
    // a real token 91 days later
    const clock = t.app.get(Clock);
    const real = clock.now.bind(clock);
    const spy = jest.spyOn(clock, 'now').mockImplementation(() => new Date(real().getTime() + 91 * 86_400_000));
    try {
      const expired = await delta({ since: token });
      expectErrorEnvelope(expired, 409);
      expect(expired.body.code).toBe('sync_token_expired');
    } finally {
      spy.mockRestore();
    }
  });

  it('forgets tombstones older than the retention when serving deltas', async () => {
    const old = new Date(Date.now() - 100 * 86_400_000);
    const recent = new Date(Date.now() - 10 * 86_400_000);
    const at = (d: Date) => (t.isMysql ? d : d.toISOString().replace('T', ' ').replace('Z', ''));
    await t.db.query("INSERT INTO tombstones (entity, entity_id, store_id, deleted_at) VALUES ('item', 999001, NULL, ?), ('item', 999002, NULL, ?)", [
      at(old),
      at(recent),
    ]);
    const { token } = await downloadAll(t, cashier, '/api/v1/sync/initial', { store_id: 1 });
    // the purge runs at most once an hour per process (earlier deltas of this suite ran one): two hours later
    const clock = t.app.get(Clock);
    const real = clock.now.bind(clock);
    const spy = jest.spyOn(clock, 'now').mockImplementation(() => new Date(real().getTime() + 2 * 3_600_000));
    try {
      await downloadAll(t, cashier, '/api/v1/sync/delta', { since: token });
    } finally {
      spy.mockRestore();
    }
    const left = async () =>
      (await t.db.query('SELECT entity_id FROM tombstones WHERE entity_id IN (999001, 999002)')).map((r: { entity_id: number }) => Number(r.entity_id));
    for (let i = 0; i < 40 && (await left()).length > 1; i++) await sleep(50);
    expect(await left()).toEqual([999002]);
  });

  it('clamps the page size to 5,000 and needs pos.access', async () => {
    const res = await api().get('/api/v1/sync/initial').query({ store_id: 1, limit: 999999 }).set(bearer(cashier)).expect(200);
    expect(res.body.data.complete).toBe(true);
    expect(res.headers['x-ratelimit-limit']).toBe('100000'); // the bulk tier (raised for tests)
    expectErrorEnvelope(await api().get('/api/v1/sync/initial'), 401);
  });
});
