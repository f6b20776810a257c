import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';
import { createForeignStore } from '../support/yen-store';

/**
 * A store selling in Kuwaiti dinar (3 decimals: 1 KWD = 1,000 fils), prices before a 5% tax:
 * money has no default scale, so amounts with 3 decimals go in and come out, and a fourth decimal
 * is 422 on the field, as a third is in a dollar store.
 *   3 x Still Water at 0.129 KWD (the item's base price, read in the store's currency) = 0.387,
 *   tax 5% = 0.01935 -> 0.019 (half-up to the fils): total 0.406; paid 1.000 cash, change 0.594.
 */
describe('A dinar store: three decimals in and out', () => {
  let t: TestApp;
  let admin: string;
  let storeId: number;
  let waterId: number;
  let sessionId: number;
  const api = () => request(t.http);

  beforeAll(async () => {
    t = await startTestApp();
    admin = await login(t, DEMO.admin);
    const kuwait = await createForeignStore(t, {
      code: 'KW',
      name: 'Kuwait City Store',
      currency: 'KWD',
      currencyRow: { name: 'Kuwaiti Dinar', symbol: 'KD', decimals: 3 },
      timezone: 'Asia/Kuwait',
      pricesIncludeTax: false,
      waterTaxBp: 500,
    });
    ({ storeId, waterId } = kuwait);
    const received = await api()
      .post('/api/v1/inventory/adjustments')
      .set(bearer(admin))
      .send({ type: 'receive', warehouse_id: kuwait.warehouseId, items: [{ item_id: waterId, quantity: 50 }] });
    expect(received.status).toBe(201);
  });
  afterAll(() => t.close());

  const sale = (extra: Record<string, unknown> = {}) => ({
    store_id: storeId,
    idempotency_key: `kwd-${Math.random()}`,
    items: [{ id: waterId, qty: 3 }],
    payments: [{ payment_method_code: 'cash', amount: 0.406, tendered: 1 }],
    total_amount: 0.406,
    ...extra,
  });

  it('opens a drawer with fils in it, and refuses a fourth decimal', async () => {
    const tooFine = await api().post('/api/v1/sessions/open').set(bearer(admin)).send({ store_id: storeId, opening_balance: 25.1255 });
    expectErrorEnvelope(tooFine, 422);
    expect(tooFine.body.errors.opening_balance[0]).toMatch(/at most 3 decimal places/);
    const opened = await api().post('/api/v1/sessions/open').set(bearer(admin)).send({ store_id: storeId, opening_balance: 25.125 });
    expect(opened.status).toBe(200);
    sessionId = opened.body.data.id;
    // one fils: below the cent a dollar store's smallest amount would be
    const cashIn = await api().post(`/api/v1/sessions/${sessionId}/cash-movement`).set(bearer(admin)).send({ type: 'cash_in', amount: 0.005, reason: 'Coins' });
    expect(cashIn.status).toBe(200);
    const nothing = await api().post(`/api/v1/sessions/${sessionId}/cash-movement`).set(bearer(admin)).send({ type: 'cash_in', amount: 0, reason: 'Coins' });
    expectErrorEnvelope(nothing, 422);
    expect(nothing.body.errors.amount).toEqual(['The amount field must be greater than 0.']);
  });

  it('prices the cart to the fils', async () => {
    const res = await api()
      .post('/api/v1/pricing/cart')
      .set(bearer(admin))
      .send({ store_id: storeId, items: [{ id: waterId, qty: 3 }] });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ currency: 'KWD', subtotal: 0.387, tax_total: 0.019, total: 0.406 });
  });

  it('sells with three decimals, and the sale and its receipt keep them', async () => {
    const res = await api().post('/api/v1/pos/checkout').set(bearer(admin)).send(sale());
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ currency: 'KWD', subtotal: 0.387, tax_total: 0.019, total_amount: 0.406, paid_amount: 0.406, change_amount: 0.594 });
    expect(res.body.data.items[0]).toMatchObject({ unit_price: 0.129, total: 0.406, tax: 0.019 });
    const text = await api().get(`/api/v1/sales/${res.body.data.id}/receipt?format=text`).set(bearer(admin));
    expect(text.status).toBe(200);
    expect(text.text).toMatch(/TOTAL\s+KWD 0\.406\n/);
    expect(text.text).toMatch(/Change\s+0\.594\n/);
  });

  it('takes a line discount and a cart discount in fils', async () => {
    const res = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(admin))
      .send(
        sale({
          items: [{ id: waterId, qty: 3, discount_type: 'amount', discount_value: 0.007 }],
          cart_discount_type: 'amount',
          cart_discount_value: 0.01,
          // 0.387 - 0.007 - 0.010 = 0.370; tax 5% = 0.0185 -> 0.019: 0.389
          total_amount: 0.389,
          payments: [{ payment_method_code: 'cash', amount: 0.389 }],
        }),
      );
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ subtotal: 0.387, discount_total: 0.017, tax_total: 0.019, total_amount: 0.389 });
  });

  it('refuses a fourth decimal on every kind of amount with 422 naming the field, and sells nothing', async () => {
    const before = await api().get(`/api/v1/sessions/${sessionId}/summary`).set(bearer(admin));
    for (const [body, field] of [
      [sale({ total_amount: 0.4061 }), 'total_amount'],
      [sale({ payments: [{ payment_method_code: 'cash', amount: 0.4065 }] }), 'payments.0.amount'],
      [sale({ payments: [{ payment_method_code: 'cash', amount: 0.406, tendered: 1.0001 }] }), 'payments.0.tendered'],
      [sale({ items: [{ id: waterId, qty: 3, price: 0.1295 }] }), 'items.0.price'],
      [sale({ items: [{ id: waterId, qty: 3, discount_type: 'amount', discount_value: 0.0075 }] }), 'items.0.discount_value'],
      [sale({ subtotal: 0.3871 }), 'subtotal'],
    ] as const) {
      const res = await api().post('/api/v1/pos/checkout').set(bearer(admin)).send(body);
      expectErrorEnvelope(res, 422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
      expect(res.body.errors[field][0]).toMatch(/at most 3 decimal places/);
    }
    const after = await api().get(`/api/v1/sessions/${sessionId}/summary`).set(bearer(admin));
    expect(after.body.data).toEqual(before.body.data);
  });

  it('names every amount too fine for the currency at once', async () => {
    const res = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(admin))
      .send(
        sale({
          items: [
            { id: waterId, qty: 1, price: 0.1291 },
            { id: waterId, qty: 2, discount_type: 'amount', discount_value: 0.0001 },
          ],
          cart_discount_type: 'percent',
          cart_discount_value: 1.125,
          total_amount: 0.4061,
        }),
      );
    expectErrorEnvelope(res, 422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['cart_discount_value', 'items.0.price', 'items.1.discount_value', 'total_amount']);
  });

  it('holds a percent to two decimals whatever the currency', async () => {
    const res = await api()
      .post('/api/v1/pricing/cart')
      .set(bearer(admin))
      .send({ store_id: storeId, items: [{ id: waterId, qty: 3, discount_type: 'percent', discount_value: 10.555 }] });
    expectErrorEnvelope(res, 422);
    expect(res.body.errors['items.0.discount_value'][0]).toMatch(/at most 2 decimal places/);
  });

  it('closes the drawer counted to the fils', async () => {
    // expected: 25.125 opening + 0.005 in + 0.406 + 0.389 of cash sales = 25.925
    const summary = await api().get(`/api/v1/sessions/${sessionId}/summary`).set(bearer(admin));
    expect(summary.body.data.expected_cash).toBe(25.925);
    const closed = await api().post(`/api/v1/sessions/${sessionId}/close`).set(bearer(admin)).send({ closing_balance: 25.92 });
    expect(closed.status).toBe(200);
    expect(closed.body.data).toMatchObject({ closing_balance: 25.92 });
    const after = await api().get(`/api/v1/sessions/${sessionId}/summary`).set(bearer(admin));
    expect(after.body.data).toMatchObject({ closing_balance: 25.92, discrepancy: -0.005 });
  });
});

describe('A dollar store still holds amounts to cents', () => {
  let t: TestApp;
  let admin: string;
  const api = () => request(t.http);
  beforeAll(async () => {
    t = await startTestApp();
    admin = await login(t, DEMO.admin);
  });
  afterAll(() => t.close());

  it('refuses a third decimal with 422 naming the field (the HTTP layer takes up to four)', async () => {
    const res = await api().post('/api/v1/sessions/open').set(bearer(admin)).send({ store_id: 1, opening_balance: 100.005 });
    expectErrorEnvelope(res, 422);
    expect(res.body.errors.opening_balance[0]).toMatch(/at most 2 decimal places/);
    const fifth = await api().post('/api/v1/sessions/open').set(bearer(admin)).send({ store_id: 1, opening_balance: 100.00001 });
    expectErrorEnvelope(fifth, 422);
    expect(fifth.body.errors.opening_balance[0]).toMatch(/at most 4 decimal places/);
  });
});
