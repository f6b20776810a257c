import request from 'supertest';
import { UserAdminService } from '@pos/identity';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';
import { createYenStore } from '../support/yen-store';
import { demoIds, DemoIds } from '../catalog/catalog-helpers';

type Line = { id: number; qty: number } & Record<string, unknown>;
const PRICING_LINE = ['id', 'qty', 'unit_id', 'price', 'discount_type', 'discount_value'];
const PRICING_CART = ['store_id', 'customer_id', 'tax_exempt', 'tax_exempt_reason', 'cart_discount_type', 'cart_discount_value'];
const pick = (o: Record<string, unknown>, keys: string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => keys.includes(k)));

/**
 * A discount approval covers the money it was given for (issue 23, item 8): it was bound to the
 * discount's type and value, the target and the idempotency key only, so an approval for 10% of a
 * 50.00 cart (5.00 off) covered 10% of a 1,380.00 cart (138.00 off). A percent approval now states
 * the amount the percent is taken of (`base_amount`); the token carries the money it comes to and
 * checkout accepts it only for a discount of no more than that, once per sale.
 *   small cart  7 x Cola 1.79 + 3 x Ground Coffee 12.49                          = 50.00
 *   big cart    37 x USB-C Cable 12.99 + 27 x Charger 19.99 + 36 x Protector 9.99 = 1,380.00
 */
