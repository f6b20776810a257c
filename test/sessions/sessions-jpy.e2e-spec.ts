import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';
import { createYenStore } from '../support/yen-store';

/**
 * A session in a yen store (JPY, 0 decimals; prices include 10% tax): every amount in and out of
 * the session is whole yen, as the sales it sums are (issue 23, item 5; the session used to read
 * yen as cents: expected cash 10,003.87 for 10,387).
 *   opening float 10000; 3 x Still Water at 129 = 387 yen paid with 500 yen cash (change 113);
 *   1 x Still Water 129 yen by card; cash in 1000, cash out 250, an offline cash out 100:
 *   expected cash = 10000 + 387 (cash sales, net of change) + 1000 - 250 - 100 = 11037.
 */
describe('Cashier sessions in a yen store', () => {
  let t: TestApp;
  let admin: string;
  let adminId: number;
  let storeId: number;
  let waterId: number;
  let sessionId: number;
  const api = () => request(t.http);
  const sql = (v: Date) => (t.isMysql ? v : v.toISOString().replace('T', ' ').replace('Z', ''));
  const n = async (query: string, params: unknown[] = []) => Number((await t.db.query(query, params))[0].n);

  /** The Tokyo store: JPY, tax included, its own warehouse with water in stock, cash and card. */
  async function yenStore(): Promise<void> {
    const tokyo = await createYenStore(t, { code: 'TKS', name: 'Tokyo Till Store' });
    ({ storeId, waterId } = tokyo);
    const wh = tokyo.warehouseId;
    await api()
      .post('/api/v1/inventory/adjustments')
      .set(bearer(admin))
      .send({ type: 'receive', warehouse_id: wh, items: [{ item_id: waterId, quantity: 20 }] })
      .expect(201);
  }

  beforeAll(async () => {
    t = await startTestApp();
    admin = await login(t, DEMO.admin);
    adminId = Number((await t.db.query("SELECT id FROM users WHERE email = 'admin@example.com'"))[0].id);
    await yenStore();
  });
  afterAll(() => t.close());

  it('refuses a fraction of a yen as the opening balance (422 naming the field), and opens with whole yen', async () => {
    const half = await api().post('/api/v1/sessions/open').set(bearer(admin)).send({ store_id: storeId, opening_balance: 0.5 });
    expectErrorEnvelope(half, 422);
    expect(Object.keys(half.body.errors)).toEqual(['opening_balance']);
    expect(await n('SELECT COUNT(*) AS n FROM cashier_sessions WHERE store_id = ?', [storeId])).toBe(0);

    const opened = await api().post('/api/v1/sessions/open').set(bearer(admin)).send({ store_id: storeId, opening_balance: 10000 });
    expect(opened.status).toBe(200);
    expect(opened.body.data).toMatchObject({ store_id: storeId, status: 'open', opening_balance: 10000 });
    sessionId = opened.body.data.id;
    expect(Number((await t.db.query('SELECT opening_balance FROM cashier_sessions WHERE id = ?', [sessionId]))[0].opening_balance)).toBe(10000);
    // the offline cash movement below happened after the session opened (databases keep whole seconds)
    await t.db.query('UPDATE cashier_sessions SET opened_at = ? WHERE id = ?', [sql(new Date(Date.now() - 60_000)), sessionId]);

    const status = await api().get(`/api/v1/pos/session-status?store_id=${storeId}`).set(bearer(admin));
    expect(status.body.data).toMatchObject({ can_sell: true, session: { id: sessionId, opening_balance: 10000 } });
    expect((await api().get(`/api/v1/sessions/current?store_id=${storeId}`).set(bearer(admin))).body.data.opening_balance).toBe(10000);
    expect((await api().get(`/api/v1/sessions/${sessionId}`).set(bearer(admin))).body.data.opening_balance).toBe(10000);
  });

  it('sums sales, cash in and out, online and offline, in whole yen: expected cash 11037', async () => {
    const sale = (qty: number, code: string, amount: number, total: number) =>
      api()
        .post('/api/v1/pos/checkout')
        .set(bearer(admin))
        .send({
          store_id: storeId,
          idempotency_key: `jpy-session-${code}`,
          items: [{ id: waterId, qty }],
          payments: [{ payment_method_code: code, amount }],
          total_amount: total,
        });
    const cash = await sale(3, 'cash', 500, 387);
    expect(cash.status).toBe(201);
    expect(cash.body.data).toMatchObject({ session_id: sessionId, total_amount: 387, change_amount: 113 });
    expect((await sale(1, 'card', 129, 129)).status).toBe(201);

    const move = (body: Record<string, unknown>) => api().post(`/api/v1/sessions/${sessionId}/cash-movement`).set(bearer(admin)).send(body);
    const cashIn = await move({ type: 'cash_in', amount: 1000, reason: 'Float top-up' });
    expect(cashIn.status).toBe(200);
    expect(cashIn.body.data).toMatchObject({ movement: { type: 'cash_in', amount: 1000 }, session: { opening_balance: 10000 } });
    expect((await move({ type: 'cash_out', amount: 250, reason: 'Stamps' })).body.data.movement.amount).toBe(250);
    const half = await move({ type: 'cash_in', amount: 0.5, reason: 'Half a yen' });
    expectErrorEnvelope(half, 422);
    expect(Object.keys(half.body.errors)).toEqual(['amount']);

    const upload = await api()
      .post('/api/v1/sync/upload')
      .set(bearer(admin))
      .send({
        store_id: storeId,
        transactions: [
          {
            idempotency_key: 'jpy-offline-out',
            type: 'cash_movement',
            offline_created_at: new Date().toISOString(),
            data: { type: 'cash_out', amount: 100, reason: 'Taxi' },
          },
        ],
      });
    expect(upload.status).toBe(200);
    expect(upload.body.data.results[0]).toMatchObject({ status: 'accepted', record: { session_id: sessionId, type: 'cash_out', amount: 100 } });
    const amounts = (await t.db.query('SELECT amount FROM cash_movements WHERE session_id = ? ORDER BY id', [sessionId])).map((r: { amount: unknown }) =>
      Number(r.amount),
    );
    expect(amounts).toEqual([1000, 250, 100]);

    const summary = await api().get(`/api/v1/sessions/${sessionId}/summary`).set(bearer(admin));
    expect(summary.status).toBe(200);
    expect(summary.body.data).toMatchObject({
      opening_balance: 10000,
      sales_count: 2,
      sales_total: 516,
      totals_by_payment_method: { cash: 387, card: 129 },
      cash_sales: 387,
      cash_tendered: 500,
      change_given: 113,
      cash_refunds: 0,
      cash_in: 1000,
      cash_out: 350,
      expected_cash: 11037,
      closing_balance: null,
      discrepancy: null,
    });
    expect(summary.body.data.movements.map((m: { amount: number }) => m.amount)).toEqual([1000, 250, 100]);
  });

  it('closes with a count in whole yen: the discrepancy is whole yen, in the response, the events and the audit entries', async () => {
    const fraction = await api().post(`/api/v1/sessions/${sessionId}/close`).set(bearer(admin)).send({ closing_balance: 11030.5 });
    expectErrorEnvelope(fraction, 422);
    expect(Object.keys(fraction.body.errors)).toEqual(['closing_balance']);
    expect((await t.db.query('SELECT status FROM cashier_sessions WHERE id = ?', [sessionId]))[0].status).toBe('open');

    const closed = await api()
      .post(`/api/v1/sessions/${sessionId}/close`)
      .set(bearer(admin))
      .send({ closing_balance: 11030, discrepancy_notes: 'Short 7 yen' });
    expect(closed.status).toBe(200);
    expect(closed.body.data).toMatchObject({ status: 'closed', opening_balance: 10000, closing_balance: 11030, expected_cash: 11037, discrepancy: -7 });
    const [row] = await t.db.query('SELECT closing_balance, expected_cash, discrepancy FROM cashier_sessions WHERE id = ?', [sessionId]);
    expect([row.closing_balance, row.expected_cash, row.discrepancy].map(Number)).toEqual([11030, 11037, -7]);
    const after = await api().get(`/api/v1/sessions/${sessionId}/summary`).set(bearer(admin));
    expect(after.body.data).toMatchObject({ expected_cash: 11037, closing_balance: 11030, discrepancy: -7 });

    const events = (await t.db.query("SELECT type, payload FROM outbox_events WHERE type LIKE 'session.%' AND store_id = ? ORDER BY id", [storeId])) as {
      type: string;
      payload: string;
    }[];
    expect(events.map((e) => [e.type, JSON.parse(e.payload).session])).toEqual([
      ['session.opened', expect.objectContaining({ id: sessionId, opening_balance: 10000, closing_balance: null })],
      ['session.closed', expect.objectContaining({ id: sessionId, opening_balance: 10000, closing_balance: 11030, expected_cash: 11037, discrepancy: -7 })],
    ]);
    const audit = (await t.db.query("SELECT action, actor_id, after FROM audit_log WHERE target_type = 'session' AND target_id = ? ORDER BY id", [
      String(sessionId),
    ])) as { action: string; actor_id: number; after: string }[];
    expect(audit.map((a) => [a.action, Number(a.actor_id), JSON.parse(a.after)])).toEqual([
      ['session.opened', adminId, expect.objectContaining({ opening_balance: 10000 })],
      [
        'session.closed',
        adminId,
        expect.objectContaining({ user_id: adminId, closed_by: adminId, closing_balance: 11030, expected_cash: 11037, discrepancy: -7 }),
      ],
    ]);
  });
});
