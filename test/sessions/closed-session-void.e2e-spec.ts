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
});
