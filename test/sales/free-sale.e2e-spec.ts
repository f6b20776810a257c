import request from 'supertest';
import { bearer, countStock, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';

/**
 * A cart that comes to 0.00 (a free item, a discount of 100% approved) is a sale with no tender.
 * Before, every way of paying it was refused (an amount of 0 is below 0.01, an amount of 0.01 all
 * change, no payments "required"), so a giveaway could never be rung.
 */
describe('Checkout: a sale that comes to nothing', () => {
  let t: TestApp;
  let cashier: string;
  let free: number;
  const api = () => request(t.http);
  const sale = (key: string, over: Record<string, unknown> = {}) =>
    api()
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .send({ store_id: 1, idempotency_key: key, items: [{ id: free, qty: 2 }], payments: [], total_amount: 0, ...over });

  beforeAll(async () => {
    t = await startTestApp();
    cashier = await login(t, DEMO.cashier);
    const manager = await login(t, DEMO.manager);
    free = (await api().post('/api/v1/items').set(bearer(manager)).send({ sku: 'BAG-FREE', name: 'Paper bag', base_price: 0 }).expect(201)).body.data.id;
    await countStock(t, manager, free, 10);
    await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 10 }).expect(200);
  });
  afterAll(() => t.close());

  it('records it without a tender: total, payments and invoice all nothing, the stock taken', async () => {
    const quote = await api()
      .post('/api/v1/pos/checkout/validate')
      .set(bearer(cashier))
      .send({ store_id: 1, items: [{ id: free, qty: 2 }], payments: [], total_amount: 0 });
    expect(quote.status).toBe(200);
    expect(quote.body.data).toMatchObject({ valid: true, total: 0, balance_due: 0, payments: [] });
    const res = await sale('free-1');
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ total_amount: 0, payments: [], invoice: { status: 'paid', balance: 0 } });
    const [{ q }] = await t.db.query("SELECT SUM(quantity) AS q FROM stock_movements WHERE item_id = ? AND type = 'sale'", [free]);
    expect(Number(q)).toBe(-2);
    const session = (await api().get('/api/v1/sessions/current?store_id=1').set(bearer(cashier))).body.data;
    const summary = (await api().get(`/api/v1/sessions/${session.id}/summary`).set(bearer(cashier))).body.data;
    expect(summary).toMatchObject({ sales_count: 1, expected_cash: 10 });
  });

  it('still needs a tender for anything above nothing', async () => {
    const paid = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .send({ store_id: 1, idempotency_key: 'free-2', items: [{ id: 1, qty: 1 }], payments: [], total_amount: 1.32 });
    expectErrorEnvelope(paid, 422);
    expect(paid.body.errors.payments).toBeDefined();
  });

  it("takes a legacy till's payment_method on a free cart as paying nothing, and refuses money paid for nothing", async () => {
    const legacy = await sale('free-legacy', { payment_method: 'cash' });
    expect(legacy.status).toBe(201);
    expect(legacy.body.data).toMatchObject({ total_amount: 0, payments: [] });
    const overpaid = await sale('free-overpaid', { payments: [{ payment_method_code: 'card', amount: 0.01 }] });
    expectErrorEnvelope(overpaid, 400);
  });
});
