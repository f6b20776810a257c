import request from 'supertest';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 23, item 1: change comes from `tendered`. Item 1 of the demo sells for 1.32 in Downtown
 * (tax-exclusive). Cash: tendered >= amount, change = tendered - amount, stored on the payment and
 * the sale, printed on the receipt, counted out of the drawer; other tenders give no change.
 * Item 11: ids are numbers or strings of digits alike.
 */
describe('Tendered cash and change', () => {
  let t: TestApp;
  let cashier: string;
  let sessionId: number;
  const api = () => request(t.http);
  const sale = (payments: object[], extra: object = {}) => ({
    store_id: 1,
    idempotency_key: `tender-${Math.random()}`,
    items: [{ id: 1, qty: 1 }],
    payments,
    total_amount: 1.32,
    ...extra,
  });
  const post = (body: object, path = '/api/v1/pos/checkout') => api().post(path).set(bearer(cashier)).send(body);

  beforeAll(async () => {
    t = await startTestApp();
    cashier = await login(t, DEMO.cashier);
    const open = await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 50 });
    expect(open.status).toBe(200);
    sessionId = open.body.data.id;
  });
  afterAll(() => t.close());

  it('computes the change from an exact amount and the cash tendered, on the sale, its payment and its receipt', async () => {
    const res = await post(sale([{ payment_method_code: 'cash', amount: 1.32, tendered: 20 }]));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ total_amount: 1.32, paid_amount: 1.32, change_amount: 18.68 });
    expect(res.body.data.payments).toEqual([expect.objectContaining({ payment_method_code: 'cash', amount: 1.32, tendered: 20, change: 18.68 })]);
    const [row] = await t.db.query('SELECT amount, tendered, change_amount FROM sale_payments WHERE sale_id = ?', [res.body.data.id]);
    expect([Number(row.amount), Number(row.tendered), Number(row.change_amount)]).toEqual([132, 2000, 1868]);

    const receipt = await api().get(`/api/v1/sales/${res.body.data.id}/receipt`).set(bearer(cashier));
    expect(receipt.body.data).toMatchObject({ change: 18.68, payments: [{ method: 'cash', amount: 1.32, tendered: 20, change: 18.68 }] });
    const text = await api().get(`/api/v1/sales/${res.body.data.id}/receipt?format=text`).set(bearer(cashier));
    expect(text.text).toMatch(/CASH\s+20\.00\n/);
    expect(text.text).toMatch(/Change\s+18\.68\n/);
  });

  it('answers the same change from validate, and counts cash net of change in the session', async () => {
    const v = await post(sale([{ payment_method_code: 'cash', amount: 1.32, tendered: 5 }]), '/api/v1/pos/checkout/validate');
    expect(v.status).toBe(200);
    expect(v.body.data).toMatchObject({ change: 3.68, payments: [{ payment_method_code: 'cash', amount: 1.32, tendered: 5, applied: 1.32, change: 3.68 }] });
    const summary = await api().get(`/api/v1/sessions/${sessionId}/summary`).set(bearer(cashier));
    expect(summary.status).toBe(200);
    // 50.00 float + the 1.32 sale above (20.00 in, 18.68 out)
    expect(summary.body.data).toMatchObject({ cash_sales: 1.32, expected_cash: 51.32 });
  });

  it('refuses tendered cash below the amount, tendered beyond the amount on a card, and a wrong change, writing nothing', async () => {
    const before = Number((await t.db.query('SELECT COUNT(*) AS n FROM sales'))[0].n);
    const short = await post(sale([{ payment_method_code: 'cash', amount: 1.32, tendered: 1 }]));
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ success: false, code: 'checkout_invalid' });
    expect(short.body.errors['payments.0.tendered']).toBeDefined();
    const card = await post(sale([{ payment_method_code: 'card', amount: 1.32, tendered: 5 }]));
    expect(card.status).toBe(400);
    expect(card.body.errors['payments.0.tendered']).toBeDefined();
    const wrongChange = await post(sale([{ payment_method_code: 'cash', amount: 1.32, tendered: 2, change: 0 }]));
    expect(wrongChange.status).toBe(400);
    expect(wrongChange.body.errors['payments.0.change'][0]).toContain('0.68');
    const cardChange = await post(sale([{ payment_method_code: 'card', amount: 1.32, change: 0.5 }]));
    expect(cardChange.status).toBe(400);
    expect(cardChange.body.errors['payments.0.change']).toBeDefined();
    expect(Number((await t.db.query('SELECT COUNT(*) AS n FROM sales'))[0].n)).toBe(before);
    // a card that repeats its amount as tendered, and a right change, are fine
    expect((await post(sale([{ payment_method_code: 'card', amount: 1.32, tendered: 1.32 }]))).status).toBe(201);
    expect((await post(sale([{ payment_method_code: 'cash', amount: 1.32, tendered: 2, change: 0.68 }]))).status).toBe(201);
  });

  it('takes ids as numbers or strings of digits (customer_id, payment_method_id, items[].id)', async () => {
    const [cash] = await t.db.query("SELECT id FROM payment_methods WHERE code = 'cash'");
    const [customer] = await t.db.query('SELECT id FROM customers WHERE email IS NOT NULL AND deleted_at IS NULL ORDER BY id LIMIT 1');
    for (const id of [Number(cash.id), String(cash.id)]) {
      const res = await post(
        sale([{ payment_method_code: 'cash', payment_method_id: id, amount: 1.32 }], { customer_id: Number(customer.id), items: [{ id: '1', qty: 1 }] }),
      );
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ customer_id: Number(customer.id), payments: [expect.objectContaining({ payment_method_code: 'cash' })] });
    }
    const legacy = await post({ ...sale([]), payment_method_id: Number(cash.id) });
    expect(legacy.status).toBe(201);
    const [card] = await t.db.query("SELECT id FROM payment_methods WHERE code = 'card'");
    const clash = await post(sale([{ payment_method_code: 'cash', payment_method_id: Number(card.id), amount: 1.32 }]));
    expect(clash.status).toBe(400);
    expect(clash.body.errors['payments.0.payment_method_id']).toBeDefined();
  });
});
