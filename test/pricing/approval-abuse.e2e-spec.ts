import request from 'supertest';
import { Secret, TOTP } from 'otpauth';
import { APPROVAL_ADDRESS_MAX_FAILURES, APPROVAL_CASHIER_MAX_FAILURES, APPROVER_MAX_FAILURES, UserAdminService } from '@pos/identity';
import { bearer, DEMO, expectErrorEnvelope, startTestApp, TestApp } from '../support/test-app';

const totp = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });

/**
 * Discount approvals keep their own budgets (docs/terminal.md "a cashier can lock themselves out,
 * never a manager for the other cashiers"): failures count per requesting cashier and per client
 * address in identity, never in the approver's login tier, and successful approvals are ordinary
 * POS requests. A TOTP code used for an approval is used up, as at login. Refusals are audited.
 */
describe('Discount approvals: budgets of their own, codes used once', () => {
  let t: TestApp;
  let seq = 0;
  const api = () => request(t.http);
  const approve = (token: string, extra: Record<string, unknown> = {}) =>
    api()
      .post('/api/v1/pos/discount/approve')
      .set(bearer(token))
      .send({
        approver_email: DEMO.manager,
        pin: '1234',
        discount_type: 'percent',
        discount_value: 10,
        base_amount: 50,
        cart_reference: `cart-${++seq}`,
        ...extra,
      });
  const count = async (sql: string, params: unknown[] = []) => Number((await t.db.query(sql, params))[0].n);

  /** A new user of store 1 (one per test, so no budget is shared by accident), logged in. */
  async function staff(role: 'cashier' | 'manager', password = 'till-pass-1'): Promise<{ email: string; token: string }> {
    const email = `${role}${++seq}@example.com`;
    const [dt] = await t.db.query("SELECT id FROM stores WHERE code = 'DT'");
    await t.app.get(UserAdminService).createUser({ name: `${role} ${seq}`, email, password, role, storeIds: [dt.id] });
    const res = await api().post('/api/v1/auth/login').send({ email, password });
    expect(res.status).toBe(201);
    return { email, token: res.body.data.token };
  }

  beforeAll(async () => {
    // A tight login tier: under it, approvals charged to the approver's login would show at once.
    t = await startTestApp({ RATE_LIMIT_LOGIN: '3' });
  });
  beforeEach(() => t.db.query('DELETE FROM approval_attempts'));
  afterAll(() => t.close());

  it("a cashier's wrong PINs lock the manager for that cashier only: other tills and the manager's login go on", async () => {
    const guesser = await staff('cashier');
    const other = await staff('cashier');
    const refusedBefore = await count("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'discount.approval_refused'");
    for (let i = 0; i < APPROVER_MAX_FAILURES; i++) expectErrorEnvelope(await approve(guesser.token, { pin: '0000' }), 422);
    expectErrorEnvelope(await approve(guesser.token), 422); // locked for this cashier, even with the right PIN
    expect((await approve(other.token)).status).toBe(200);
    expect((await api().post('/api/v1/auth/login').send({ email: DEMO.manager, password: DEMO.password })).status).toBe(201);
    // Each refusal is in the audit log, naming the cashier and the approver tried.
    const refused = await t.db.query("SELECT after FROM audit_log WHERE action = 'discount.approval_refused' ORDER BY id");
    expect(refused.length - refusedBefore).toBe(APPROVER_MAX_FAILURES + 1);
    const last = JSON.parse(refused[refused.length - 1].after);
    expect(last).toMatchObject({ approver_email: DEMO.manager, with: 'pin' });
  });

  it('successful approvals are not counted against logins (more than the login tier allows, then the manager logs in)', async () => {
    const cashier = await staff('cashier');
    for (let i = 0; i < 6; i++) expect((await approve(cashier.token)).status).toBe(200);
    expect((await api().post('/api/v1/auth/login').send({ email: DEMO.manager, password: DEMO.password })).status).toBe(201);
  });

  it('a client address has a budget of failures across cashiers: past it, 429 for every cashier there', async () => {
    const tills = Math.ceil(APPROVAL_ADDRESS_MAX_FAILURES / APPROVAL_CASHIER_MAX_FAILURES);
    let failed = 0;
    for (let i = 0; i < tills; i++) {
      const cashier = await staff('cashier');
      // Spread over approvers that do not exist (one cashier locks no real manager), within each cashier's budget.
      for (let j = 0; j < APPROVAL_CASHIER_MAX_FAILURES && failed < APPROVAL_ADDRESS_MAX_FAILURES; j++, failed++) {
        expectErrorEnvelope(await approve(cashier.token, { approver_email: `nobody${j % 2}@example.com`, pin: '0000' }), 422);
      }
    }
    const fresh = await staff('cashier');
    const limited = await approve(fresh.token);
    expectErrorEnvelope(limited, 429, 'Too many failed approval attempts from this address; try again later.');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Refused before anything was checked: the fresh cashier's own budget is untouched.
    const [row] = await t.db.query('SELECT failures FROM approval_attempts WHERE cashier_id = (SELECT id FROM users WHERE email = ?) AND approver_id = 0', [
      fresh.email,
    ]);
    expect(Number(row?.failures ?? 0)).toBe(0);
  });

  it('a TOTP code used for an approval cannot be used again, for an approval or a login, and the other way round', async () => {
    const manager = await staff('manager', 'mgr-pass-12');
    const cashier = await staff('cashier');
    const enabled = await api().post('/api/v1/auth/two-factor/enable').set(bearer(manager.token)).send({ password: 'mgr-pass-12' });
    const secret: string = enabled.body.data.secret;
    expect(
      (
        await api()
          .post('/api/v1/auth/two-factor/confirm')
          .set(bearer(manager.token))
          .send({ code: totp(secret).generate() })
      ).status,
    ).toBe(200);
    // Forget the step confirm used, so two codes within the drift window are at hand (this step's and the next).
    await t.db.query('UPDATE users SET two_factor_last_step = NULL WHERE email = ?', [manager.email]);
    const now = Date.now();
    const [first, second] = [totp(secret).generate({ timestamp: now }), totp(secret).generate({ timestamp: now + 30_000 })];
    const withCode = (code: string) => ({ approver_email: manager.email, pin: undefined, password: 'mgr-pass-12', two_factor_code: code });
    const loginWith = (code: string) => api().post('/api/v1/auth/login').send({ email: manager.email, password: 'mgr-pass-12', two_factor_code: code });

    // Login first: its code no longer approves.
    expect((await loginWith(first)).status).toBe(201);
    expectErrorEnvelope(await approve(cashier.token, withCode(first)), 422);
    // An approval: its code neither approves again (another cart) nor logs in.
    expect((await approve(cashier.token, withCode(second))).status).toBe(200);
    expectErrorEnvelope(await approve(cashier.token, withCode(second)), 422);
    const replayedLogin = await loginWith(second);
    expectErrorEnvelope(replayedLogin, 422);
    expect(Object.keys(replayedLogin.body.errors)).toEqual(['two_factor_code']);
  });
});
