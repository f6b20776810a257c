import request from 'supertest';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';

/**
 * A closed session's summary is its drawer as it was counted: a sale voided after the close
 * still counts in it (its cash was in the drawer), so the expected cash stays the one stored at
 * the close and the figures still add up to it (found by the invariant suite, issue 23).
 */
describe('A closed session keeps the figures it was counted with', () => {
  let t: TestApp;
  let manager: string;
  const api = () => request(t.http);

  beforeAll(async () => {
    t = await startTestApp();
    manager = await login(t, DEMO.manager);
  });
  afterAll(() => t.close());

  it('keeps expected cash, cash sales and counts after one of its sales is voided', async () => {
    const open = await api().post('/api/v1/sessions/open').set(bearer(manager)).send({ store_id: 1, opening_balance: 20 });
    expect(open.status).toBe(200);
    const id = open.body.data.id;
    const sale = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(manager))
      .send({
        store_id: 1,
        idempotency_key: 'closed-void',
        items: [{ id: 1, qty: 1 }],
        payments: [{ payment_method_code: 'cash', amount: 1.32 }],
        total_amount: 1.32,
      });
    expect(sale.status).toBe(201);
    const closed = await api().post(`/api/v1/sessions/${id}/close`).set(bearer(manager)).send({ closing_balance: 21.32 });
    expect(closed.status).toBe(200);
    const before = (await api().get(`/api/v1/sessions/${id}/summary`).set(bearer(manager))).body.data;
    expect(before).toMatchObject({ sales_count: 1, cash_sales: 1.32, expected_cash: 21.32, closing_balance: 21.32, discrepancy: 0 });

    expect((await api().post(`/api/v1/sales/${sale.body.data.id}/void`).set(bearer(manager)).send({ reason: 'after the close' })).status).toBe(200);
    const after = (await api().get(`/api/v1/sessions/${id}/summary`).set(bearer(manager))).body.data;
    expect(after).toMatchObject({ sales_count: 1, cash_sales: 1.32, expected_cash: 21.32, closing_balance: 21.32, discrepancy: 0 });
    expect(after.expected_cash).toBe(after.session.expected_cash);
  });

  it("pays the cash a void hands back after the close out of the voider's open drawer, as a return's refund", async () => {
    const cashier = await login(t, DEMO.cashier);
    const own = await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 0 });
    const sale = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .send({
        store_id: 1,
        idempotency_key: 'closed-void-cash',
        items: [{ id: 1, qty: 2 }],
        payments: [{ payment_method_code: 'cash', amount: 2.63, tendered: 5 }],
        total_amount: 2.63,
      });
    expect(sale.status).toBe(201);
    await api().post(`/api/v1/sessions/${own.body.data.id}/close`).set(bearer(cashier)).send({ closing_balance: 2.63 }).expect(200);

    const drawer = await api().post('/api/v1/sessions/open').set(bearer(manager)).send({ store_id: 1, opening_balance: 20 });
    expect(drawer.status).toBe(200);
    await api().post(`/api/v1/sales/${sale.body.data.id}/void`).set(bearer(manager)).send({ reason: 'after the close' }).expect(200);
    // before: the manager handed 2.63 back and the drawer still expected 20.00 (a shortfall at the count)
    const summary = (await api().get(`/api/v1/sessions/${drawer.body.data.id}/summary`).set(bearer(manager))).body.data;
    expect(summary).toMatchObject({ cash_out: 2.63, expected_cash: 17.37 });
    const closed = (await api().get(`/api/v1/sessions/${own.body.data.id}/summary`).set(bearer(cashier))).body.data;
    expect(closed).toMatchObject({ cash_sales: 2.63, expected_cash: 2.63, discrepancy: 0 }); // the counted drawer keeps its figures
    await api().post(`/api/v1/sessions/${drawer.body.data.id}/close`).set(bearer(manager)).send({ closing_balance: 17.37 }).expect(200);
  });
});
