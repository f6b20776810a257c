import request from 'supertest';
import { bearer, expectErrorEnvelope, startTestApp, TestApp } from '../support/test-app';
import { DemoIds, expectNo5xx, LONG } from '../catalog/catalog-helpers';
import { cents, exclusiveTax } from './pricing-helpers';
import { CartFixtures, cartFixtures, cartKit } from './cart-helpers';

/**
 * Cart pricing through the engine (contract 4.2 item prices, 4.3 tax, 4.8 pricing; decisions.md
 * "Sales"): base -> best price book -> rules -> manual line discount -> cart discount -> tax, each
 * line with its price_source. Every figure below is worked out by hand from the demo prices.
 * This part: POST /pricing/calculate, /pricing/calculate-result, /pricing/validate and the POS tax endpoints.
 */
describe('Pricing: carts, single items and tax', () => {
  let t: TestApp;
  let f: CartFixtures;
  let admin: string;
  let manager: string;
  let cashier: string;
  let ids: DemoIds;
  let jane: number;
  let caseUnit: number;

  const { api, item } = cartKit(
    () => t,
    () => f,
  );

  beforeAll(async () => {
    t = await startTestApp();
    f = await cartFixtures(t);
    ({ admin, manager, cashier, ids, jane, caseUnit } = f);
  });
  afterAll(() => t.close());
  describe('POST /pricing/calculate and /pricing/calculate-result', () => {
    it('prices one item with quantity, unit, store and customer', async () => {
      const calc = (body: Record<string, unknown>, token = cashier) => api().post('/api/v1/pricing/calculate').set(bearer(token)).send(body);
      const member = await calc({ item_id: item('COF-001'), quantity: 2, customer_id: jane });
      expect(member.status).toBe(200);
      expect(member.body.data).toMatchObject({
        line: 0,
        item_id: item('COF-001'),
        sku: 'COF-001',
        quantity: 2,
        base_price: 8.99,
        unit_price: 7.99,
        price_source: 'price_book',
        gross: 15.98,
        tax_rate: 2,
        tax: 0.32,
        total: 16.3,
        currency: 'USD',
        prices_include_tax: false,
      });
      expect((await calc({ item_id: item('SNK-001') })).body.data).toMatchObject({
        quantity: 1,
        unit_price: 2.49,
        price_source: 'base',
        tax: 0.21,
        total: 2.7,
      });
      expect((await calc({ item_id: String(item('BEV-001')), unit_id: caseUnit })).body.data).toMatchObject({
        quantity: 1,
        unit_price: 13.99,
        base_quantity: 12,
        unit: { id: caseUnit, name: 'case', factor: 12 },
        total: 14.27,
      });
      expect((await calc({ item_id: item('BEV-001'), store_id: ids.store.AP }, manager)).body.data).toMatchObject({
        unit_price: 2.49,
        price_source: 'price_book',
        tax: 0.05,
        total: 2.49,
        prices_include_tax: true,
      });
      expectErrorEnvelope(await calc({ item_id: item('BEV-001'), store_id: ids.store.AP }), 403);
      for (const [body, field] of [
        [{}, 'item_id'],
        [{ item_id: 'abc' }, 'item_id'],
        [{ item_id: 0 }, 'item_id'],
        [{ item_id: item('SNK-001'), quantity: 0 }, 'quantity'],
        [{ item_id: item('SNK-001'), quantity: 100_001 }, 'quantity'],
        [{ item_id: item('SNK-001'), quantity: 1.5 }, 'quantity'],
        [{ item_id: item('SNK-001'), customer_id: 999999 }, 'customer_id'],
        [{ item_id: item('SNK-001'), unit_id: -1 }, 'unit_id'],
      ] as [Record<string, unknown>, string][]) {
        const res = await calc(body);
        expectErrorEnvelope(res, 422);
        expect([body, Object.keys(res.body.errors)]).toEqual([body, [field]]);
      }
      for (const body of [
        { item_id: LONG },
        { item_id: "1' OR '1'='1" },
        { item_id: 1e20, quantity: 1e20 },
        { item_id: item('SNK-001'), store_id: -1 },
        { item_id: [1] },
      ]) {
        expectNo5xx(await calc(body), [422]);
      }
    });

    it("names item_id and unit_id (the request's own fields) for an unknown item or a unit of another item", async () => {
      const calc = (body: Record<string, unknown>) => api().post('/api/v1/pricing/calculate').set(bearer(cashier)).send(body);
      const unknown = await calc({ item_id: 999999 });
      expectErrorEnvelope(unknown, 422);
      expect(Object.keys(unknown.body.errors)).toEqual(['item_id']);
      const unit = await calc({ item_id: item('SNK-001'), unit_id: caseUnit });
      expectErrorEnvelope(unit, 422);
      expect(Object.keys(unit.body.errors)).toEqual(['unit_id']);
    });

    it('returns only the figures of a cart', async () => {
      const res = await api()
        .post('/api/v1/pricing/calculate-result')
        .set(bearer(cashier))
        .send({
          items: [
            { id: item('SNK-001'), qty: 2, discount_type: 'percent', discount_value: 10 },
            { id: item('BEV-003'), qty: 1 },
          ],
        });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        subtotal: 6.77,
        discount_total: 0.5,
        tax_total: 0.52,
        total: 6.79,
        items: [
          { line: 0, item_id: item('SNK-001'), quantity: 2, unit_price: 2.49, price_source: 'manual', discount: 0.5, tax: 0.37, total: 4.85 },
          { line: 1, item_id: item('BEV-003'), quantity: 1, unit_price: 1.79, price_source: 'base', discount: 0, tax: 0.15, total: 1.94 },
        ],
      });
      const bad = await api()
        .post('/api/v1/pricing/calculate-result')
        .set(bearer(cashier))
        .send({ items: [{ id: item('SNK-001'), qty: 0 }] });
      expectErrorEnvelope(bad, 422);
      expect(Object.keys(bad.body.errors)).toEqual(['items.0.qty']);
      expectErrorEnvelope(
        await api()
          .post('/api/v1/pricing/calculate-result')
          .set(bearer(cashier))
          .send({ store_id: ids.store.AP, items: [{ id: item('SNK-001'), qty: 1 }] }),
        403,
      );
      expectNo5xx(
        await api()
          .post('/api/v1/pricing/calculate-result')
          .set(bearer(cashier))
          .send({ items: [{ id: LONG, qty: LONG }] }),
        [422],
      );
    });
  });

  describe('POST /pricing/validate', () => {
    const validate = (body: Record<string, unknown>, token = cashier) => api().post('/api/v1/pricing/validate').set(bearer(token)).send(body);

    it('confirms a cart the client priced like the server', async () => {
      const res = await validate({
        items: [
          { id: item('SNK-001'), qty: 2, price: 2.49, total: 5.39 },
          { id: item('BEV-003'), qty: 1 },
        ],
        subtotal: 6.77,
        tax_total: 0.56,
        total_amount: 7.33,
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ valid: true, discrepancies: [] });
      expect(res.body.data.server).toMatchObject({ subtotal: 6.77, tax_total: 0.56, total: 7.33 });
    });

    it("lists every discrepancy with the client's and the server's figure", async () => {
      const res = await validate({
        items: [
          { id: item('SNK-001'), qty: 2, price: 2, total: 4.33 },
          { id: item('BEV-003'), qty: 1, total: 1.94 },
        ],
        subtotal: 5.79,
        tax_total: 0.48,
        total_amount: 6.27,
      });
      expect(res.status).toBe(200);
      expect(res.body.data.valid).toBe(false);
      expect(res.body.data.discrepancies).toEqual([
        { line: 0, field: 'price', client: 2, server: 2.49 },
        { line: 0, field: 'total', client: 4.33, server: 5.39 },
        { line: null, field: 'subtotal', client: 5.79, server: 6.77 },
        { line: null, field: 'tax_total', client: 0.48, server: 0.56 },
        { line: null, field: 'total_amount', client: 6.27, server: 7.33 },
      ]);
      // The server's view ignores the client's prices.
      expect(res.body.data.server.items[0]).toMatchObject({ unit_price: 2.49, price_source: 'base' });
      const member = await validate({ customer_id: jane, items: [{ id: item('COF-001'), qty: 1, price: 7.99 }], total_amount: 8.15 });
      expect(member.body.data).toMatchObject({ valid: true, discrepancies: [] });
    });

    it('answers 422 naming the field, 403 for another store', async () => {
      for (const [body, field] of [
        [{ items: [{ id: item('SNK-001'), qty: 1 }] }, 'total_amount'],
        [{ items: [{ id: item('SNK-001'), qty: 1 }], total_amount: -1 }, 'total_amount'],
        [{ items: [{ id: item('SNK-001'), qty: 1 }], total_amount: 'abc' }, 'total_amount'],
        [{ items: [{ id: item('SNK-001'), qty: 1, total: -1 }], total_amount: 1 }, 'items.0.total'],
        [{ items: [{ id: item('SNK-001'), qty: 0 }], total_amount: 1 }, 'items.0.qty'],
        [{ items: [], total_amount: 1 }, 'items'],
        [{ items: [{ id: item('SNK-001'), qty: 1 }], subtotal: 1.001, total_amount: 1 }, 'subtotal'],
      ] as [Record<string, unknown>, string][]) {
        const res = await validate(body);
        expectErrorEnvelope(res, 422);
        expect([body, Object.keys(res.body.errors)]).toEqual([body, [field]]);
      }
      expectErrorEnvelope(await validate({ store_id: ids.store.AP, items: [{ id: item('SNK-001'), qty: 1 }], total_amount: 2.49 }), 403);
      expectNo5xx(await validate({ items: [{ id: item('SNK-001'), qty: 1, total: 1e300 }], total_amount: 1e300 }), [422]);
    });
  });

  describe('POST /pos/tax/calculate and GET /pos/tax/info', () => {
    const taxCalc = (body: Record<string, unknown>, token = cashier) => api().post('/api/v1/pos/tax/calculate').set(bearer(token)).send(body);

    it('gives tax per line and per rate (tax-exclusive)', async () => {
      const res = await taxCalc({
        items: [
          { id: item('SNK-001'), qty: 2 },
          { id: item('BEV-003'), qty: 1 },
          { id: item('COF-003'), qty: 1 },
          { id: item('GRO-007'), qty: 1 },
        ],
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        store_id: ids.store.DT,
        prices_include_tax: false,
        tax_exempt: false,
        items: [
          { line: 0, item_id: item('SNK-001'), net: 4.98, tax_rate: 8.25, tax: 0.41, tax_exempted: 0, total: 5.39 },
          { line: 1, item_id: item('BEV-003'), net: 1.79, tax_rate: 8.25, tax: 0.15, tax_exempted: 0, total: 1.94 },
          { line: 2, item_id: item('COF-003'), net: 4.59, tax_rate: 2, tax: 0.09, tax_exempted: 0, total: 4.68 },
          { line: 3, item_id: item('GRO-007'), net: 1.49, tax_rate: 0, tax: 0, tax_exempted: 0, total: 1.49 },
        ],
        tax_lines: [
          { rate: 0, exempt: false, taxable: 1.49, tax: 0 },
          { rate: 2, exempt: false, taxable: 4.59, tax: 0.09 },
          { rate: 8.25, exempt: false, taxable: 6.77, tax: 0.56 },
        ],
        subtotal: 12.85,
        tax_total: 0.65,
        total: 13.5,
      });
      for (const l of res.body.data.items) expect(cents(l.tax)).toBe(exclusiveTax(cents(l.net), Math.round(l.tax_rate * 100)));
    });

    it('extracts the tax of a tax-inclusive store and zeroes it for an exempt cart', async () => {
      const items = [
        { id: item('SNK-001'), qty: 1 },
        { id: item('BEV-003'), qty: 1 },
        { id: item('COF-001'), qty: 1 },
      ];
      const res = await taxCalc({ store_id: ids.store.AP, items }, manager);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        store_id: ids.store.AP,
        prices_include_tax: true,
        tax_lines: [
          { rate: 2, taxable: 8.81, tax: 0.18 },
          { rate: 7.5, taxable: 5.1, tax: 0.38 },
        ],
        subtotal: 13.91,
        tax_total: 0.56,
        total: 14.47,
      });
      expect(res.body.data.items.map((l: { net: number; tax: number; total: number }) => [l.net, l.tax, l.total])).toEqual([
        [2.32, 0.17, 2.49],
        [2.78, 0.21, 2.99],
        [8.81, 0.18, 8.99],
      ]);
      const exempt = await taxCalc({
        tax_exempt: true,
        customer_id: jane,
        items: [
          { id: item('SNK-001'), qty: 2 },
          { id: item('COF-003'), qty: 1 },
        ],
      });
      expect(exempt.body.data).toMatchObject({
        tax_exempt: true,
        // an exempt cart's lines are one row of their own, not the rates they would have paid
        tax_lines: [{ rate: 0, exempt: true, taxable: 9.57, tax: 0 }],
        tax_total: 0,
        subtotal: 9.57,
        total: 9.57,
      });
      const missing = await taxCalc({ tax_exempt: true, items });
      expectErrorEnvelope(missing, 422);
      expect(Object.keys(missing.body.errors)).toEqual(['tax_exempt_reason']);
      const bad = await taxCalc({ items: [{ id: item('SNK-001'), qty: 'x' }] });
      expect(Object.keys(bad.body.errors)).toEqual(['items.0.qty']);
      expectErrorEnvelope(await taxCalc({ store_id: ids.store.AP, items }), 403);
      expectNo5xx(await taxCalc({ store_id: LONG, items: [{ id: "'; DROP TABLE tax_rates; --", qty: 1 }] }), [422]);
    });

    it("describes a store's tax mode, classes and rates", async () => {
      const dt = await api().get('/api/v1/pos/tax/info').set(bearer(cashier));
      expect(dt.status).toBe(200);
      expect(dt.body.data).toMatchObject({ store_id: ids.store.DT, currency: 'USD', prices_include_tax: false });
      expect(typeof dt.body.data.rounding).toBe('string');
      const byCode = (res: request.Response) =>
        Object.fromEntries(
          res.body.data.tax_classes.map((c: { code: string; rate: number; rates: { rate: number; store_id: number | null }[] }) => [
            c.code,
            [c.rate, c.rates.map((r) => [r.rate, r.store_id])],
          ]),
        );
      expect(byCode(dt)).toEqual({ standard: [8.25, [[8.25, ids.store.DT]]], reduced: [2, [[2, null]]], zero: [0, [[0, null]]] });
      const ap = await api().get(`/api/v1/pos/tax/info?store_id=${ids.store.AP}`).set(bearer(manager));
      expect(ap.body.data).toMatchObject({ store_id: ids.store.AP, prices_include_tax: true });
      expect(byCode(ap)).toEqual({ standard: [7.5, [[7.5, ids.store.AP]]], reduced: [2, [[2, null]]], zero: [0, [[0, null]]] });
      expectErrorEnvelope(await api().get(`/api/v1/pos/tax/info?store_id=${ids.store.AP}`).set(bearer(cashier)), 403);
      const unknown = await api().get('/api/v1/pos/tax/info?store_id=999999').set(bearer(admin));
      expectErrorEnvelope(unknown, 422);
      expect(Object.keys(unknown.body.errors)).toEqual(['store_id']);
      for (const v of ['abc', '0', '-1', '1.5', "1' OR '1'='1", LONG, '99999999999999999999']) {
        const res = await api()
          .get(`/api/v1/pos/tax/info?store_id=${encodeURIComponent(v)}`)
          .set(bearer(admin));
        expectErrorEnvelope(res, 422);
        expect(Object.keys(res.body.errors)).toEqual(['store_id']);
      }
      expectErrorEnvelope(await api().get('/api/v1/pos/tax/info'), 401);
    });
  });
});
