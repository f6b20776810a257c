import request from 'supertest';
import { bearer, countStock, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';

/**
 * `offline_created_at` on POST /pos/checkout is the device's clock, kept on the sale; the sale is
 * an online one all the same: checked against the stock, priced and dated when the server records
 * it. Before, the field turned a till sale into an offline one: no stock check, the prices of any
 * moment the till named, and a return window from any date.
 */
describe('Checkout: the device time a till sends', () => {
  let t: TestApp;
  let cashier: string;
  let manager: string;
  let eggs: number;
  const api = () => request(t.http);
  const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
  const DAY = 86_400_000;
  const body = (key: string, qty: number, total: number, stamp?: string) => ({
    store_id: 1,
    idempotency_key: key,
    items: [{ id: eggs, qty }],
    payments: [{ payment_method_code: 'card', amount: total }],
    total_amount: total,
    ...(stamp === undefined ? {} : { offline_created_at: stamp }),
  });
  const checkout = (b: object) => api().post('/api/v1/pos/checkout').set(bearer(cashier)).send(b);
  const onHand = async () => Number((await t.db.query('SELECT quantity AS q FROM stock_levels WHERE item_id = ? AND warehouse_id = 1', [eggs]))[0].q);

  beforeAll(async () => {
    t = await startTestApp();
    cashier = await login(t, DEMO.cashier);
    manager = await login(t, DEMO.manager);
    eggs = Number((await t.db.query("SELECT id FROM items WHERE sku = 'GRO-003'"))[0].id); // 4.29, food tax 2%: 4.38
    await countStock(t, manager, eggs, 2);
    await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 0 }).expect(200);
  });
  afterAll(() => t.close());

  it('checks the stock: a stamp does not let a till sell what the store does not have', async () => {
    const stamp = ago(60_000);
    const res = await checkout(body('dt-stock', 3, 13.13, stamp));
    expectErrorEnvelope(res, 409);
    expect(res.body.code).toBe('insufficient_stock');
    const quote = await api()
      .post('/api/v1/pos/checkout/validate')
      .set(bearer(cashier))
      .send(body('dt-stock-q', 3, 13.13, stamp));
    expectErrorEnvelope(quote, 409);
    expect(await onHand()).toBe(2);
  });

  it('prices the cart now, not as at the stamp', async () => {
    const rule = await api()
      .post('/api/v1/pricing-rules')
      .set(bearer(manager))
      .send({ name: 'Last week only', kind: 'percent_off', percent_off: 50, item_ids: [eggs], valid_from: ago(10 * DAY), valid_to: ago(5 * DAY) });
    expect(rule.status).toBe(200);
    const stamp = ago(7 * DAY); // inside the rule's week
    const quote = await api()
      .post('/api/v1/pos/checkout/validate')
      .set(bearer(cashier))
      .send({ ...body('dt-price-q', 1, 4.38, stamp) });
    expect(quote.status).toBe(200);
    expect(quote.body.data.total).toBe(4.38);
    const cheap = await checkout(body('dt-price-cheap', 1, 2.19, stamp));
    expectErrorEnvelope(cheap, 400);
    expect(cheap.body.code).toBe('total_mismatch');
  });

  it('keeps the stamp on the sale and dates the sale (and its return window) when it was recorded', async () => {
    const stamp = new Date(Math.floor((Date.now() - 20 * DAY) / 1000) * 1000).toISOString();
    const res = await checkout(body('dt-kept', 1, 4.38, stamp));
    expect(res.status).toBe(201);
    expect(res.body.data.offline_created_at).toBe(stamp);
    expect(Date.now() - Date.parse(res.body.data.created_at)).toBeLessThan(DAY);
    const check = await api().get(`/api/v1/returns/check-sale?sale_id=${res.body.data.id}`).set(bearer(cashier));
    expect(check.body.data.eligible).toBe(true);
    expect(Date.parse(check.body.data.return_deadline)).toBeGreaterThan(Date.now() + 25 * DAY);
  });

  it('refuses a stamp outside the offline window (422 on offline_created_at), as /sync/upload does', async () => {
    for (const stamp of ['2099-01-01T00:00:00Z', '1000-01-01T00:00:00Z', ago(31 * DAY), new Date(Date.now() + 3_600_000).toISOString()]) {
      for (const path of ['/api/v1/pos/checkout', '/api/v1/pos/checkout/validate']) {
        const res = await api()
          .post(path)
          .set(bearer(cashier))
          .send(body(`dt-window-${stamp}`, 1, 4.38, stamp));
        expectErrorEnvelope(res, 422);
        expect(res.body.errors.offline_created_at[0]).toMatch(/future|days ago/);
      }
    }
    expect(await onHand()).toBe(1);
  });
});
