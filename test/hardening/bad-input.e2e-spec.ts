import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, integrationToken, login, startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 16, "5xx on bad input" (items 1-7) and item 16: each request that was a 500 (or was
 * stored as sent) is now a clear 4xx in the envelope. Requests are shown as in the issue.
 */
describe('Hardening: bad input is a 4xx, never a 5xx', () => {
  let t: TestApp;
  let admin: string;
  let cashier: string;
  let manager: string;
  const api = () => request(t.http);
  const checkout = (over: Record<string, unknown> = {}) => ({
    store_id: 1,
    idempotency_key: `h-${Math.random()}`,
    items: [{ id: 1, qty: 1 }],
    payments: [{ payment_method_code: 'cash', amount: 2 }],
    total_amount: 1.32,
    ...over,
  });

  beforeAll(async () => {
    t = await startTestApp();
    admin = await login(t, DEMO.admin);
    cashier = await login(t, DEMO.cashier);
    manager = await login(t, DEMO.manager);
    await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 0 }).expect(200);
  });
  afterAll(() => t.close());

  describe('item 1: money in exponent form ("amount":1e-7) is 422 "at most 4 decimal places" (the most any currency has)', () => {
    // JSON.stringify(1e-7) === "1e-7": supertest sends exactly what the issue shows.
    const cases: [string, string, () => string, Record<string, unknown>, string][] = [
      ['POST', '/api/v1/pos/checkout', () => cashier, checkout({ total_amount: 1e-7 }), 'total_amount'],
      ['POST', '/api/v1/pos/checkout', () => cashier, checkout({ payments: [{ payment_method_code: 'cash', amount: 1e-7 }] }), 'payments.0.amount'],
      ['POST', '/api/v1/pos/checkout', () => cashier, checkout({ items: [{ id: 1, qty: 1, price: 1.5e-9 }] }), 'items.0.price'],
      ['POST', '/api/v1/sessions/open', () => manager, { store_id: 1, opening_balance: 1e-7 }, 'opening_balance'],
      ['POST', '/api/v1/pricing/cart', () => cashier, { items: [{ id: 1, qty: 1, price: 1e-7 }] }, 'items.0.price'],
      ['POST', '/api/v1/pricing-rules', () => admin, { name: 'r', kind: 'amount_off', amount_off: 1e-7 }, 'amount_off'],
      ['POST', '/api/v1/prices/bulk', () => admin, { changes: [{ item_id: 1, price: 5e-7 }] }, 'changes.0.price'],
      ['POST', '/api/v1/currencies/EUR/rates', () => admin, { rate: 1e-9 }, 'rate'],
    ];
    it.each(cases)('%s %s', async (method, url, token, body, field) => {
      const res = await api()[method.toLowerCase() as 'post'](url).set(bearer(token())).send(body);
      expectErrorEnvelope(res, 422, 'The given data was invalid.');
      expect(res.body.errors[field][0]).toMatch(/at most (4|8) decimal places/);
    });

    it('still accepts an exponent that is a whole or 2-decimal amount (1e2 = 100, 1.5e1 = 15)', async () => {
      const res = await api()
        .post('/api/v1/pricing/cart')
        .set(bearer(cashier))
        .send({ items: [{ id: 1, qty: 1, price: 1.5e1 }] });
      expect(res.status).toBe(200);
    });
  });

  describe('item 2: null in an optional field is "not given" (README Conventions)', () => {
    it('POST /pos/checkout with items[].price, discount_value, payments[].tendered and cart_discount_value null', async () => {
      const res = await api()
        .post('/api/v1/pos/checkout')
        .set(bearer(cashier))
        .send(
          checkout({
            items: [{ id: 1, qty: 1, price: null, discount_type: null, discount_value: null }],
            payments: [{ payment_method_code: 'cash', amount: 2, tendered: null }],
            cart_discount_type: null,
            cart_discount_value: null,
            customer_id: null,
          }),
        );
      expect(res.status).toBe(201);
      expect(res.body.data.total_amount).toBe(1.32);
    });

    it('POST /pricing/cart, /pricing-rules, /bundles, /items and /inventory/adjustments with null amounts', async () => {
      expect(
        (
          await api()
            .post('/api/v1/pricing/cart')
            .set(bearer(cashier))
            .send({ items: [{ id: 1, qty: 1, price: null, discount_value: null }], cart_discount_value: null })
        ).status,
      ).toBe(200);
      const rule = await api()
        .post('/api/v1/pricing-rules')
        .set(bearer(admin))
        .send({ name: 'null amounts', kind: 'percent_off', percent_off: 5, amount_off: null });
      expect(rule.status).toBe(200);
      const bundle = await api()
        .post('/api/v1/bundles')
        .set(bearer(admin))
        .send({ name: 'B', code: `NB${Date.now()}`, price: 3, items: [{ item_id: 1, quantity: 1 }], store_ids: null, description: null });
      expect(bundle.status).toBe(201);
      const item = await api()
        .post('/api/v1/items')
        .set(bearer(admin))
        .send({ sku: `NULL-${Date.now()}`, name: 'Null cost', base_price: 1, cost: null, units: [{ name: 'box', factor: 6, price: null }] });
      expect(item.status).toBe(201);
      expect(item.body.data.cost).toBe(0);
      const adj = await api()
        .post('/api/v1/inventory/adjustments')
        .set(bearer(admin))
        .send({ type: 'receive', warehouse_id: 1, items: [{ item_id: 1, quantity: 1, unit_cost: null }] });
      expect(adj.status).toBe(201);
    });

    it('a required field sent as null is "required" (422), and a nullable field keeps its meaning (null clears)', async () => {
      const res = await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: null });
      expectErrorEnvelope(res, 422);
      expect(res.body.errors.opening_balance).toEqual(['The opening_balance field is required.']);
      const created = await api()
        .post('/api/v1/customers')
        .set(bearer(admin))
        .send({ name: 'Clearable', email: `c${Date.now()}@example.com` });
      expect(created.status).toBe(201);
      const cleared = await api().put(`/api/v1/customers/${created.body.data.id}`).set(bearer(admin)).send({ email: null });
      expect(cleared.status).toBe(200);
      expect(cleared.body.data.email).toBeNull();
    });
  });

  describe('item 3: JSON nested 10,000 deep is 400 before validation, on every body endpoint', () => {
    const deep = (n: number) => '{"email":' + '['.repeat(n) + ']'.repeat(n) + ',"password":"x"}';
    it.each([
      ['/api/v1/auth/login', undefined],
      ['/api/v1/pos/checkout', 'cashier'],
      ['/api/v1/customers', 'admin'],
    ])('POST %s', async (url, who) => {
      let req = api().post(url).set('Content-Type', 'application/json');
      if (who) req = req.set(bearer(who === 'admin' ? admin : cashier));
      const res = await req.send(deep(10_000));
      expectErrorEnvelope(res, 400);
      expect(res.body.message).toMatch(/nested more than 32 levels/);
    });

    it('accepts 32 levels (the limit) and refuses 33', async () => {
      const nest = (n: number) => '{"email":"a@b.c","password":"x","device_name":' + '['.repeat(n - 1) + ']'.repeat(n - 1) + '}';
      expect((await api().post('/api/v1/auth/login').set('Content-Type', 'application/json').send(nest(32))).status).toBe(422);
      expectErrorEnvelope(await api().post('/api/v1/auth/login').set('Content-Type', 'application/json').send(nest(33)), 400);
    });
  });

  describe('item 4 and 16: a lone surrogate, a control character or a bidi override is 422', () => {
    it('POST /auth/login {"email":"x\\ud800y"}', async () => {
      const res = await api().post('/api/v1/auth/login').set('Content-Type', 'application/json').send('{"email":"x\\ud800y@example.com","password":"x"}');
      expectErrorEnvelope(res, 422);
      expect(res.body.errors.email).toBeDefined();
    });

    it('POST /customers with a lone surrogate in the email and controls in the name', async () => {
      const res = await api()
        .post('/api/v1/customers')
        .set(bearer(admin))
        .set('Content-Type', 'application/json')
        .send('{"name":"Eve\\u0000","email":"x\\udc00y@example.com"}');
      expectErrorEnvelope(res, 422);
      expect(Object.keys(res.body.errors).sort()).toEqual(['email', 'name']);
    });

    const unsafe: [string, string][] = [
      ['a NUL', 'A\u0000B'],
      ['an escape', 'A\u001b[31mB'],
      ['a right-to-left override', 'invoice\u202Etxt.exe'],
      ['a lone high surrogate', 'A\ud83dB'],
      ['a lone low surrogate', 'A\ude00B'],
      ['a line break (single-line field)', 'A\nB'],
    ];
    it.each(unsafe)('refuses %s in a name, a code and an identifier', async (_what, value) => {
      const category = await api().post('/api/v1/categories').set(bearer(admin)).send({ name: value });
      expectErrorEnvelope(category, 422);
      expect(category.body.errors.name[0]).toMatch(/must not contain/);
      const group = await api().post('/api/v1/customer-groups').set(bearer(admin)).send({ name: 'G', code: value });
      expect(group.body.errors.code[0]).toMatch(/must not contain/);
      const item = await api().post('/api/v1/items').set(bearer(admin)).send({ sku: value, name: 'X', base_price: 1 });
      expect(item.body.errors.sku[0]).toMatch(/must not contain/);
      const sale = await api()
        .post('/api/v1/pos/checkout')
        .set(bearer(cashier))
        .send(checkout({ idempotency_key: value }));
      expect(sale.body.errors.idempotency_key[0]).toMatch(/must not contain/);
    });

    it('keeps line breaks and tabs in multi-line text and stores emoji (paired surrogates) as sent', async () => {
      const res = await api()
        .post('/api/v1/customers')
        .set(bearer(admin))
        .send({ name: 'Zoë 😀 Ünal', address: '1 Main St\n\tFloor 2', notes: 'VIP\r\nprefers card' });
      expect(res.status).toBe(201);
      const shown = await api().get(`/api/v1/customers/${res.body.data.id}`).set(bearer(admin));
      expect(shown.body.data.name).toBe('Zoë 😀 Ünal');
      expect(shown.body.data.address).toBe('1 Main St\n\tFloor 2');
    });
  });

  describe('item 5: a dangling id is 422, not a 500 or an accepted row', () => {
    it('POST /sessions/open {"store_id":99999} by a user with all stores', async () => {
      const res = await api().post('/api/v1/sessions/open').set(bearer(admin)).send({ store_id: 99999, opening_balance: 0 });
      expectErrorEnvelope(res, 422);
      expect(res.body.errors.store_id).toEqual(['The selected store does not exist.']);
    });

    it('?store_id=99999 on the feeds and lists (was 200 with an empty page: a typo read as "no sales")', async () => {
      const partner = (await integrationToken(t, ['sales.view', 'invoices.view', 'returns.view', 'inventory.view', 'warehouses.view'])).token;
      for (const path of [
        'integration/sales',
        'integration/data/sales',
        'integration/data/invoices',
        'integration/data/returns',
        'integration/data/inventory',
        'integration/data/warehouses',
      ]) {
        const res = await api().get(`/api/v1/${path}`).set(bearer(partner)).query({ store_id: 99999 });
        expect([path, res.status, res.body.errors?.store_id]).toEqual([path, 422, ['The selected store does not exist.']]);
      }
      for (const path of ['sales', 'returns', 'invoices', 'sales/reviews', 'bundles', 'warehouses'])
        expect([path, (await api().get(`/api/v1/${path}`).set(bearer(admin)).query({ store_id: 99999 })).status]).toEqual([path, 422]);
      // another store's stays 403 for a caller limited to their own
      expectErrorEnvelope(await api().get('/api/v1/sales').set(bearer(cashier)).query({ store_id: 99999 }), 403);
    });

    it('POST /customers {"store_id":99999}', async () => {
      const res = await api().post('/api/v1/customers').set(bearer(admin)).send({ name: 'Nowhere', store_id: 99999 });
      expectErrorEnvelope(res, 422);
      expect(res.body.errors.store_id).toEqual(['The selected store does not exist.']);
      const own = await api().post('/api/v1/customers').set(bearer(cashier)).send({ name: 'Elsewhere', store_id: 2 });
      expectErrorEnvelope(own, 403);
    });

    it('POST /bundles {"store_ids":[99999]}', async () => {
      const res = await api()
        .post('/api/v1/bundles')
        .set(bearer(admin))
        .send({ name: 'Ghost', code: `G${Date.now()}`, price: 1, items: [{ item_id: 1, quantity: 1 }], store_ids: [1, 99999] });
      expectErrorEnvelope(res, 422);
      expect(Object.keys(res.body.errors)).toEqual(['store_ids.1']);
      const [{ n }] = await t.db.query("SELECT COUNT(*) AS n FROM bundles WHERE name = 'Ghost'");
      expect(Number(n)).toBe(0);
    });
  });

  describe('item 6: amounts and quantities behave the same on both databases', () => {
    it('POST /pricing-rules {"kind":"amount_off","amount_off":21474836.48} is stored whole (money column)', async () => {
      const res = await api().post('/api/v1/pricing-rules').set(bearer(admin)).send({ name: 'Huge', kind: 'amount_off', amount_off: 21474836.48 });
      expect(res.status).toBe(200);
      const shown = await api().get(`/api/v1/pricing-rules/${res.body.data.id}`).set(bearer(admin));
      expect(shown.body.data.amount_off ?? shown.body.data.value).toBe(21474836.48);
      const max = await api().post('/api/v1/pricing-rules').set(bearer(admin)).send({ name: 'Max', kind: 'fixed_price', fixed_price: 99999999.99 });
      expect(max.status).toBe(200);
    });

    it('receipts that would take a stock level past 1,000,000,000 units are 409, the ledger untouched', async () => {
      const receive = () =>
        api()
          .post('/api/v1/inventory/adjustments')
          .set(bearer(admin))
          .send({ type: 'receive', warehouse_id: 1, items: [{ item_id: 2, quantity: 1_000_000 }] });
      // Start just below the ceiling (a count sets the level in one movement).
      await t.db.query('UPDATE stock_levels SET quantity = 999500000 WHERE item_id = 2 AND warehouse_id = 1');
      expect((await receive()).status).toBe(409);
      const [{ quantity }] = await t.db.query('SELECT quantity FROM stock_levels WHERE item_id = 2 AND warehouse_id = 1');
      expect(Number(quantity)).toBe(999500000);
      const small = await api()
        .post('/api/v1/inventory/adjustments')
        .set(bearer(admin))
        .send({ type: 'receive', warehouse_id: 1, items: [{ item_id: 2, quantity: 500_000 }] });
      expect(small.status).toBe(201);
      expect(small.body.data.movements[0].balance_after).toBe(1_000_000_000);
      // A transfer into the full warehouse is refused as a whole (the transfer_out is rolled back).
      const before = await t.db.query('SELECT warehouse_id, quantity FROM stock_levels WHERE item_id = 2 ORDER BY warehouse_id');
      const transfer = await api()
        .post('/api/v1/inventory/adjustments')
        .set(bearer(admin))
        .send({ type: 'transfer', warehouse_id: 2, to_warehouse_id: 1, items: [{ item_id: 2, quantity: 1 }] });
      expectErrorEnvelope(transfer, 409);
      expect(await t.db.query('SELECT warehouse_id, quantity FROM stock_levels WHERE item_id = 2 ORDER BY warehouse_id')).toEqual(before);
      await t.db.query('UPDATE stock_levels SET quantity = 100 WHERE item_id = 2');
    });
  });

  describe('item 7: huge arrays and wide objects answer in milliseconds with a short 422', () => {
    it('POST /pos/checkout with 100,000 empty items: one error, the server stays responsive', async () => {
      const body = checkout({ items: Array.from({ length: 100_000 }, () => ({})) });
      const started = Date.now();
      const pending = api().post('/api/v1/pos/checkout').set(bearer(cashier)).send(body);
      const health = await api().get('/api/v1/health');
      expect(health.status).toBe(200);
      const res = await pending;
      expectErrorEnvelope(res, 422);
      expect(res.body.errors).toEqual({ items: ['The items field must not have more than 500 items.'] });
      expect(JSON.stringify(res.body).length).toBeLessThan(500);
      // Not a timing assertion on the handler: a sanity bound far above what it takes (ms).
      expect(Date.now() - started).toBeLessThan(20_000);
    });

    it('POST /prices/bulk with 10,001 changes and POST /inventory/adjustments with 501 lines', async () => {
      const bulk = await api()
        .post('/api/v1/prices/bulk')
        .set(bearer(admin))
        .send({ changes: Array.from({ length: 10_001 }, () => ({ item_id: 1, price: 1 })) });
      expect(bulk.body.errors).toEqual({ changes: ['The changes field must not have more than 10000 items.'] });
      const adj = await api()
        .post('/api/v1/inventory/adjustments')
        .set(bearer(admin))
        .send({ type: 'receive', warehouse_id: 1, items: Array.from({ length: 501 }, () => ({ item_id: 1, quantity: 1 })) });
      expect(adj.body.errors).toEqual({ items: ['The items field must not have more than 500 items.'] });
    });

    it('reports at most 100 fields in a 422', async () => {
      const res = await api()
        .post('/api/v1/pos/checkout')
        .set(bearer(cashier))
        .send(checkout({ items: Array.from({ length: 500 }, () => ({ id: 'x', qty: 'y' })) }));
      expectErrorEnvelope(res, 422);
      expect(Object.keys(res.body.errors)).toHaveLength(100);
    });

    it('POST /auth/login with a 60,000-key object is 400 (more than 1,000 keys)', async () => {
      const wide: Record<string, number> = { email: 0 };
      for (let i = 0; i < 60_000; i++) wide[`k${i}`] = i;
      const res = await api().post('/api/v1/auth/login').send(wide);
      expectErrorEnvelope(res, 400);
      expect(res.body.message).toMatch(/more than 1000 keys/);
    });
  });
});
