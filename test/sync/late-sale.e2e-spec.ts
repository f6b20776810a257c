import request from 'supertest';
import { ALL_REPORT_PERMISSIONS, report } from '../reports/report-helpers';
import { bearer, DEMO, integrationToken, login, startTestApp, TestApp } from '../support/test-app';

/**
 * An offline sale made while a cashier's session was open, uploaded after that session closed:
 * it attaches to the session (the drawer that took its cash, which was counted with it in), and
 * the session's stored expected cash and discrepancy are restated by its cash, so the session,
 * its summary and the closeout report agree (discrepancy = counted - expected everywhere).
 * Downtown: Cola 1.79 + 8.25% = 1.94.
 */
describe('Offline sync: a sale that arrives after its session closed', () => {
  let t: TestApp;
  let cashier: string;
  let manager: string;
  let colaId: number;
  const api = () => request(t.http);
  const sale = (key: string, at: string, method = 'cash') => ({
    idempotency_key: key,
    type: 'sale',
    offline_created_at: at,
    data: { items: [{ id: colaId, qty: 1, price: 1.79 }], payments: [{ payment_method_code: method, amount: 1.94 }], total_amount: 1.94 },
  });
  const upload = (transactions: unknown[]) => api().post('/api/v1/sync/upload').set(bearer(cashier)).send({ store_id: 1, transactions });

  beforeAll(async () => {
    t = await startTestApp();
    cashier = await login(t, DEMO.cashier);
    manager = await login(t, DEMO.manager);
    colaId = Number((await t.db.query("SELECT id FROM items WHERE sku = 'BEV-003'"))[0].id);
  });
  afterAll(() => t.close());

  it('restates the counted drawer by the late cash sale, consistently everywhere, once per sale', async () => {
    const opened = await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 100 }).expect(200);
    const id = opened.body.data.id;
    await new Promise((r) => setTimeout(r, 1100)); // MySQL keeps whole seconds: a moment clearly inside the session
    const during = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 1100));
    // the drawer holds the offline sale's 1.94 when counted: 101.94
    const closed = await api().post(`/api/v1/sessions/${id}/close`).set(bearer(cashier)).send({ closing_balance: 101.94 }).expect(200);
    expect(closed.body.data).toMatchObject({ expected_cash: 100, closing_balance: 101.94, discrepancy: 1.94 });

    const res = await upload([sale('late-cash-1', during), sale('late-card-1', during, 'card')]);
    expect(res.body.data).toMatchObject({ accepted: 2 });
    expect(res.body.data.results.map((r: { record: { session_id: number } }) => r.record.session_id)).toEqual([id, id]);

    const session = await api().get(`/api/v1/sessions/${id}`).set(bearer(manager)).expect(200);
    expect(session.body.data).toMatchObject({ status: 'closed', expected_cash: 101.94, closing_balance: 101.94, discrepancy: 0 });
    const summary = await api().get(`/api/v1/sessions/${id}/summary`).set(bearer(manager)).expect(200);
    expect(summary.body.data).toMatchObject({ sales_count: 2, cash_sales: 1.94, expected_cash: 101.94, closing_balance: 101.94, discrepancy: 0 });

    // the store's day, whatever its zone: yesterday to tomorrow in UTC
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const partner = (await integrationToken(t, ALL_REPORT_PERMISSIONS)).token;
    const closeout = await report(t, partner, 'closeout', { store_id: 1, date_from: day(-1), date_to: day(1), per_page: 100 });
    expect(closeout.status).toBe(200);
    const row = (closeout.body.data.rows as { session_id: number; drawer_figures: boolean }[]).find((r) => r.session_id === id && r.drawer_figures);
    expect(row).toMatchObject({ sales_count: 2, expected_cash: 101.94, counted_cash: 101.94, discrepancy: 0 });

    // the same upload again is a replay: nothing restated twice
    const again = await upload([sale('late-cash-1', during)]);
    expect(again.body.data).toMatchObject({ duplicate: 1 });
    const after = await api().get(`/api/v1/sessions/${id}`).set(bearer(manager)).expect(200);
    expect(after.body.data).toMatchObject({ expected_cash: 101.94, discrepancy: 0 });

    // the audit log names the sale that restated the drawer
    const audit = (await t.db.query("SELECT action, after FROM audit_log WHERE action = 'session.restated'")) as { after: string }[];
    expect(audit).toHaveLength(1);
    expect(JSON.parse(String(audit[0].after))).toMatchObject({ expected_cash: 101.94, discrepancy: 0, late_sale_id: res.body.data.results[0].record.id });
  });
});
