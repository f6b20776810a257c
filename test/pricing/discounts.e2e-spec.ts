import request from 'supertest';
import type { Principal } from '@pos/identity';
import { DiscountApprovalService } from '@pos/pricing';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';
import { DemoIds, demoIds, expectNo5xx, LONG } from '../catalog/catalog-helpers';
import { appToken } from './pricing-helpers';

/**
 * Discount limits and manager approval (contract 4.3; decisions.md "Sales"): a discount beyond
 * the cashier's limits needs a manager's email + PIN or password, giving a short-lived token
 * bound to that discount, cashier, store and cart.
 */
describe('Discount limits and approvals', () => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let cashier: string;
  let ids: DemoIds;
  const user: Record<string, number> = {};

  const api = () => request(t.http);
  const approve = (body: Record<string, unknown>, token = cashier) => api().post('/api/v1/pos/discount/approve').set(bearer(token)).send(body);
  const base = () => ({
    approver_email: DEMO.manager,
    pin: '1234',
    discount_type: 'percent',
    discount_value: 25,
    base_amount: 100,
    cart_reference: 'cart-001',
  });
  /** The approver's id when the token matches every fact of its use, else null (what checkout will ask). */
  const verify = (
    token: string,
    cashierId: number,
    scope: {
      storeId: number;
      target: 'cart' | { itemId: number };
      discount: { type: 'percent'; valueBp: number } | { type: 'amount'; value: number };
      cartReference: string;
      amount?: number;
    },
  ) => t.app.get(DiscountApprovalService).verify(token, { userId: cashierId } as Principal, scope);

  beforeAll(async () => {
    t = await startTestApp();
    [admin, manager, cashier] = await Promise.all([login(t, DEMO.admin), login(t, DEMO.manager), login(t, DEMO.cashier)]);
    ids = await demoIds(t);
    for (const email of [DEMO.admin, DEMO.manager, DEMO.cashier])
      user[email] = Number((await t.db.query('SELECT id FROM users WHERE email = ?', [email]))[0].id);
  });
  afterAll(() => t.close());

  describe('GET /pos/discount-limits', () => {
    it("gives the user's own limits and whether they may approve", async () => {
      const expected: [string, Record<string, unknown>][] = [
        [cashier, { user_id: user[DEMO.cashier], role: 'cashier', max_discount_percent: 10, max_discount_amount: 20, can_approve_discounts: false }],
        [manager, { user_id: user[DEMO.manager], role: 'manager', max_discount_percent: 50, max_discount_amount: 500, can_approve_discounts: true }],
        [admin, { user_id: user[DEMO.admin], role: 'admin', max_discount_percent: 100, max_discount_amount: 100000, can_approve_discounts: true }],
      ];
      for (const [token, data] of expected) {
        const res = await api().get('/api/v1/pos/discount-limits').set(bearer(token));
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ success: true, data });
      }
    });

    it('needs a token (401) and pos.access (403), and ignores hostile query values', async () => {
      expectErrorEnvelope(await api().get('/api/v1/pos/discount-limits'), 401, 'Unauthorized.');
      expectErrorEnvelope(
        await api()
          .get('/api/v1/pos/discount-limits')
          .set(bearer(await appToken(t, ['items.view']))),
        403,
      );
      for (const q of [`user_id=${user[DEMO.admin]}`, `store_id=${encodeURIComponent("1' OR '1'='1")}`, `x=${LONG}`]) {
        const res = await api().get(`/api/v1/pos/discount-limits?${q}`).set(bearer(cashier));
        expectNo5xx(res, [200, 422]);
        if (res.status === 200) expect(res.body.data.user_id).toBe(user[DEMO.cashier]);
      }
    });
  });

  describe('POST /pos/discount/approve', () => {
    it("returns a short-lived token for a manager's email and PIN, bound to that cart discount", async () => {
      const before = Date.now();
      const res = await approve(base());
      expect(res.status).toBe(200);
      const d = res.body.data;
      expect(d).toEqual({
        approval_token: expect.any(String),
        expires_at: expect.any(String),
        approved_by: { id: user[DEMO.manager], name: 'Max Manager' },
        store_id: ids.store.DT,
        scope: 'cart',
        item_id: null,
        discount: { type: 'percent', value: 25 },
        base_amount: 100,
        approved_amount: 25,
        cart_reference: 'cart-001',
      });
      expect(d.approval_token.length).toBeGreaterThanOrEqual(40);
      const ttl = new Date(d.expires_at).getTime() - before;
      expect(ttl).toBeGreaterThan(60_000);
      expect(ttl).toBeLessThanOrEqual(30 * 60_000);
      const scope = {
        storeId: ids.store.DT,
        target: 'cart' as const,
        discount: { type: 'percent' as const, valueBp: 2500 },
        cartReference: 'cart-001',
        amount: 2500,
      };
      expect(verify(d.approval_token, user[DEMO.cashier], scope)).toBe(user[DEMO.manager]);
      expect(verify(d.approval_token, user[DEMO.cashier], { ...scope, amount: 2000 })).toBe(user[DEMO.manager]);
      // Bound to every fact: another cashier, store, target, discount or cart, more money, or no amount for a percent is refused.
      expect(verify(d.approval_token, user[DEMO.cashier], { ...scope, amount: 2501 })).toBeNull();
      expect(verify(d.approval_token, user[DEMO.cashier], { ...scope, amount: undefined })).toBeNull();
      expect(verify(d.approval_token, user[DEMO.admin], scope)).toBeNull();
      expect(verify(d.approval_token, user[DEMO.cashier], { ...scope, storeId: ids.store.AP })).toBeNull();
      expect(verify(d.approval_token, user[DEMO.cashier], { ...scope, target: { itemId: ids.item['SNK-001'] } })).toBeNull();
      expect(verify(d.approval_token, user[DEMO.cashier], { ...scope, discount: { type: 'percent', valueBp: 2600 } })).toBeNull();
      expect(verify(d.approval_token, user[DEMO.cashier], { ...scope, cartReference: 'cart-002' })).toBeNull();
      const [body, mac] = d.approval_token.split('.');
      expect(verify(`${body}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BB' : 'AA'}`, user[DEMO.cashier], scope)).toBeNull();
      // Every approval is a new token.
      const again = await approve(base());
      expect(again.body.data.approval_token).not.toBe(d.approval_token);
    });

    it("approves a line discount with the manager's password, and accepts the type aliases", async () => {
      const line = await approve({
        approver_email: '  Manager@Example.COM ',
        password: DEMO.password,
        item_id: ids.item['SNK-001'],
        discount_type: 'fixed',
        discount_value: 15.5,
        cart_reference: 'cart-002',
      });
      // An amount approval covers its value: no base needed.
      expect(line.status).toBe(200);
      expect(line.body.data).toMatchObject({
        scope: 'line',
        item_id: ids.item['SNK-001'],
        discount: { type: 'amount', value: 15.5 },
        base_amount: null,
        approved_amount: 15.5,
        cart_reference: 'cart-002',
        approved_by: { id: user[DEMO.manager] },
      });
      expect(
        verify(line.body.data.approval_token, user[DEMO.cashier], {
          storeId: ids.store.DT,
          target: { itemId: ids.item['SNK-001'] },
          discount: { type: 'amount', value: 1550 },
          cartReference: 'cart-002',
        }),
      ).toBe(user[DEMO.manager]);
      const alias = await approve({ ...base(), discount_type: 'percentage', discount_value: 12.5 });
      expect(alias.body.data.discount).toEqual({ type: 'percent', value: 12.5 });
      const amount = await approve({ ...base(), discount_type: 'amount', discount_value: 30 });
      expect(amount.body.data.discount).toEqual({ type: 'amount', value: 30 });
    });

    it("allows up to the approver's own limit and refuses beyond it with 403", async () => {
      expect((await approve({ ...base(), discount_value: 50 })).status).toBe(200);
      expect((await approve({ ...base(), discount_type: 'amount', discount_value: 500, base_amount: undefined })).status).toBe(200);
      for (const over of [
        { discount_value: 50.01 },
        { discount_value: 100 },
        // Within 50%, beyond 500.00: a percent is held to the approver's amount limit too.
        { discount_value: 30, base_amount: 2000 },
        { discount_type: 'amount', discount_value: 500.01, base_amount: undefined },
        { discount_type: 'fixed', discount_value: 9999, base_amount: undefined },
        // Within 500.00, beyond 50% of its base.
        { discount_type: 'amount', discount_value: 60 },
      ]) {
        const res = await approve({ ...base(), ...over });
        expectErrorEnvelope(res, 403);
        expect(res.body.message).toMatch(/limit/i);
      }
      // The super admin's limit is 100%.
      const adminApproves = await approve({ ...base(), approver_email: DEMO.admin, pin: '9999', discount_value: 100 });
      expect(adminApproves.status).toBe(200);
      expect(adminApproves.body.data.approved_by.id).toBe(user[DEMO.admin]);
    });

    it('refuses wrong credentials with 422 on approver_email', async () => {
      for (const creds of [
        { pin: '0000' },
        { pin: '12345' },
        { pin: undefined, password: 'wrong-password' },
        { pin: undefined, password: '1234' },
        { approver_email: 'nobody@example.com' },
        { approver_email: DEMO.cashier },
        { approver_email: DEMO.admin, pin: '1234' },
      ]) {
        const res = await approve({ ...base(), ...creds });
        expectErrorEnvelope(res, 422, 'The given data was invalid.');
        expect([creds, Object.keys(res.body.errors)]).toEqual([creds, ['approver_email']]);
        expect(res.body).not.toHaveProperty('data');
      }
    });

    it('answers a non-approver with the right password exactly like a wrong password (no password oracle)', async () => {
      const right = await approve({ ...base(), approver_email: DEMO.cashier, pin: undefined, password: DEMO.password, discount_value: 5 });
      const wrong = await approve({ ...base(), approver_email: DEMO.cashier, pin: undefined, password: 'not-the-password', discount_value: 5 });
      for (const res of [right, wrong]) expectErrorEnvelope(res, 422, 'The given data was invalid.');
      expect(right.body).toEqual(wrong.body);
    });

    it('refuses a store the cashier does not work in (403); a manager may ask for either of theirs', async () => {
      const res = await approve({ ...base(), store_id: ids.store.AP });
      expectErrorEnvelope(res, 403);
      const mgr = await approve({ ...base(), store_id: ids.store.AP }, manager);
      expect(mgr.status).toBe(200);
      expect(mgr.body.data.store_id).toBe(ids.store.AP);
      expect(
        verify(mgr.body.data.approval_token, user[DEMO.manager], {
          storeId: ids.store.AP,
          target: 'cart',
          discount: { type: 'percent', valueBp: 2500 },
          cartReference: 'cart-001',
          amount: 2500,
        }),
      ).toBe(user[DEMO.manager]);
    });

    it('answers bad bodies with 422 naming the field', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ ...base(), approver_email: undefined }, 'approver_email'],
        [{ ...base(), approver_email: 'not-an-email' }, 'approver_email'],
        [{ ...base(), approver_email: `${'a'.repeat(300)}@example.com` }, 'approver_email'],
        [{ ...base(), pin: undefined }, 'password'],
        [{ ...base(), pin: '1'.repeat(17) }, 'pin'],
        [{ ...base(), pin: 1234 }, 'pin'],
        [{ ...base(), pin: undefined, password: LONG }, 'password'],
        [{ ...base(), discount_type: undefined }, 'discount_type'],
        [{ ...base(), discount_type: 'bogus' }, 'discount_type'],
        [{ ...base(), discount_value: undefined }, 'discount_value'],
        [{ ...base(), discount_value: -1 }, 'discount_value'],
        [{ ...base(), discount_value: 'lots' }, 'discount_value'],
        [{ ...base(), discount_value: 1.005 }, 'discount_value'],
        [{ ...base(), discount_value: 101 }, 'discount_value'],
        [{ ...base(), cart_reference: undefined }, 'cart_reference'],
        [{ ...base(), cart_reference: '   ' }, 'cart_reference'],
        [{ ...base(), cart_reference: 'x'.repeat(129) }, 'cart_reference'],
        [{ ...base(), item_id: 'abc' }, 'item_id'],
        [{ ...base(), item_id: 0 }, 'item_id'],
        [{ ...base(), store_id: 'x' }, 'store_id'],
      ];
      for (const [body, field] of cases) {
        const res = await approve(body);
        expectErrorEnvelope(res, 422, 'The given data was invalid.');
        expect([JSON.stringify(body).slice(0, 120), Object.keys(res.body.errors)]).toEqual([JSON.stringify(body).slice(0, 120), [field]]);
      }
    });

    it('needs a token (401) and pos.access (403), and never answers hostile input with a 5xx', async () => {
      expectErrorEnvelope(await api().post('/api/v1/pos/discount/approve').send(base()), 401);
      expectErrorEnvelope(await approve(base(), await appToken(t, ['items.view', 'discounts.approve'])), 403);
      const bodies: unknown[] = [
        { ...base(), approver_email: "manager@example.com' OR '1'='1" },
        { ...base(), approver_email: { $ne: null } },
        { ...base(), pin: { $gt: '' } },
        { ...base(), pin: ['1234'] },
        { ...base(), discount_value: 1e308 },
        { ...base(), discount_type: 'amount', discount_value: 99_999_999.99 },
        { ...base(), store_id: 2_147_483_648 },
        { ...base(), store_id: 999999 },
        { ...base(), item_id: 2_147_483_647 },
        { ...base(), cart_reference: "'; DROP TABLE users; --" },
        { ...base(), password: LONG.slice(0, 1024), pin: undefined },
        [base()],
        'approve',
      ];
      for (const body of bodies) {
        expectNo5xx(
          await api().post('/api/v1/pos/discount/approve').set(bearer(cashier)).set('Content-Type', 'application/json').send(JSON.stringify(body)),
          [200, 400, 403, 422],
        );
      }
      const [{ n }] = await t.db.query('SELECT COUNT(*) AS n FROM users');
      expect(Number(n)).toBeGreaterThanOrEqual(3);
    });
  });
});
