import request from 'supertest';
import { APPROVAL_CASHIER_MAX_FAILURES, APPROVER_MAX_FAILURES, UserAdminService } from '@pos/identity';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';

/**
 * Failed approvals (issue 23, item 8): ten wrong PINs sent at once counted as one (the count was
 * read, then written back), and any cashier could lock every manager out of approvals. Failures
 * are now counted by one conditional UPDATE each, per requesting cashier: a budget of
 * APPROVAL_CASHIER_MAX_FAILURES a window (then 429 with Retry-After), and an approver lock per
 * (approver, cashier) after APPROVER_MAX_FAILURES, so one cashier's guesses lock that cashier out,
 * never the manager for the others.
 */
describe('Approval failures: counted atomically, a budget per requesting cashier', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const api = () => request(t.http);
  const approve = (who: string, extra: Record<string, unknown> = {}) =>
    api()
      .post('/api/v1/pos/discount/approve')
      .set(bearer(tokens[who]))
      .send({
        approver_email: DEMO.manager,
        pin: '1234',
        discount_type: 'amount',
        discount_value: 25,
        cart_reference: `cart-${who}`,
        ...extra,
      });
  /** `n` wrong PINs sent at once by one cashier, each to `email(i)`. */
  const burst = (who: string, n: number, email: (i: number) => string = () => DEMO.manager) =>
    Promise.all(Array.from({ length: n }, (_, i) => approve(who, { approver_email: email(i), pin: '0000' })));

  beforeAll(async () => {
    t = await startTestApp();
    const users = t.app.get(UserAdminService);
    const [dt] = await t.db.query("SELECT id FROM stores WHERE code = 'DT'");
    for (const who of ['a', 'b', 'c', 'd']) {
      const user = await users.createUser({
        name: `Cashier ${who}`,
        email: `cashier.${who}@example.com`,
        password: DEMO.password,
        role: 'cashier',
        storeIds: [Number(dt.id)],
      });
      ids[who] = user.id;
      tokens[who] = await login(t, `cashier.${who}@example.com`);
    }
  });
  afterAll(() => t.close());

  it('counts wrong PINs sent at once one by one: the approver is locked for that cashier after the documented 5, not for another', async () => {
    const answers = await burst('a', APPROVER_MAX_FAILURES);
    for (const res of answers) {
      expectErrorEnvelope(res, 422);
      expect(Object.keys(res.body.errors)).toEqual(['approver_email']);
    }
    // The right PIN from the same cashier is now refused, with the answer a wrong PIN gets.
    const locked = await approve('a');
    expectErrorEnvelope(locked, 422);
    expect(locked.body).toEqual(answers[0].body);
    // Another cashier still gets the manager's approval.
    expect((await approve('b')).status).toBe(200);
  });

  it(`counts ${APPROVAL_CASHIER_MAX_FAILURES} wrong PINs sent at once as ${APPROVAL_CASHIER_MAX_FAILURES}: past its budget the cashier gets 429, the manager still approves for others`, async () => {
    const answers = await burst('c', APPROVAL_CASHIER_MAX_FAILURES);
    for (const res of answers) expectErrorEnvelope(res, 422);
    // Every one of them counted: the next request (even with the right PIN, to any approver) is 429.
    for (const extra of [{}, { approver_email: DEMO.admin, pin: '9999' }]) {
      const over = await approve('c', extra);
      expectErrorEnvelope(over, 429);
      expect(over.body.code).toBe('approval_attempts_exhausted');
      const retryAfter = Number(over.headers['retry-after']);
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    }
    // The manager is not locked out by that cashier's guesses: a second cashier gets an approval.
    const other = await approve('b');
    expect(other.status).toBe(200);
    expect(other.body.data.approved_by.name).toBe('Max Manager');
    // Once the cashier's window has passed, their budget is whole again.
    await t.db.query('UPDATE approval_attempts SET window_end_ms = ? WHERE cashier_id = ?', [Date.now() - 1000, ids.c]);
    expect((await approve('c')).status).toBe(200);
  });

  it('counts guesses at emails that are no approver against the cashier too', async () => {
    const answers = await burst('d', APPROVAL_CASHIER_MAX_FAILURES, (i) => `nobody-${i}@example.com`);
    for (const res of answers) expectErrorEnvelope(res, 422);
    expectErrorEnvelope(await approve('d'), 429);
    expect((await approve('b')).status).toBe(200);
  });
});
