import request from 'supertest';
import { UserAdminService } from '@pos/identity';
import { SessionsSupervisePermission1764210000000 } from '../../libs/platform/src/database/migrations/1764210000000-sessions-supervise-permission';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';

/**
 * A cashier session is its user's own (issue 23, item 8): another cashier of the same store gets
 * 404 on every route of it and changes nothing; a manager (`sessions.supervise`) reads and acts
 * on it, and the audit entry of the close says who closed whose; store scoping still applies on
 * top of the permission.
 */
describe("Cashier sessions: another user's session", () => {
  let t: TestApp;
  let cashier: string;
  let otherCashier: string;
  let manager: string;
  let airportManager: string;
  let cashierId: number;
  let managerId: number;
  let sessionId: number;
  const api = () => request(t.http);
  const q = async (query: string, params: unknown[] = []) => (await t.db.query(query, params)) as Record<string, unknown>[];
  const n = async (query: string, params: unknown[] = []) => Number((await q(query, params))[0].n);
  const userId = async (email: string) => Number((await q('SELECT id FROM users WHERE email = ?', [email]))[0].id);

  /** Every route on one session, as a user who may not see it must meet it (bodies valid, so only ownership can refuse them). */
  const routes = (id: number) =>
    [
      ['get', `/api/v1/sessions/${id}`, undefined],
      ['get', `/api/v1/sessions/${id}/summary`, undefined],
      ['post', `/api/v1/sessions/${id}/cash-movement`, { type: 'cash_out', amount: 50, reason: 'Taking it' }],
      ['post', `/api/v1/sessions/${id}/suspend`, undefined],
      ['post', `/api/v1/sessions/${id}/resume`, undefined],
      ['post', `/api/v1/sessions/${id}/close`, { closing_balance: 0 }],
    ] as const;
  const call = (token: string, [method, path, body]: ReturnType<typeof routes>[number]) =>
    method === 'get'
      ? api().get(path).set(bearer(token))
      : api()
          .post(path)
          .set(bearer(token))
          .send(body ?? {});
  const state = async () => ({
    session: (await q('SELECT status, closing_balance, expected_cash, closed_at, updated_at FROM cashier_sessions WHERE id = ?', [sessionId]))[0],
    movements: await n('SELECT COUNT(*) AS n FROM cash_movements WHERE session_id = ?', [sessionId]),
    closedEvents: await n("SELECT COUNT(*) AS n FROM outbox_events WHERE type = 'session.closed'"),
    closeAudits: await n("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'session.closed'"),
  });

  beforeAll(async () => {
    t = await startTestApp();
    const users = t.app.get(UserAdminService);
    const [dt] = await q("SELECT id FROM stores WHERE code = 'DT'");
    const [ap] = await q("SELECT id FROM stores WHERE code = 'AP'");
    await users.createUser({
      name: 'Second Cashier',
      email: 'second.cashier@example.com',
      password: DEMO.password,
      role: 'cashier',
      storeIds: [Number(dt.id)],
    });
    await users.createUser({
      name: 'Airport Manager',
      email: 'airport.manager@example.com',
      password: DEMO.password,
      role: 'manager',
      storeIds: [Number(ap.id)],
    });
    cashier = await login(t, DEMO.cashier);
    otherCashier = await login(t, 'second.cashier@example.com');
    manager = await login(t, DEMO.manager);
    airportManager = await login(t, 'airport.manager@example.com');
    cashierId = await userId(DEMO.cashier);
    managerId = await userId(DEMO.manager);
    const opened = await api()
      .post('/api/v1/sessions/open')
      .set(bearer(cashier))
      .send({ store_id: Number(dt.id), opening_balance: 100 });
    expect(opened.status).toBe(200);
    sessionId = opened.body.data.id;
  });
  afterAll(() => t.close());

  it('answers another cashier of the same store 404 on every route of an open session, and changes nothing', async () => {
    const before = await state();
    const unknown = routes(2_000_000_000);
    for (const [i, route] of routes(sessionId).entries()) {
      const res = await call(otherCashier, route);
      expectErrorEnvelope(res, 404);
      // the same answer as an id that does not exist: the session's existence is not revealed
      expect(res.body).toEqual((await call(otherCashier, unknown[i])).body);
    }
    expect(await state()).toEqual(before);
    expect(before.session.status).toBe('open');
    expect(before.movements).toBe(0);
    // their own current session is theirs only
    expect((await api().get('/api/v1/sessions/current').set(bearer(otherCashier))).body.data).toBeNull();
  });

  it('answers 404 on a suspended one too (resume, close), and refuses it as an offline cash movement target', async () => {
    expect((await api().post(`/api/v1/sessions/${sessionId}/suspend`).set(bearer(cashier))).status).toBe(200);
    const before = await state();
    for (const route of routes(sessionId)) expectErrorEnvelope(await call(otherCashier, route), 404);
    const upload = await api()
      .post('/api/v1/sync/upload')
      .set(bearer(otherCashier))
      .send({
        store_id: 1,
        transactions: [
          {
            idempotency_key: 'not-my-drawer',
            type: 'cash_movement',
            offline_created_at: new Date().toISOString(),
            data: { type: 'cash_out', amount: 20, reason: 'x', session_id: sessionId },
          },
        ],
      });
    expect(upload.status).toBe(200);
    expect(upload.body.data.results[0]).toMatchObject({ status: 'rejected', errors: { 'data.session_id': expect.any(Array) } });
    expect(await state()).toEqual(before);
    expect(before.session.status).toBe('suspended');
  });

  it('keeps store scoping on top: a manager of another store gets 404 too', async () => {
    const before = await state();
    for (const route of routes(sessionId)) expectErrorEnvelope(await call(airportManager, route), 404);
    expect(await state()).toEqual(before);
  });

  it("lets a manager of the store read and act on it; the close's audit entry says who closed whose", async () => {
    const shown = await api().get(`/api/v1/sessions/${sessionId}`).set(bearer(manager));
    expect(shown.status).toBe(200);
    expect(shown.body.data).toMatchObject({ id: sessionId, user_id: cashierId, status: 'suspended' });
    expect((await api().get(`/api/v1/sessions/${sessionId}/summary`).set(bearer(manager))).body.data).toMatchObject({ expected_cash: 100 });
    expect((await api().post(`/api/v1/sessions/${sessionId}/resume`).set(bearer(manager))).body.data.status).toBe('open');
    const out = await api()
      .post(`/api/v1/sessions/${sessionId}/cash-movement`)
      .set(bearer(manager))
      .send({ type: 'cash_out', amount: 30, reason: 'Bank drop' });
    expect(out.status).toBe(200);
    expect(out.body.data.movement).toMatchObject({ amount: 30, user_id: managerId });
    expect((await api().post(`/api/v1/sessions/${sessionId}/suspend`).set(bearer(manager))).body.data.status).toBe('suspended');
    const closed = await api().post(`/api/v1/sessions/${sessionId}/close`).set(bearer(manager)).send({ closing_balance: 70 });
    expect(closed.status).toBe(200);
    expect(closed.body.data).toMatchObject({ status: 'closed', user_id: cashierId, expected_cash: 70, discrepancy: 0 });
    const [entry] = await q("SELECT actor_id, after FROM audit_log WHERE action = 'session.closed' AND target_id = ?", [String(sessionId)]);
    expect(Number(entry.actor_id)).toBe(managerId);
    expect(JSON.parse(entry.after as string)).toMatchObject({ id: sessionId, user_id: cashierId, closed_by: managerId });
  });

  it('grants sessions.supervise to the manager and admin roles of an existing database by migration (not to cashiers)', async () => {
    const holders = async () =>
      (await q("SELECT r.slug FROM role_permissions p JOIN roles r ON r.id = p.role_id WHERE p.permission = 'sessions.supervise' ORDER BY r.slug")).map(
        (r) => r.slug,
      );
    expect(await holders()).toEqual(['admin', 'manager']); // a fresh database: the seed
    const runner = t.db.createQueryRunner();
    try {
      const migration = new SessionsSupervisePermission1764210000000();
      await migration.down(runner);
      expect(await holders()).toEqual([]);
      await migration.up(runner);
      expect(await holders()).toEqual(['admin', 'manager']);
      await migration.up(runner); // a role that holds it already is left alone
      expect(await holders()).toEqual(['admin', 'manager']);
    } finally {
      await runner.release();
    }
  });
});
