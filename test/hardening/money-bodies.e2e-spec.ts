import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 23, items 9 and 10: a body that moves money refuses a field it does not know (422 naming
 * it; a payment sent with `currency: "EUR"` was recorded as USD), other bodies ignore unknown
 * fields; an upload's `data` may be the object or an array holding that one object.
 */
describe('Bodies that move money refuse unknown fields', () => {
  let t: TestApp;
  let cashier: string;
  let admin: string;
  let sessionId: number;
  const api = () => request(t.http);
  const count = async (table: string) => Number((await t.db.query(`SELECT COUNT(*) AS n FROM ${table}`))[0].n);
  const sale = (extra: Record<string, unknown> = {}) => ({
    store_id: 1,
    idempotency_key: `money-${Math.random()}`,
    items: [{ id: 1, qty: 1 }],
    payments: [{ payment_method_code: 'cash', amount: 1.32 }],
    total_amount: 1.32,
    ...extra,
  });

  beforeAll(async () => {
    t = await startTestApp();
    cashier = await login(t, DEMO.cashier);
    admin = await login(t, DEMO.admin);
    const open = await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 10 });
    expect(open.status).toBe(200);
    sessionId = open.body.data.id;
  });
  afterAll(() => t.close());

  it('refuses a payment in a currency the service does not take, and any unknown checkout field, writing nothing', async () => {
    const before = await count('sales');
    for (const [body, field] of [
      [sale({ payments: [{ payment_method_code: 'cash', amount: 1.32, currency: 'EUR' }] }), 'payments.0.currency'],
      [sale({ currency: 'EUR' }), 'currency'],
      [sale({ items: [{ id: 1, qty: 1, vat_rate: 0 }] }), 'items.0.vat_rate'],
    ] as const) {
      for (const path of ['/api/v1/pos/checkout', '/api/v1/pos/checkout/validate']) {
        const res = await api().post(path).set(bearer(cashier)).send(body);
        expectErrorEnvelope(res, 422, 'The given data was invalid.');
        expect(Object.keys(res.body.errors)).toEqual([field]);
      }
    }
    expect(await count('sales')).toBe(before);
    expect((await api().post('/api/v1/pos/checkout').set(bearer(cashier)).send(sale())).status).toBe(201);
  });

  it('refuses unknown fields in returns, invoice payments and session cash, as every body now does', async () => {
    const ret = await api()
      .post('/api/v1/returns')
      .set(bearer(cashier))
      .send({ sale_id: 1, items: [{ sale_item_id: 1, quantity: 1, refund_amount: 99 }], refund_method: 'cash' });
    expectErrorEnvelope(ret, 422);
    expect(ret.body.errors).toMatchObject({ 'items.0.refund_amount': expect.any(Array), refund_method: expect.any(Array) });
    const pay = await api().post('/api/v1/invoices/1/payments').set(bearer(admin)).send({ payment_method_code: 'card', amount: 1, currency: 'EUR' });
    expectErrorEnvelope(pay, 422);
    expect(Object.keys(pay.body.errors)).toEqual(['currency']);
    const cash = await api()
      .post(`/api/v1/sessions/${sessionId}/cash-movement`)
      .set(bearer(cashier))
      .send({ type: 'cash_in', amount: 5, reason: 'float', currency: 'EUR' });
    expectErrorEnvelope(cash, 422);
    expect(Object.keys(cash.body.errors)).toEqual(['currency']);
    expect(await count('cash_movements')).toBe(0);
    // a customer is no money, yet an unknown field is named too (issue 27: names are not dropped)
    const customer = await api().post('/api/v1/customers').set(bearer(admin)).send({ name: 'Named Field', loyalty_tier: 'gold' });
    expectErrorEnvelope(customer, 422);
    expect(customer.body.errors).toEqual({ loyalty_tier: ['Unknown field.'] });
  });

  it('documents those bodies as closed in OpenAPI', async () => {
    const doc = (await api().get('/api/docs-json')).body;
    for (const name of ['CheckoutDto', 'CheckoutPaymentDto', 'CreateReturnDto', 'InvoicePaymentDto', 'CashMovementDto', 'SyncTransactionDto']) {
      expect([name, doc.components.schemas[name]?.additionalProperties]).toEqual([name, false]);
    }
    expect(doc.components.schemas.CreateCustomerDto?.additionalProperties).toBe(false);
  });

  it('rejects an offline sale with an unknown money field alone, and takes data as an array holding one object', async () => {
    const at = new Date(Date.now() - 1000).toISOString();
    const data = { items: [{ id: 1, qty: 1, price: 1.29 }], payments: [{ payment_method_code: 'cash', amount: 1.32 }], total_amount: 1.32 };
    const res = await api()
      .post('/api/v1/sync/upload')
      .set(bearer(cashier))
      .send({
        store_id: 1,
        transactions: [
          {
            idempotency_key: 'money-eur',
            type: 'sale',
            offline_created_at: at,
            data: { ...data, payments: [{ payment_method_code: 'cash', amount: 1.32, currency: 'EUR' }] },
          },
          { idempotency_key: 'money-array', type: 'sale', offline_created_at: at, data: [data] },
          { idempotency_key: 'money-two', type: 'sale', offline_created_at: at, data: [data, data] },
        ],
      });
    expect(res.status).toBe(200);
    const [eur, array, two] = res.body.data.results;
    expect(eur).toMatchObject({ status: 'rejected', errors: { 'data.payments.0.currency': expect.any(Array) } });
    expect(array).toMatchObject({ status: 'accepted', receipt_number: expect.stringMatching(/^DT-/) });
    expect(two).toMatchObject({ status: 'rejected', errors: { data: expect.any(Array) } });
    // the same transaction sent as the object is the same transaction: a duplicate, not another sale
    const again = await api()
      .post('/api/v1/sync/upload')
      .set(bearer(cashier))
      .send({ store_id: 1, transactions: [{ idempotency_key: 'money-array', type: 'sale', offline_created_at: at, data }] });
    expect(again.body.data.results[0]).toMatchObject({ status: 'duplicate', id: array.id });
  });
});
