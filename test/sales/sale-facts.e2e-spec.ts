import request from 'supertest';
import { SaleFactsReader } from '@pos/sales';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';

/**
 * The facts a read model is rebuilt from (SaleFactsReader.batch, read raw over an id range) are
 * the very records one sale's facts are (SaleFactsReader.sale): every field, on both databases.
 * The batch once mapped its own list of columns and left out the tax mode, synced_at, a void
 * after close and the exempted tax.
 */
describe('Sale facts in batches are whole records', () => {
  let t: TestApp;
  let admin: string;
  const api = () => request(t.http);

  beforeAll(async () => {
    t = await startTestApp();
    admin = await login(t, DEMO.admin);
  });
  afterAll(() => t.close());

  it('reads every field of a sale, its lines and its payments as one sale read does', async () => {
    // Airport (store 2) prices include tax: a field the old column list did not carry.
    expect((await api().post('/api/v1/sessions/open').set(bearer(admin)).send({ store_id: 2, opening_balance: 0 })).status).toBe(200);
    const [item] = (await t.db.query("SELECT id FROM items WHERE sku = 'SNK-001'")) as { id: number }[];
    const cart = { store_id: 2, items: [{ id: Number(item.id), qty: 2 }] };
    const priced = await api().post('/api/v1/pricing/cart').set(bearer(admin)).send(cart);
    expect(priced.status).toBe(200);
    const sold = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(admin))
      .send({
        ...cart,
        idempotency_key: 'facts-1',
        total_amount: priced.body.data.total,
        payments: [{ payment_method_code: 'cash', amount: priced.body.data.total }],
      });
    expect(sold.status).toBe(201);
    const id = Number(sold.body.data.id);

    const reader = t.app.get(SaleFactsReader);
    const one = await reader.sale(id);
    expect(one?.sale.pricesIncludeTax).toBe(true);
    const batch = (await reader.batch(id - 1, 10)).find((f) => f.sale.id === id);
    expect(batch).toEqual(one);
    // every column the entity has, none missing
    expect(Object.keys(batch!.sale).sort()).toEqual(Object.keys(one!.sale).sort());
    expect(Object.keys(batch!.items[0]).sort()).toEqual(Object.keys(one!.items[0]).sort());
  });
});
