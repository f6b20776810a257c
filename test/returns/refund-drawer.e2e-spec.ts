import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';

/**
 * A cash refund comes out of the drawer of the session it is processed at: not more than that
 * drawer is expected to hold (409 insufficient_cash, nothing written), as a cash out.
 * Downtown: Cola 1.79 + 8.25% = 1.94; two are 3.88.
 */
describe('Returns: a cash refund is held to the drawer it comes out of', () => {
  let t: TestApp;
  let cashier: string;
  let manager: string;
  const api = () => request(t.http);

  beforeAll(async () => {
    t = await startTestApp();
    cashier = await login(t, DEMO.cashier);
    manager = await login(t, DEMO.manager);
  });
  afterAll(() => t.close());

  it('refuses a refund larger than the drawer holds, then pays it once cash is put in', async () => {
    await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 100 }).expect(200);
    const drawer = (await api().post('/api/v1/sessions/open').set(bearer(manager)).send({ store_id: 1, opening_balance: 1 }).expect(200)).body.data.id;
    const [cola] = await t.db.query("SELECT id FROM items WHERE sku = 'BEV-003'");
    const sale = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .send({
        store_id: 1,
        idempotency_key: 'refund-drawer-1',
        items: [{ id: Number(cola.id), qty: 2 }],
        payments: [{ payment_method_code: 'cash', amount: 3.88 }],
        total_amount: 3.88,
      });
    expect(sale.status).toBe(201);
    const body = { sale_id: sale.body.data.id, process_immediately: true, items: [{ sale_item_id: sale.body.data.items[0].id, quantity: 2 }] };
    const summary = async () => (await api().get(`/api/v1/sessions/${drawer}/summary`).set(bearer(manager))).body.data;
    const before = await summary();
    expect(before.expected_cash).toBe(1);

    const refused = await api().post('/api/v1/returns').set(bearer(manager)).send(body);
    expectErrorEnvelope(refused, 409);
    expect(refused.body.code).toBe('insufficient_cash');
    expect(refused.body.message).toMatch(/expected to hold 1\.00: it cannot refund 3\.88 in cash/);
    expect(await summary()).toEqual(before);
    expect((await api().get(`/api/v1/sales/${sale.body.data.id}`).set(bearer(manager))).body.data.status).toBe('completed');

    await api()
      .post(`/api/v1/sessions/${drawer}/cash-movement`)
      .set(bearer(manager))
      .send({ type: 'cash_in', amount: 5, reason: 'Change for refunds' })
      .expect(200);
    const paid = await api().post('/api/v1/returns').set(bearer(manager)).send(body);
    expect(paid.status).toBe(200);
    expect(await summary()).toMatchObject({ cash_in: 5, cash_refunds: 3.88, expected_cash: 2.12 });
  });
});
