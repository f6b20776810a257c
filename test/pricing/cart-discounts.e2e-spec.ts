import { bearer, expectErrorEnvelope, integrationToken, startTestApp, TestApp } from '../support/test-app';
import { DemoIds, LONG } from '../catalog/catalog-helpers';
import { appToken } from './pricing-helpers';
import { CartFixtures, cartFixtures, cartKit } from './cart-helpers';

/**
 * Cart pricing through the engine (contract 4.2 item prices, 4.3 tax, 4.8 pricing; decisions.md
 * "Sales"): base -> best price book -> rules -> manual line discount -> cart discount -> tax, each
 * line with its price_source. Every figure below is worked out by hand from the demo prices.
 * This part: manual prices, line and cart discounts, tax exemption, and validation and access.
 */
describe('Pricing: carts, single items and tax', () => {
  let t: TestApp;
  let f: CartFixtures;
  let admin: string;
  let manager: string;
  let cashier: string;
  let ids: DemoIds;
  let jane: number;
  let walkIn: number;
  let caseUnit: number;

  const { api, item, cart, lines, expectLine, expectConsistent } = cartKit(
    () => t,
    () => f,
  );

  beforeAll(async () => {
    t = await startTestApp();
    f = await cartFixtures(t);
    ({ admin, manager, cashier, ids, jane, walkIn, caseUnit } = f);
  });
  afterAll(() => t.close());
  describe('POST /pricing/cart: manual prices and discounts', () => {
    it('takes a manual line discount (percent or amount) after rules; the line becomes manual', async () => {
      const res = await cart({
        items: [
          { id: item('SNK-001'), qty: 2, discount_type: 'percent', discount_value: 10 },
          { id: item('SNK-001'), qty: 2, discount_type: 'percentage', discount_value: 10 },
          { id: item('SNK-001'), qty: 2, discount_type: 'amount', discount_value: 1 },
          { id: item('SNK-001'), qty: 2, discount_type: 'fixed', discount_value: 10 },
          { id: item('SNK-001'), qty: 2, discount_value: 0 },
        ],
      });
      expect(res.status).toBe(200);
      const [pct, pct2, amt, over, none] = lines(res);
      for (const l of [pct, pct2]) {
        expectLine(l, { sku: 'SNK-001', qty: 2, unit: 2.49, source: 'manual', gross: 4.98, tax: 0.37, total: 4.85, discount: 0.5, net: 4.48 });
        expect(l.discounts.manual).toBe(0.5);
        expect(l.steps.find((s) => s.step === 'manual_discount')?.amount).toBe(0.5);
      }
      expectLine(amt, { sku: 'SNK-001', qty: 2, unit: 2.49, source: 'manual', gross: 4.98, tax: 0.33, total: 4.31, discount: 1, net: 3.98 });
      expectLine(over, { sku: 'SNK-001', qty: 2, unit: 2.49, source: 'manual', gross: 4.98, tax: 0, total: 0, discount: 4.98, net: 0 });
      expectLine(none, { sku: 'SNK-001', qty: 2, unit: 2.49, source: 'base', gross: 4.98, tax: 0.41, total: 5.39, discount: 0 });
      expect(res.body.data).toMatchObject({ subtotal: 24.9, discount_total: 6.98, tax_total: 1.48, total: 19.4 });
      expectConsistent(res);
    });

    it('splits a cart discount over the lines in proportion to their net, so the lines sum to the total', async () => {
      const three = [
        { id: item('SNK-001'), qty: 1 },
        { id: item('BEV-003'), qty: 1 },
        { id: item('SNK-003'), qty: 1 },
      ];
      const amount = await cart({ items: three, cart_discount_type: 'amount', cart_discount_value: 1 });
      expect(amount.status).toBe(200);
      expect(lines(amount).map((l) => [l.sku, l.discounts.cart, l.tax, l.total])).toEqual([
        ['SNK-001', 0.26, 0.18, 2.41],
        ['BEV-003', 0.18, 0.13, 1.74],
        ['SNK-003', 0.56, 0.41, 5.34],
      ]);
      expect(lines(amount).every((l) => l.price_source === 'base')).toBe(true);
      expect(amount.body.data).toMatchObject({ subtotal: 9.77, discount_total: 1, tax_total: 0.72, total: 9.49 });
      expectConsistent(amount);

      // The split does not depend on line order.
      const reversed = await cart({ items: [...three].reverse(), cart_discount_type: 'fixed', cart_discount_value: 1 });
      expect(lines(reversed).map((l) => [l.sku, l.discounts.cart])).toEqual([
        ['SNK-003', 0.56],
        ['BEV-003', 0.18],
        ['SNK-001', 0.26],
      ]);
      expect(reversed.body.data.total).toBe(9.49);

      const percent = await cart({ items: three, cart_discount_type: 'percent', cart_discount_value: 10 });
      expect(lines(percent).map((l) => [l.discounts.cart, l.total])).toEqual([
        [0.25, 2.42],
        [0.18, 1.74],
        [0.55, 5.35],
      ]);
      expect(percent.body.data).toMatchObject({ discount_total: 0.98, tax_total: 0.72, total: 9.51 });
      expectConsistent(percent);

      // After a manual line discount: nets 2.24 / 1.79 / 5.49 share the 1.00.
      const both = await cart({
        items: [{ ...three[0], discount_type: 'percent', discount_value: 10 }, three[1], three[2]],
        cart_discount_type: 'amount',
        cart_discount_value: 1,
      });
      expect(lines(both).map((l) => [l.price_source, l.discounts.manual, l.discounts.cart, l.net, l.tax, l.total])).toEqual([
        ['manual', 0.25, 0.23, 2.01, 0.17, 2.18],
        ['base', 0, 0.19, 1.6, 0.13, 1.73],
        ['base', 0, 0.58, 4.91, 0.41, 5.32],
      ]);
      expect(both.body.data).toMatchObject({ discount_total: 1.25, total: 9.23 });
      expectConsistent(both);

      const all = await cart({ items: three, cart_discount_type: 'amount', cart_discount_value: 50 });
      expect(all.body.data).toMatchObject({ subtotal: 9.77, discount_total: 9.77, tax_total: 0, total: 0 });
      expect(lines(all).map((l) => l.total)).toEqual([0, 0, 0]);
    });

    it("makes a client price different from the server's a manual price", async () => {
      const res = await cart({
        customer_id: jane,
        items: [
          { id: item('SNK-001'), qty: 2, price: 2 },
          { id: item('SNK-001'), qty: 1, price: 2.49 },
          { id: item('COF-001'), qty: 1, price: 7.99 },
          { id: item('COF-001'), qty: 1, price: 8.99 },
          { id: item('SNK-004'), qty: 1, price: 0 },
        ],
      });
      expect(res.status).toBe(200);
      const [cheaper, same, book, dearer, free] = lines(res);
      expectLine(cheaper, { sku: 'SNK-001', qty: 2, unit: 2, source: 'manual', gross: 4, tax: 0.33, total: 4.33 });
      expect(cheaper).toMatchObject({ server_unit_price: 2.49, base_price: 2.49 });
      expect(cheaper.steps.find((s) => s.step === 'manual_price')).toEqual({ step: 'manual_price', id: null, name: null, unit_price: 2, amount: null });
      expectLine(same, { sku: 'SNK-001', qty: 1, unit: 2.49, source: 'base', gross: 2.49, tax: 0.21, total: 2.7 });
      expect(book).toMatchObject({ unit_price: 7.99, price_source: 'price_book' });
      expect(dearer).toMatchObject({ unit_price: 8.99, price_source: 'manual', server_unit_price: 7.99 });
      expectLine(free, { sku: 'SNK-004', qty: 1, unit: 0, source: 'manual', gross: 0, tax: 0, total: 0 });
      expectConsistent(res);
    });

    it('zeroes tax for an exempt cart, which needs a customer_id or a tax_exempt_reason', async () => {
      const items = [
        { id: item('SNK-001'), qty: 2 },
        { id: item('COF-003'), qty: 1 },
      ];
      const missing = await cart({ tax_exempt: true, items });
      expectErrorEnvelope(missing, 422, 'The given data was invalid.');
      expect(Object.keys(missing.body.errors)).toEqual(['tax_exempt_reason']);
      expectErrorEnvelope(await cart({ tax_exempt: true, tax_exempt_reason: '   ', items }), 422);

      for (const extra of [{ tax_exempt_reason: 'Diplomatic mission' }, { customer_id: walkIn }, { tax_exempt: 'true' }]) {
        const res = await cart({ tax_exempt: true, tax_exempt_reason: 'Diplomatic mission', ...extra, items });
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ tax_exempt: true, subtotal: 9.57, tax_total: 0, total: 9.57 });
        expect(lines(res).map((l) => [l.tax, l.total])).toEqual([
          [0, 4.98],
          [0, 4.59],
        ]);
      }
      const normal = await cart({ tax_exempt: false, items });
      expect(normal.body.data).toMatchObject({ tax_exempt: false, tax_total: 0.5, total: 10.07 });
    });

    it('in a tax-inclusive store, an exempt cart pays the price without its included tax', async () => {
      // 2.49 holds 0.17 of tax at 7.5% and 8.99 holds 0.18 at 2%: exempt, the customer pays 2.32 + 8.81.
      const res = await cart(
        {
          store_id: ids.store.AP,
          tax_exempt: true,
          tax_exempt_reason: 'Export',
          items: [
            { id: item('SNK-001'), qty: 1 },
            { id: item('COF-001'), qty: 1 },
          ],
        },
        manager,
      );
      expect(res.status).toBe(200);
      expect(lines(res).map((l) => [l.tax, l.total])).toEqual([
        [0, 2.32],
        [0, 8.81],
      ]);
      expect(res.body.data).toMatchObject({ tax_exempt: true, tax_total: 0, total: 11.13 });
    });
  });

  describe('POST /pricing/cart: validation and access', () => {
    it('answers bad bodies with 422 naming the field', async () => {
      const cases: [Record<string, unknown>, string[]][] = [
        [{}, ['items']],
        [{ items: [] }, ['items']],
        [{ items: 'abc' }, ['items']],
        [{ items: Array.from({ length: 501 }, () => ({ id: item('SNK-001'), qty: 1 })) }, ['items']],
        [{ items: [{}] }, ['items.0.id', 'items.0.qty']],
        [{ items: [{ id: item('SNK-001'), qty: 0 }] }, ['items.0.qty']],
        [{ items: [{ id: item('SNK-001'), qty: 1.5 }] }, ['items.0.qty']],
        [{ items: [{ id: item('SNK-001'), qty: -2 }] }, ['items.0.qty']],
        [{ items: [{ id: item('SNK-001'), qty: 100_001 }] }, ['items.0.qty']],
        [{ items: [{ id: item('SNK-001'), qty: 'two' }] }, ['items.0.qty']],
        [{ items: [{ id: 'abc', qty: 1 }] }, ['items.0.id']],
        [
          {
            items: [
              { id: item('SNK-001'), qty: 1 },
              { id: 999999, qty: 1 },
            ],
          },
          ['items.1.id'],
        ],
        [{ items: [{ id: item('SNK-006'), qty: 1 }] }, ['items.0.id']],
        [{ items: [{ id: item('SNK-001'), qty: 1, unit_id: caseUnit }] }, ['items.0.unit_id']],
        [{ items: [{ id: item('SNK-001'), qty: 1, price: -1 }] }, ['items.0.price']],
        [{ items: [{ id: item('SNK-001'), qty: 1, price: 1.234 }] }, ['items.0.price']],
        [{ items: [{ id: item('SNK-001'), qty: 1, discount_type: 'bogus', discount_value: 1 }] }, ['items.0.discount_type']],
        [{ items: [{ id: item('SNK-001'), qty: 1, discount_value: 5 }] }, ['items.0.discount_type']],
        [{ items: [{ id: item('SNK-001'), qty: 1, discount_type: 'percent' }] }, ['items.0.discount_value']],
        [{ items: [{ id: item('SNK-001'), qty: 1, discount_type: 'percent', discount_value: 150 }] }, ['items.0.discount_value']],
        [{ items: [{ id: item('SNK-001'), qty: 1 }], cart_discount_value: 5 }, ['cart_discount_type']],
        [{ items: [{ id: item('SNK-001'), qty: 1 }], cart_discount_type: 'percent', cart_discount_value: 101 }, ['cart_discount_value']],
        [{ items: [{ id: item('SNK-001'), qty: 1 }], cart_discount_type: 'amount', cart_discount_value: -1 }, ['cart_discount_value']],
        [{ items: [{ id: item('SNK-001'), qty: 1 }], customer_id: 999999 }, ['customer_id']],
        [{ items: [{ id: item('SNK-001'), qty: 1 }], customer_id: 'jane' }, ['customer_id']],
        [{ items: [{ id: item('SNK-001'), qty: 1 }], store_id: 'x' }, ['store_id']],
        [{ items: [{ id: item('SNK-001'), qty: 1 }], tax_exempt: 'yes', tax_exempt_reason: 'x' }, ['tax_exempt']],
        [{ items: [{ id: item('SNK-001'), qty: 1 }], tax_exempt: true, tax_exempt_reason: LONG }, ['tax_exempt_reason']],
      ];
      for (const [body, fields] of cases) {
        const res = await cart(body);
        expectErrorEnvelope(res, 422, 'The given data was invalid.');
        expect([JSON.stringify(body).slice(0, 120), Object.keys(res.body.errors).sort()]).toEqual([JSON.stringify(body).slice(0, 120), [...fields].sort()]);
      }
      const noStore = await cart({ store_id: 999999, items: [{ id: item('SNK-001'), qty: 1 }] }, admin);
      expectErrorEnvelope(noStore, 422);
      expect(Object.keys(noStore.body.errors)).toEqual(['store_id']);
    });

    it('answers 401 without a token, 403 for another store and without pos.access', async () => {
      const body = { items: [{ id: item('SNK-001'), qty: 1 }] };
      expectErrorEnvelope(await api().post('/api/v1/pricing/cart').send(body), 401, 'Unauthorized.');
      expectErrorEnvelope(await cart({ ...body, store_id: ids.store.AP }), 403);
      const itemsOnly = await appToken(t, ['items.view']);
      for (const path of ['/pricing/cart', '/pricing/calculate-result', '/pricing/calculate', '/pricing/validate', '/pos/tax/calculate']) {
        expectErrorEnvelope(
          await api()
            .post(`/api/v1${path}`)
            .set(bearer(itemsOnly))
            .send({ ...body, item_id: item('SNK-001'), total_amount: 2.7 }),
          403,
        );
      }
      expectErrorEnvelope(await api().get('/api/v1/pos/tax/info').set(bearer(itemsOnly)), 403);
      const { token: integration } = await integrationToken(t, ['pos.access', 'items.view']);
      expectErrorEnvelope(await api().post('/api/v1/pricing/cart').set(bearer(integration)).send(body), 403);
      // The admin may price any store.
      expect((await cart({ ...body, store_id: ids.store.AP }, admin)).status).toBe(200);
    });

    it('never answers hostile input with a server error', async () => {
      const line = { id: item('SNK-001'), qty: 1 };
      const bodies: unknown[] = [
        { items: [{ id: "1' OR '1'='1", qty: 1 }] },
        { items: [{ id: '1;DROP TABLE items', qty: 1 }] },
        { items: [{ id: LONG, qty: 1 }] },
        { items: [{ id: 1e20, qty: 1 }] },
        { items: [{ id: item('SNK-001'), qty: 1e20 }] },
        { items: [{ id: item('SNK-001'), qty: Number.MAX_SAFE_INTEGER }] },
        { items: [{ id: item('SNK-001'), qty: 100_000, price: 99_999_999.99 }] },
        { items: Array.from({ length: 20 }, () => ({ id: item('SNK-001'), qty: 100_000, price: 99_999_999.99 })) },
        { items: Array.from({ length: 500 }, () => ({ id: item('ELC-002'), qty: 100_000 })), cart_discount_type: 'amount', cart_discount_value: 99_999_999.99 },
        { items: [{ ...line, price: 1e308 }] },
        { items: [{ ...line, price: '1e3' }] },
        { items: [{ ...line, discount_type: 'amount', discount_value: 99_999_999.99 }] },
        { items: [{ ...line, discount_type: LONG, discount_value: 1 }] },
        { items: [{ ...line, unit_id: "1' OR 1=1 --" }] },
        { items: [{ ...line, unit_id: 2_147_483_648 }] },
        { items: [line], store_id: 2_147_483_648 },
        { items: [line], customer_id: 2_147_483_647 },
        { items: [line], customer_id: { $ne: null } },
        { items: [line], cart_discount_type: 'percent', cart_discount_value: 1e100 },
        { items: { 0: line } },
        { items: [null] },
        { items: [[1, 2]] },
        { items: [line], tax_exempt: true, tax_exempt_reason: ['x'] },
        [line],
        'items',
      ];
      const failures: string[] = [];
      for (const body of bodies) {
        const res = await api().post('/api/v1/pricing/cart').set(bearer(cashier)).set('Content-Type', 'application/json').send(JSON.stringify(body));
        if (![200, 400, 422].includes(res.status)) failures.push(`${res.status} for ${JSON.stringify(body).slice(0, 100)}`);
      }
      for (const raw of [
        '{"items": [',
        '{"items":[{"id":99999999999999999999,"qty":1}]}',
        '{"items":[{"id":1,"qty":1e400}]}',
        '{"items":[{"id":1,"qty":1,"price":0.1e-400}]}',
      ]) {
        const res = await api().post('/api/v1/pricing/cart').set(bearer(cashier)).set('Content-Type', 'application/json').send(raw);
        if (![200, 400, 422].includes(res.status)) failures.push(`${res.status} for ${raw}`);
      }
      expect(failures).toEqual([]);
    });
  });
});