describe('A discount approval covers what was approved, not the idempotency key', () => {
  let t: TestApp;
  let cashier: string;
  let managerId: number;
  let ids: DemoIds;
  let small: Line[];
  let big: Line[];
  const api = () => request(t.http);
  const approve = (body: Record<string, unknown>, token = cashier) =>
    api()
      .post('/api/v1/pos/discount/approve')
      .set(bearer(token))
      .send({ approver_email: DEMO.manager, pin: '1234', ...body });
  /** Checkout of `items` priced by the server first (the total it asks for), paid by card. */
  const checkout = async (storeId: number, items: Line[], extra: Record<string, unknown>, token = cashier) => {
    const cart = { store_id: storeId, items, ...extra };
    // /pricing/cart names fields it does not know: send it the pricing fields only (no approval tokens)
    const priced = await api()
      .post('/api/v1/pricing/cart')
      .set(bearer(token))
      .send({ ...pick(cart, PRICING_CART), items: items.map((l) => pick(l, PRICING_LINE)) });
    expect(priced.status).toBe(200);
    const total = priced.body.data.total;
    return api()
      .post('/api/v1/pos/checkout')
      .set(bearer(token))
      .send({ ...cart, payments: [{ payment_method_code: 'card', amount: total }], total_amount: total });
  };
  const written = async () => {
    const n = async (sql: string) => Number((await t.db.query(sql))[0].n);
    return {
      sales: await n('SELECT COUNT(*) AS n FROM sales'),
      lines: await n('SELECT COUNT(*) AS n FROM sale_items'),
      movements: await n('SELECT COUNT(*) AS n FROM stock_movements'),
      events: await n('SELECT COUNT(*) AS n FROM outbox_events'),
    };
  };

  beforeAll(async () => {
    t = await startTestApp();
    cashier = await login(t, DEMO.cashier);
    ids = await demoIds(t);
    managerId = Number((await t.db.query('SELECT id FROM users WHERE email = ?', [DEMO.manager]))[0].id);
    small = [
      { id: ids.item['BEV-003'], qty: 7 },
      { id: ids.item['COF-002'], qty: 3 },
    ];
    big = [
      { id: ids.item['ELC-001'], qty: 37 },
      { id: ids.item['ELC-004'], qty: 27 },
      { id: ids.item['ELC-006'], qty: 36 },
    ];
    const opened = await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: ids.store.DT, opening_balance: 100 });
    expect(opened.status).toBe(200);
  });
  afterAll(() => t.close());

  const cartDiscount = (percent: number, token: string, key: string) => ({
    idempotency_key: key,
    cart_discount_type: 'percent',
    cart_discount_value: percent,
    cart_discount_approval_token: token,
  });

  it('an approval of 10% on a 50.00 cart (5.00 off) does not cover 10% of a 1,380.00 cart under the same key (403, nothing written); it covers its own cart', async () => {
    const key = 'bind-issue-cart';
    const approval = await approve({ discount_type: 'percent', discount_value: 10, base_amount: 50, cart_reference: key });
    expect(approval.status).toBe(200);
    expect(approval.body.data).toMatchObject({ discount: { type: 'percent', value: 10 }, base_amount: 50, approved_amount: 5, cart_reference: key });
    const token = approval.body.data.approval_token;

    const before = await written();
    const refused = await checkout(ids.store.DT, big, cartDiscount(10, token, key));
    expectErrorEnvelope(refused, 403);
    expect(refused.body.code).toBe('discount_requires_approval');
    expect(await written()).toEqual(before);
    expect(await t.db.query('SELECT id FROM sales WHERE idempotency_key = ?', [key])).toEqual([]);

    const sold = await checkout(ids.store.DT, small, cartDiscount(10, token, key));
    expect(sold.status).toBe(201);
    expect(sold.body.data).toMatchObject({ subtotal: 50, discount_total: 5 });
  });

  it('a cart approval beyond the cashier covers its cart, and not the same percent of a bigger one', async () => {
    const key = 'bind-cart-30';
    const approval = await approve({ discount_type: 'percent', discount_value: 30, base_amount: 50, cart_reference: key });
    expect(approval.body.data).toMatchObject({ base_amount: 50, approved_amount: 15 });
    const token = approval.body.data.approval_token;
    // One more bottle of water: 51.29, 30% is 15.39 > 15.00.
    const before = await written();
    const more = await checkout(ids.store.DT, [...small, { id: ids.item['BEV-001'], qty: 1 }], cartDiscount(30, token, key));
    expectErrorEnvelope(more, 403);
    expect(await written()).toEqual(before);
    const sold = await checkout(ids.store.DT, small, cartDiscount(30, token, key));
    expect(sold.status).toBe(201);
    expect(sold.body.data.discount_total).toBe(15);
    expect(sold.body.data.items.map((l: { discount_approved_by: number | null }) => l.discount_approved_by)).toEqual([managerId, managerId]);
  });

  it("a line approval covers only its line's approved amount, once", async () => {
    const key = 'bind-line';
    const charger = ids.item['ELC-004'];
    const approval = await approve({ item_id: charger, discount_type: 'percent', discount_value: 30, base_amount: 19.99, cart_reference: key });
    expect(approval.body.data).toMatchObject({ scope: 'line', item_id: charger, base_amount: 19.99, approved_amount: 6 });
    const token = approval.body.data.approval_token;
    const line = (qty: number) => ({ id: charger, qty, discount_type: 'percent', discount_value: 30, discount_approval_token: token });
    const before = await written();
    // Three chargers: 30% is 17.99.
    expectErrorEnvelope(await checkout(ids.store.DT, [line(3)], { idempotency_key: key }), 403);
    // The same token on two lines of one charger each: 6.00 twice is more than the 6.00 approved.
    expectErrorEnvelope(await checkout(ids.store.DT, [line(1), line(1)], { idempotency_key: key }), 403);
    expect(await written()).toEqual(before);
    const sold = await checkout(ids.store.DT, [line(1), { id: ids.item['BEV-001'], qty: 1 }], { idempotency_key: key });
    expect(sold.status).toBe(201);
    expect(sold.body.data.items[0]).toMatchObject({ discounts: { manual: 6 }, discount_approved_by: managerId });
  });

  it('an amount approval needs no base; a percent approval needs its base, and the approver is held to their own amount limit', async () => {
    const amount = await approve({ discount_type: 'amount', discount_value: 25, cart_reference: 'bind-amount' });
    expect(amount.status).toBe(200);
    expect(amount.body.data).toMatchObject({ discount: { type: 'amount', value: 25 }, base_amount: null, approved_amount: 25 });
    for (const [body, field] of [
      [{ discount_type: 'percent', discount_value: 30 }, 'base_amount'],
      [{ discount_type: 'percent', discount_value: 30, base_amount: -1 }, 'base_amount'],
      [{ discount_type: 'percent', discount_value: 30, base_amount: 'fifty' }, 'base_amount'],
      [{ discount_type: 'percent', discount_value: 30, base_amount: 50.001 }, 'base_amount'],
    ] as const) {
      const res = await approve({ ...body, cart_reference: 'bind-bad' });
      expectErrorEnvelope(res, 422);
      expect([body, Object.keys(res.body.errors)]).toEqual([body, [field]]);
    }
    // 50% is within the manager's percent limit, but 50% of 2,000.00 is beyond their 500.00.
    const over = await approve({ discount_type: 'percent', discount_value: 50, base_amount: 2000, cart_reference: 'bind-over' });
    expectErrorEnvelope(over, 403);
    expect(over.body.message).toMatch(/limit/i);
  });

  describe('in a yen store (no decimals)', () => {
    let storeId: number;
    let waterId: number;
    let tokyo: string;

    beforeAll(async () => {
      ({ storeId } = await createYenStore(t, { allowNegativeStock: true }));
      waterId = ids.item['BEV-001'];
      await t.db.query('INSERT INTO user_stores (user_id, store_id) VALUES (?, ?)', [managerId, storeId]);
      await t.app
        .get(UserAdminService)
        .createUser({ name: 'Tokyo Cashier', email: 'tokyo.cashier@example.com', password: DEMO.password, role: 'cashier', storeIds: [storeId] });
      tokyo = await login(t, 'tokyo.cashier@example.com');
      expect((await api().post('/api/v1/sessions/open').set(bearer(tokyo)).send({ store_id: storeId, opening_balance: 10000 })).status).toBe(200);
    });

    it("states the cashier's amount limit in whole yen", async () => {
      const res = await api().get('/api/v1/pos/discount-limits').set(bearer(tokyo));
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ max_discount_percent: 10, max_discount_amount: 2000 });
    });

    it('approves and covers amounts in whole yen', async () => {
      // 3 waters at 129 yen = 387 yen; 100 yen off is 25.8%, beyond the cashier's 10%.
      const amount = await approve({ store_id: storeId, item_id: waterId, discount_type: 'amount', discount_value: 100, cart_reference: 'yen-amount' }, tokyo);
      expect(amount.status).toBe(200);
      expect(amount.body.data).toMatchObject({ store_id: storeId, discount: { type: 'amount', value: 100 }, approved_amount: 100 });
      const line = { id: waterId, qty: 3, discount_type: 'amount', discount_value: 100, discount_approval_token: amount.body.data.approval_token };
      const sold = await checkout(storeId, [line], { idempotency_key: 'yen-amount' }, tokyo);
      expect(sold.status).toBe(201);
      expect(sold.body.data.items[0].discount_approved_by).toBe(managerId);

      // 30% of 387 yen is 116.1: 116 yen, at the store's prices (tax included).
      const percent = await approve(
        { store_id: storeId, item_id: waterId, discount_type: 'percent', discount_value: 30, base_amount: 387, cart_reference: 'yen-pct' },
        tokyo,
      );
      expect(percent.body.data).toMatchObject({ base_amount: 387, approved_amount: 116 });
      const pctLine = { id: waterId, qty: 3, discount_type: 'percent', discount_value: 30, discount_approval_token: percent.body.data.approval_token };
      expect((await checkout(storeId, [pctLine], { idempotency_key: 'yen-pct' }, tokyo)).status).toBe(201);
      expectErrorEnvelope(
        await approve({ store_id: storeId, discount_type: 'percent', discount_value: 30, base_amount: 387.5, cart_reference: 'yen-bad' }, tokyo),
        422,
      );
    });
  });
});
