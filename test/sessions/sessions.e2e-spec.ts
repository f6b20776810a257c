import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, integrationToken, login, startTestApp, TestApp } from '../support/test-app';

describe('Cashier sessions', () => {
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

  it('tells a terminal it cannot sell without an open session', async () => {
    const res = await api().get('/api/v1/pos/session-status').set(bearer(cashier));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      store_id: 1,
      store_access: true,
      has_open_session: false,
      session: null,
      can_sell: false,
      reason: 'no_open_session',
    });
    expect((await api().get('/api/v1/pos/session-status?store_id=2').set(bearer(cashier))).body.data).toMatchObject({
      store_access: false,
      can_sell: false,
      reason: 'no_store_access',
    });
    expect((await api().get('/api/v1/sessions/current').set(bearer(cashier))).body).toEqual({ success: true, data: null });
  });

  it('runs a session through open, cash in/out, suspend, resume and close with a discrepancy', async () => {
    const opened = await api()
      .post('/api/v1/sessions/open')
      .set(bearer(cashier))
      .send({ store_id: 1, opening_balance: 150.0, cash_register_id: 3, notes: 'Morning' });
    expect(opened.status).toBe(200);
    const s = opened.body.data;
    expect(s).toMatchObject({ store_id: 1, status: 'open', opening_balance: 150, cash_register_id: 3, notes: 'Morning', closing_balance: null });
    expect((await api().get('/api/v1/pos/session-status').set(bearer(cashier))).body.data).toMatchObject({
      can_sell: true,
      has_open_session: true,
      session: { id: s.id },
    });
    expect((await api().get('/api/v1/sessions/current').set(bearer(cashier))).body.data.id).toBe(s.id);

    // a second open in the same store: 409
    expectErrorEnvelope(await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 10 }), 409);

    const cashIn = await api()
      .post(`/api/v1/sessions/${s.id}/cash-movement`)
      .set(bearer(cashier))
      .send({ type: 'cash_in', amount: 50.25, reason: 'Float top-up' });
    expect(cashIn.status).toBe(200);
    expect(cashIn.body.data.movement).toMatchObject({ type: 'cash_in', amount: 50.25, reason: 'Float top-up' });
    await api()
      .post(`/api/v1/sessions/${s.id}/cash-movement`)
      .set(bearer(cashier))
      .send({ type: 'cash_out', amount: 20, reason: 'Supplier paid', reference: 'INV-9' })
      .expect(200);

    const suspended = await api().post(`/api/v1/sessions/${s.id}/suspend`).set(bearer(cashier));
    expect(suspended.body.data.status).toBe('suspended');
    expect((await api().get('/api/v1/pos/session-status').set(bearer(cashier))).body.data).toMatchObject({ can_sell: false, reason: 'session_suspended' });
    expectErrorEnvelope(await api().post(`/api/v1/sessions/${s.id}/suspend`).set(bearer(cashier)), 409);
    expectErrorEnvelope(await api().post(`/api/v1/sessions/${s.id}/cash-movement`).set(bearer(cashier)).send({ type: 'cash_in', amount: 1, reason: 'x' }), 409);
    expect((await api().post(`/api/v1/sessions/${s.id}/resume`).set(bearer(cashier))).body.data.status).toBe('open');
    expectErrorEnvelope(await api().post(`/api/v1/sessions/${s.id}/resume`).set(bearer(cashier)), 409);

    const summary = await api().get(`/api/v1/sessions/${s.id}/summary`).set(bearer(cashier));
    expect(summary.body.data).toMatchObject({
      opening_balance: 150,
      sales_count: 0,
      cash_sales: 0,
      cash_refunds: 0,
      cash_in: 50.25,
      cash_out: 20,
      expected_cash: 180.25,
      closing_balance: null,
      discrepancy: null,
    });
    expect(summary.body.data.movements).toHaveLength(2);

    const closed = await api()
      .post(`/api/v1/sessions/${s.id}/close`)
      .set(bearer(cashier))
      .send({ closing_balance: 178.75, discrepancy_notes: 'Coins miscounted' });
    expect(closed.status).toBe(200);
    expect(closed.body.data).toMatchObject({
      status: 'closed',
      closing_balance: 178.75,
      expected_cash: 180.25,
      discrepancy: -1.5,
      discrepancy_notes: 'Coins miscounted',
    });
    expect(closed.body.data.closed_at).not.toBeNull();
    const after = await api().get(`/api/v1/sessions/${s.id}/summary`).set(bearer(cashier));
    expect(after.body.data).toMatchObject({ closing_balance: 178.75, discrepancy: -1.5 });
    for (const path of ['suspend', 'resume']) expectErrorEnvelope(await api().post(`/api/v1/sessions/${s.id}/${path}`).set(bearer(cashier)), 409);
    expectErrorEnvelope(await api().post(`/api/v1/sessions/${s.id}/close`).set(bearer(cashier)).send({ closing_balance: 1 }), 409);

    const events = (await t.db.query("SELECT type FROM outbox_events WHERE type LIKE 'session.%' ORDER BY id")).map((e: { type: string }) => e.type);
    expect(events).toEqual(['session.opened', 'session.closed']);
    // after closing, a new session may be opened
    expect((await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 0 })).status).toBe(200);
  });

  it('pays out no more cash than the drawer is expected to hold (422), even asked twice at once', async () => {
    const admin = await login(t, DEMO.admin); // a drawer of its own (the manager's Airport session is the next case's)
    const open = await api().post('/api/v1/sessions/open').set(bearer(admin)).send({ store_id: 2, opening_balance: 50 });
    expect(open.status).toBe(200);
    const id = open.body.data.id;
    const out = (amount: number) =>
      api().post(`/api/v1/sessions/${id}/cash-movement`).set(bearer(admin)).send({ type: 'cash_out', amount, reason: 'Bank drop' });
    const tooMuch = await out(1000); // was taken: expected cash -950, then a count of 0 read as 950 over
    expectErrorEnvelope(tooMuch, 422);
    expect(tooMuch.body.errors.amount[0]).toMatch(/expected to hold 50\.00/);
    const both = await Promise.all([out(30), out(30)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 422]);
    expect((await out(20)).status).toBe(200); // exactly what is left
    const summary = (await api().get(`/api/v1/sessions/${id}/summary`).set(bearer(admin))).body.data;
    expect(summary).toMatchObject({ cash_out: 50, expected_cash: 0 });
    await api().post(`/api/v1/sessions/${id}/close`).set(bearer(admin)).send({ closing_balance: 0 }).expect(200);
  });

  it('allows one live session per user and store, even when opened at the same moment', async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, () => api().post('/api/v1/sessions/open').set(bearer(manager)).send({ store_id: 2, opening_balance: 100 })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(5);
    const [{ n }] = await t.db.query("SELECT COUNT(*) AS n FROM cashier_sessions WHERE store_id = 2 AND status <> 'closed'");
    expect(Number(n)).toBe(1);
  });

  it('validates bodies (422 naming the field) and store access (403), unknown ids 404', async () => {
    const bad = await api()
      .post('/api/v1/sessions/open')
      .set(bearer(cashier))
      .send({ opening_balance: -5, notes: 'x'.repeat(10_000) });
    expectErrorEnvelope(bad, 422, 'The given data was invalid.');
    expect(Object.keys(bad.body.errors).sort()).toEqual(['notes', 'opening_balance', 'store_id']);
    expectErrorEnvelope(await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 2, opening_balance: 10 }), 403);
    const [{ id }] = await t.db.query("SELECT id FROM cashier_sessions WHERE status = 'open' AND store_id = 1");
    const move = await api().post(`/api/v1/sessions/${id}/cash-movement`).set(bearer(cashier)).send({ type: 'refund', amount: 0, reason: '' });
    expect(move.status).toBe(422);
    expect(Object.keys(move.body.errors).sort()).toEqual(['amount', 'reason', 'type']);
    expectErrorEnvelope(await api().post(`/api/v1/sessions/${id}/close`).set(bearer(cashier)).send({}), 422);
    for (const bogus of ['999999', 'abc', "1' OR 1=1"])
      expectErrorEnvelope(
        await api()
          .get(`/api/v1/sessions/${encodeURIComponent(bogus)}`)
          .set(bearer(cashier)),
        404,
      );
    // the manager's Airport session is not visible to the Downtown-only cashier
    const [{ id: airport }] = await t.db.query("SELECT id FROM cashier_sessions WHERE store_id = 2 AND status = 'open'");
    expectErrorEnvelope(await api().get(`/api/v1/sessions/${airport}`).set(bearer(cashier)), 404);
    expectErrorEnvelope(await api().post(`/api/v1/sessions/${airport}/suspend`).set(bearer(cashier)), 404);
    const { token } = await integrationToken(t, ['sales.view']);
    expectErrorEnvelope(await api().get('/api/v1/pos/session-status').set(bearer(token)), 403);
  });
});
