import request from 'supertest';
import { TOTP, Secret } from 'otpauth';
import { APPROVER_MAX_FAILURES } from '@pos/identity';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';

const totp = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });

/**
 * Discount approval must not be a password oracle (issue 16, item 10): identity's
 * verifyApprover answers one way for wrong, not allowed and locked out; a password alone never
 * passes for an approver with 2FA; repeated failures lock the approver out for that cashier;
 * dangling store and item ids are 422. Budgets per address and the login tier: approval-abuse.
 */
describe('Approver verification (POST /pos/discount/approve)', () => {
  let t: TestApp;
  let cashier: string;
  const api = () => request(t.http);
  const approve = (body: Record<string, unknown>, token = cashier) => api().post('/api/v1/pos/discount/approve').set(bearer(token)).send(body);
  const base = (extra: Record<string, unknown> = {}) => ({
    approver_email: DEMO.manager,
    pin: '1234',
    discount_type: 'percent',
    discount_value: 10,
    base_amount: 50,
    cart_reference: 'cart-approver',
    ...extra,
  });

  let cashierId: number;
  let managerId: number;
  const userId = async (email: string) => Number((await t.db.query('SELECT id FROM users WHERE email = ?', [email]))[0].id);

  beforeAll(async () => {
    t = await startTestApp();
    cashier = await login(t, DEMO.cashier);
    [cashierId, managerId] = [await userId(DEMO.cashier), await userId(DEMO.manager)];
  });
  // Each test starts with no failures counted (the cashier's budget is a window's, see approval-failures).
  beforeEach(() => t.db.query('DELETE FROM approval_attempts'));
  afterAll(() => t.close());

  it('locks an approver out for the cashier after repeated failures: then even the right PIN is refused, until the window ends', async () => {
    expect((await approve(base())).status).toBe(200);
    for (let i = 0; i < APPROVER_MAX_FAILURES; i++) expectErrorEnvelope(await approve(base({ pin: '0000' })), 422);
    const locked = await approve(base());
    expectErrorEnvelope(locked, 422);
    expect(Object.keys(locked.body.errors)).toEqual(['approver_email']);
    const pair = 'SELECT failures, window_end_ms FROM approval_attempts WHERE cashier_id = ? AND approver_id = ?';
    const [row] = await t.db.query(pair, [cashierId, managerId]);
    expect(Number(row.failures)).toBe(APPROVER_MAX_FAILURES);
    expect(Number(row.window_end_ms)).toBeGreaterThan(Date.now());
    // The lock has an end: once it has passed, the right PIN works again and clears the count.
    await t.db.query('UPDATE approval_attempts SET window_end_ms = ? WHERE cashier_id = ?', [Date.now() - 1000, cashierId]);
    expect((await approve(base())).status).toBe(200);
    const [after] = await t.db.query(pair, [cashierId, managerId]);
    expect(Number(after.failures)).toBe(0);
  });

  it('does not count a success between failures against the approver', async () => {
    // Two rounds: 8 failures stay within the cashier's budget of 10.
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < APPROVER_MAX_FAILURES - 1; i++) expectErrorEnvelope(await approve(base({ pin: '0000' })), 422);
      expect((await approve(base())).status).toBe(200);
    }
  });

  it('needs PIN, or password plus TOTP code, for an approver with 2FA', async () => {
    const managerToken = await login(t, DEMO.manager);
    const enabled = await api().post('/api/v1/auth/two-factor/enable').set(bearer(managerToken)).send({ password: DEMO.password });
    expect(enabled.status).toBe(200);
    const secret: string = enabled.body.data.secret;
    expect(
      (
        await api()
          .post('/api/v1/auth/two-factor/confirm')
          .set(bearer(managerToken))
          .send({ code: totp(secret).generate() })
      ).status,
    ).toBe(200);

    const passwordOnly = await approve(base({ pin: undefined, password: DEMO.password }));
    expectErrorEnvelope(passwordOnly, 422);
    expect(Object.keys(passwordOnly.body.errors)).toEqual(['approver_email']);
    expectErrorEnvelope(await approve(base({ pin: undefined, password: DEMO.password, two_factor_code: '000000' })), 422);
    // A code is accepted once (confirm used this step's): the next step's, within the drift window.
    const next = totp(secret).generate({ timestamp: Date.now() + 30_000 });
    expect((await approve(base({ pin: undefined, password: DEMO.password, two_factor_code: next }))).status).toBe(200);
    expect((await approve(base())).status).toBe(200);
  });

  it('answers a dangling store_id or item_id with 422 naming the field (not a 403 or a bound token)', async () => {
    const admin = await login(t, DEMO.admin);
    const store = await approve(base({ store_id: 99999 }), admin);
    expectErrorEnvelope(store, 422);
    expect(Object.keys(store.body.errors)).toEqual(['store_id']);
    const item = await approve(base({ item_id: 99999 }));
    expectErrorEnvelope(item, 422);
    expect(Object.keys(item.body.errors)).toEqual(['item_id']);
  });
});
