import request from 'supertest';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';
import { demoIds, DemoIds } from './catalog-helpers';

/**
 * Items, units, barcodes and price book entries are kept per process (issue 12: lookups and
 * checkout read them from memory). A write through the service is seen by the very next request:
 * the caches are forgotten once the write commits. The TTL is long here, so only the forgetting
 * can make these pass.
 */
describe('Per-process reference caches', () => {
  let t: TestApp;
  let cashier: string;
  let manager: string;
  let admin: string;
  let ids: DemoIds;
  const api = () => request(t.http);
  const scan = (id: number) => api().get(`/api/v1/pos/products/${id}?store_id=1`).set(bearer(cashier));
  const cart = (id: number) =>
    api()
      .post('/api/v1/pricing/cart')
      .set(bearer(cashier))
      .send({ store_id: 1, items: [{ id, qty: 1 }] });

  beforeAll(async () => {
    t = await startTestApp({ REFERENCE_CACHE_TTL_MS: '600000' });
    cashier = await login(t, DEMO.cashier);
    manager = await login(t, DEMO.manager);
    admin = await login(t, DEMO.admin);
    ids = await demoIds(t);
  });
  afterAll(() => t.close());

  it('an item edited through the API is scanned and priced with its new price, barcodes and units at once', async () => {
    const id = ids.item['SNK-002'];
    const before = await scan(id);
    expect(before.status).toBe(200);
    expect((await cart(id)).status).toBe(200);

    const edited = await api()
      .put(`/api/v1/items/${id}`)
      .set(bearer(manager))
      .send({ base_price: 7.77, barcodes: ['7000000000017'], units: [{ name: 'tray', factor: 6, price: 40, barcode: '7000000000024' }] });
    expect(edited.status).toBe(200);

    const after = await scan(id);
    expect(after.body.data.base_price).toBe(7.77);
    expect(after.body.data.barcodes).toEqual(['7000000000017']);
    expect(after.body.data.units.map((u: { name: string }) => u.name)).toEqual(['tray']);
    expect((await cart(id)).body.data.items[0].unit_price).toBe(7.77);
    const found = await api().get('/api/v1/pos/products/search?q=7000000000017&store_id=1').set(bearer(cashier));
    expect(found.body.data.map((p: { id: number }) => p.id)).toEqual([id]);
  });

  it('an item deactivated or deleted is no longer sold at once', async () => {
    const id = ids.item['SNK-003'];
    expect((await cart(id)).status).toBe(200);
    expect((await api().put(`/api/v1/items/${id}`).set(bearer(manager)).send({ is_active: false })).status).toBe(200);
    expect((await cart(id)).status).toBe(422);
    expect((await api().put(`/api/v1/items/${id}`).set(bearer(manager)).send({ is_active: true })).status).toBe(200);
    expect((await cart(id)).status).toBe(200);
    expect((await api().delete(`/api/v1/items/${id}`).set(bearer(admin))).status).toBe(200);
    expect((await cart(id)).status).toBe(422);
    expect((await scan(id)).status).toBe(404);
  });

  it('a rolled-back item write leaves the cached copy right', async () => {
    const id = ids.item['BEV-002'];
    const price = (await scan(id)).body.data.base_price;
    // a duplicate SKU makes the update fail inside its transaction
    const refused = await api().put(`/api/v1/items/${id}`).set(bearer(manager)).send({ base_price: 9.99, sku: 'BEV-001' });
    expect(refused.status).toBe(422);
    expect((await scan(id)).body.data.base_price).toBe(price);
  });
});
