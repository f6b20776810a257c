import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';

/**
 * A void hands back what the sale took. Money paid on its invoice later is not the sale's to hand
 * back: before, a void kept such a payment and refunded nothing (the invoice ended `void` with
 * `paid` 10.00 and no refund). Now the void is refused and a return refunds it.
 */
describe('Voids and later invoice payments', () => {
  let t: TestApp;
  let cashier: string;
  let manager: string;
  let jane: number;
  const api = () => request(t.http);

  beforeAll(async () => {
    t = await startTestApp();
    cashier = await login(t, DEMO.cashier);
    manager = await login(t, DEMO.manager);
    jane = Number((await t.db.query("SELECT id FROM customers WHERE email = 'jane.doe@example.com'"))[0].id);
    await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 0 }).expect(200);
  });
  afterAll(() => t.close());

  const onAccountSale = async (key: string) => {
    const res = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .send({
        store_id: 1,
        idempotency_key: key,
        customer_id: jane,
        items: [{ id: 1, qty: 2 }],
        payments: [{ payment_method_code: 'on_account', amount: 2.63 }],
        total_amount: 2.63,
      });
    expect(res.status).toBe(201);
    return res.body.data as { id: number; invoice: { id: number }; items: { id: number }[] };
  };

  it('refuses (409 invoice_has_payments) to void a sale whose invoice was paid on later, and changes nothing', async () => {
    const sale = await onAccountSale('void-paid-later');
    await api().post(`/api/v1/invoices/${sale.invoice.id}/payments`).set(bearer(manager)).send({ payment_method_code: 'cash', amount: 1 }).expect(201);
    const res = await api().post(`/api/v1/sales/${sale.id}/void`).set(bearer(manager)).send({ reason: 'wrong customer' });
    expectErrorEnvelope(res, 409);
    expect(res.body.code).toBe('invoice_has_payments');
    const after = (await api().get(`/api/v1/sales/${sale.id}`).set(bearer(manager))).body.data;
    expect(after.status).toBe('completed');
    expect(after.invoice).toMatchObject({ status: 'partially_paid', paid: 1, balance: 1.63 });

    // the way out: a return refunds the payment and credits the rest
    const ret = await api()
      .post('/api/v1/returns')
      .set(bearer(manager))
      .send({
        sale_id: sale.id,
        process_immediately: true,
        reason_notes: 'wrong customer',
        items: [{ sale_item_id: sale.items[0].id, quantity: 2, restock: true }],
      });
    expect(ret.status).toBe(200);
    const refunded = (await api().get(`/api/v1/sales/${sale.id}`).set(bearer(manager))).body.data;
    expect(refunded.status).toBe('refunded');
    expect(refunded.invoice.balance).toBe(0);
  });

  it('still voids an on-account sale nobody has paid on yet', async () => {
    const sale = await onAccountSale('void-unpaid');
    const res = await api().post(`/api/v1/sales/${sale.id}/void`).set(bearer(manager)).send({ reason: 'wrong customer' });
    expect(res.status).toBe(200);
    const after = (await api().get(`/api/v1/sales/${sale.id}`).set(bearer(manager))).body.data;
    expect(after.invoice).toMatchObject({ status: 'void', balance: 0 });
  });
});
