import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';
import { createYenStore } from '../support/yen-store';

/**
 * A store selling in Japanese yen (0 decimals, prices include 10% tax): JSON amounts are whole
 * yen in and out, and receipts (JSON and text) are built from the records in minor units, never
 * by turning view decimals back into cents (issue 8, "views from records").
 *   3 x Still Water at 129 yen (the item's base price, read in the store's currency) = 387 yen,
 *   tax included 10%: 387 x 10/110 = 35.18 -> 35 yen; paid 500 yen cash, change 113 yen.
 */
describe('A yen store: amounts in the currency of the store', () => {
  let t: TestApp;
  let admin: string;
  let storeId: number;
  let waterId: number;
  const api = () => request(t.http);

  beforeAll(async () => {
    t = await startTestApp();
    admin = await login(t, DEMO.admin);
    const tokyo = await createYenStore(t);
    ({ storeId, waterId } = tokyo);
    const wh = tokyo.warehouseId;
    const received = await api()
      .post('/api/v1/inventory/adjustments')
      .set(bearer(admin))
      .send({ type: 'receive', warehouse_id: wh, items: [{ item_id: waterId, quantity: 50 }] });
    expect(received.status).toBe(201);
    expect((await api().post('/api/v1/sessions/open').set(bearer(admin)).send({ store_id: storeId, opening_balance: 10000 })).status).toBe(200);
  });
  afterAll(() => t.close());

  const sale = (extra: Record<string, unknown> = {}) => ({
    store_id: storeId,
    idempotency_key: `jpy-${Math.random()}`,
    items: [{ id: waterId, qty: 3 }],
    payments: [{ payment_method_code: 'cash', amount: 500 }],
    total_amount: 387,
    ...extra,
  });

  it('prices the cart in whole yen', async () => {
    const res = await api()
      .post('/api/v1/pricing/cart')
      .set(bearer(admin))
      .send({ store_id: storeId, items: [{ id: waterId, qty: 3 }] });
    expect(res.status).toBe(200);
    // the books before tax: 387 yen holds 35 of tax, so subtotal 352 + tax 35 = total 387
    expect(res.body.data).toMatchObject({ currency: 'JPY', prices_include_tax: true, subtotal: 352, discount_total: 0, tax_total: 35, total: 387 });
  });

  it('shows the till its prices in whole yen (money has no default scale)', async () => {
    const one = await api().get(`/api/v1/pos/products/${waterId}?store_id=${storeId}`).set(bearer(admin));
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ price: 129, base_price: 129 });
    const found = await api().get(`/api/v1/pos/products/search?store_id=${storeId}&q=BEV-001`).set(bearer(admin));
    expect(found.body.data[0]).toMatchObject({ id: waterId, price: 129 });
  });

  it('refuses fractions of a yen with 422 naming the field', async () => {
    for (const [body, field] of [
      [sale({ total_amount: 387.5 }), 'total_amount'],
      [sale({ payments: [{ payment_method_code: 'cash', amount: 500.25 }] }), 'payments.0.amount'],
    ] as const) {
      const res = await api().post('/api/v1/pos/checkout').set(bearer(admin)).send(body);
      expectErrorEnvelope(res, 422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
  });

  it('sells, and the sale, its receipt and its text receipt show whole yen', async () => {
    const res = await api().post('/api/v1/pos/checkout').set(bearer(admin)).send(sale());
    expect(res.status).toBe(201);
    const d = res.body.data;
    expect(d).toMatchObject({ currency: 'JPY', subtotal: 352, discount_total: 0, total_amount: 387, tax_total: 35, paid_amount: 387, change_amount: 113 });
    expect(d.items[0]).toMatchObject({ unit_price: 129, gross: 352, net: 352, total: 387, tax: 35 });
    expect(d.invoice).toMatchObject({ amount: 387, paid: 387, balance: 0 });

    const receipt = await api().get(`/api/v1/sales/${d.id}/receipt`).set(bearer(admin));
    expect(receipt.status).toBe(200);
    expect(receipt.body.data).toMatchObject({
      currency: 'JPY',
      subtotal: 352,
      total: 387,
      tax_total: 35,
      taxes: [{ rate: 10, taxable: 352, tax: 35 }],
      time_zone: 'Asia/Tokyo',
      change: 113,
      payments: [{ method: 'cash', amount: 387, tendered: 500, change: 113 }],
      lines: [{ quantity: 3, unit_price: 129, total: 387 }],
    });

    const text = await api().get(`/api/v1/sales/${d.id}/receipt?format=text`).set(bearer(admin));
    expect(text.status).toBe(200);
    const body = text.text;
    expect(body).toMatch(/TOTAL\s+JPY 387\n/);
    expect(body).toMatch(/Subtotal excl\. tax\s+352\n/);
    expect(body).toMatch(/Tax 10%\s+35\n/);
    expect(body).toMatch(/CASH\s+500\n/);
    expect(body).toMatch(/Change\s+113\n/);
    expect(body).toMatch(/3 x 129\n/);
    expect(body).not.toMatch(/\d\.\d/);
    // the store's wall clock: Tokyo is UTC+9
    expect(receipt.body.data.date).toMatch(/\+09:00$/);
    expect(new Date(receipt.body.data.date).getTime()).toBe(new Date(d.created_at).getTime());
  });

  it('adds up for a discounted and for a tax-exempt sale in yen (subtotal - discounts + tax = total)', async () => {
    const discounted = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(admin))
      .send(sale({ cart_discount_type: 'amount', cart_discount_value: 50, total_amount: 337, payments: [{ payment_method_code: 'cash', amount: 337 }] }));
    expect(discounted.status).toBe(201);
    // 337 yen holds round(337 x 10/110) = 31 of tax: net 306; gross 352 before tax, so 46 of discount before tax
    expect(discounted.body.data).toMatchObject({ subtotal: 352, discount_total: 46, tax_total: 31, total_amount: 337 });
    const exempt = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(admin))
      .send(sale({ tax_exempt: true, tax_exempt_reason: 'Embassy', total_amount: 352, payments: [{ payment_method_code: 'cash', amount: 352 }] }));
    expect(exempt.status).toBe(201);
    expect(exempt.body.data).toMatchObject({ subtotal: 352, discount_total: 0, tax_total: 0, total_amount: 352, tax_exempted: 35 });
    expect(exempt.body.data.items[0]).toMatchObject({ unit_price: 129, gross: 352, net: 352, tax: 0, tax_exempted: 35, total: 352 });
  });
});
