import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, integrationToken, login, startTestApp, TestApp } from '../support/test-app';
import { DemoIds, demoIds, expectNo5xx, HOSTILE_IDS, LONG } from '../catalog/catalog-helpers';
import { appToken, cents, exclusiveTax, hhmm, inclusiveTax, newYorkNow, PricedLine, ruleKit, sumMoney } from './pricing-helpers';
import { ActivePricingCache } from '../../libs/pricing/src/application/active-pricing.cache';

/**
 * Cart pricing through the engine (contract 4.2 item prices, 4.3 tax, 4.8 pricing; decisions.md
 * "Sales"): base -> best price book -> rules -> manual line discount -> cart discount -> tax, each
 * line with its price_source. Every figure below is worked out by hand from the demo prices.
 */
describe('Pricing: carts, single items and tax', () => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let cashier: string;
  let ids: DemoIds;
  let jane: number;
  let walkIn: number;
  let caseUnit: number;
  let membersBook: number;
  let airportBook: number;
  let membersGroup: number;

  const api = () => request(t.http);
  const item = (sku: string) => ids.item[sku];
  const cart = (body: Record<string, unknown>, token = cashier) => api().post('/api/v1/pricing/cart').set(bearer(token)).send(body);
  const lines = (res: request.Response) => res.body.data.items as PricedLine[];
  const rules = ruleKit(
    () => t,
    () => manager,
  );
  const priceOf = (sku: string, query = '', token = cashier) =>
    api()
      .get(`/api/v1/items/${item(sku)}/price${query}`)
      .set(bearer(token));

  /** Asserts every money figure of a priced cart line. */
  const expectLine = (
    l: PricedLine,
    e: { sku: string; qty: number; unit: number; source: string; gross: number; tax: number; total: number; rate?: number; discount?: number; net?: number },
  ) => {
    expect({ sku: l.sku, qty: l.quantity, unit: l.unit_price, source: l.price_source, gross: l.gross, tax: l.tax, total: l.total }).toEqual({
      sku: e.sku,
      qty: e.qty,
      unit: e.unit,
      source: e.source,
      gross: e.gross,
      tax: e.tax,
      total: e.total,
    });
    if (e.rate !== undefined) expect(l.tax_rate).toBe(e.rate);
    if (e.discount !== undefined) expect(l.discounts.total).toBe(e.discount);
    if (e.net !== undefined) expect(l.net).toBe(e.net);
  };

  /** The cart's totals add up from its lines. */
  const expectConsistent = (res: request.Response) => {
    const d = res.body.data;
    const ls = lines(res);
    expect(d.subtotal).toBe(sumMoney(ls.map((l) => l.gross)));
    expect(d.tax_total).toBe(sumMoney(ls.map((l) => l.tax)));
    expect(d.total).toBe(sumMoney(ls.map((l) => l.total)));
    expect(d.discount_total).toBe(sumMoney(ls.map((l) => l.discounts.total)));
  };

  beforeAll(async () => {
    t = await startTestApp();
    [admin, manager, cashier] = await Promise.all([login(t, DEMO.admin), login(t, DEMO.manager), login(t, DEMO.cashier)]);
    ids = await demoIds(t);
    jane = Number((await t.db.query("SELECT id FROM customers WHERE email = 'jane.doe@example.com'"))[0].id);
    walkIn = Number((await t.db.query("SELECT id FROM customers WHERE name = 'Walk-in Customer'"))[0].id);
    caseUnit = Number((await t.db.query("SELECT id FROM item_units WHERE name = 'case' AND item_id = ?", [item('BEV-001')]))[0].id);
    membersBook = Number((await t.db.query("SELECT id FROM price_books WHERE code = 'MEMBERS'"))[0].id);
    airportBook = Number((await t.db.query("SELECT id FROM price_books WHERE code = 'AIRPORT'"))[0].id);
    membersGroup = Number((await t.db.query("SELECT id FROM customer_groups WHERE code = 'members'"))[0].id);
    // Iced Tea (2.29) in both books: members 2.79 (from 1) and 2.39 (from 6), airport 2.59.
    const stamp = '2026-01-01 00:00:00';
    for (const [book, price, minQty] of [
      [membersBook, 279, 1],
      [membersBook, 239, 6],
      [airportBook, 259, 1],
    ]) {
      await t.db.query('INSERT INTO price_book_entries (price_book_id, item_id, price, min_quantity, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [
        book,
        item('BEV-005'),
        price,
        minQty,
        stamp,
        stamp,
      ]);
    }
  });
  afterAll(() => t.close());

  describe('POST /pricing/cart: base prices, units and tax', () => {
    it("prices base lines in the token's store, tax-exclusive, tax per line by class", async () => {
      const res = await cart({
        items: [
          { id: item('SNK-001'), qty: 2 },
          { id: item('COF-003'), qty: 1 },
          { id: item('GRO-007'), qty: 1 },
          { id: String(item('BEV-003')), qty: 3 },
        ],
      });
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      const d = res.body.data;
      expect(d).toMatchObject({
        store_id: ids.store.DT,
        currency: 'USD',
        prices_include_tax: false,
        tax_exempt: false,
        customer_id: null,
        applied_rules: [],
        applied_bundles: [],
      });
      const [crisps, tea, salt, cola] = lines(res);
      expectLine(crisps, { sku: 'SNK-001', qty: 2, unit: 2.49, source: 'base', gross: 4.98, tax: 0.41, total: 5.39, rate: 8.25, discount: 0, net: 4.98 });
      expectLine(tea, { sku: 'COF-003', qty: 1, unit: 4.59, source: 'base', gross: 4.59, tax: 0.09, total: 4.68, rate: 2 });
      expectLine(salt, { sku: 'GRO-007', qty: 1, unit: 1.49, source: 'base', gross: 1.49, tax: 0, total: 1.49, rate: 0 });
      expectLine(cola, { sku: 'BEV-003', qty: 3, unit: 1.79, source: 'base', gross: 5.37, tax: 0.44, total: 5.81, rate: 8.25 });
      expect(crisps).toMatchObject({
        line: 0,
        item_id: item('SNK-001'),
        name: 'Salted Crisps 150g',
        unit: null,
        base_quantity: 2,
        base_price: 2.49,
        server_unit_price: 2.49,
      });
      expect(crisps.steps).toEqual([
        { step: 'base', id: null, name: null, unit_price: 2.49, amount: null },
        { step: 'tax', id: null, name: null, unit_price: null, amount: 0.41 },
      ]);
      expect(salt.steps.map((s) => s.step)).toEqual(['base']);
      expect(d).toMatchObject({ subtotal: 16.43, discount_total: 0, tax_total: 0.94, total: 17.37 });
      expectConsistent(res);
    });

    it('prices the case unit by its own price (quantity 1 of unit_id 1 is 13.99)', async () => {
      const res = await cart({
        items: [
          { id: item('BEV-001'), qty: 1, unit_id: caseUnit },
          { id: item('BEV-001'), qty: 2 },
          { id: item('BEV-001'), qty: 2, unit_id: String(caseUnit) },
        ],
      });
      expect(res.status).toBe(200);
      const [oneCase, singles, twoCases] = lines(res);
      expectLine(oneCase, { sku: 'BEV-001', qty: 1, unit: 13.99, source: 'base', gross: 13.99, tax: 0.28, total: 14.27, rate: 2 });
      expect(oneCase).toMatchObject({ unit: { id: caseUnit, name: 'case', factor: 12 }, base_quantity: 12, base_price: 13.99 });
      expectLine(singles, { sku: 'BEV-001', qty: 2, unit: 1.29, source: 'base', gross: 2.58, tax: 0.05, total: 2.63 });
      expect(singles).toMatchObject({ unit: null, base_quantity: 2 });
      expectLine(twoCases, { sku: 'BEV-001', qty: 2, unit: 13.99, source: 'base', gross: 27.98, tax: 0.56, total: 28.54 });
      expect(twoCases.base_quantity).toBe(24);
      expect(res.body.data.total).toBe(45.44);
      expectConsistent(res);
    });

    it('in the tax-inclusive airport store charges the gross and extracts tax = gross x r / (1 + r) per line', async () => {
      const res = await cart(
        {
          store_id: ids.store.AP,
          items: [
            { id: item('BEV-001'), qty: 3 },
            { id: item('SNK-001'), qty: 1 },
            { id: item('BEV-003'), qty: 2 },
            { id: item('COF-001'), qty: 1 },
          ],
        },
        manager,
      );
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ store_id: ids.store.AP, prices_include_tax: true });
      const [water, crisps, cola, beans] = lines(res);
      // the books before tax: gross and net without the tax the shelf price holds; net + tax = total
      expectLine(water, { sku: 'BEV-001', qty: 3, unit: 2.49, source: 'price_book', gross: 7.32, tax: 0.15, total: 7.47, rate: 2, net: 7.32 });
      expectLine(crisps, { sku: 'SNK-001', qty: 1, unit: 2.49, source: 'base', gross: 2.32, tax: 0.17, total: 2.49, rate: 7.5 });
      expectLine(cola, { sku: 'BEV-003', qty: 2, unit: 2.99, source: 'price_book', gross: 5.56, tax: 0.42, total: 5.98, rate: 7.5 });
      expectLine(beans, { sku: 'COF-001', qty: 1, unit: 8.99, source: 'base', gross: 8.81, tax: 0.18, total: 8.99, rate: 2 });
      for (const l of lines(res)) {
        expect(cents(l.total)).toBe(cents(l.unit_price) * l.quantity);
        expect(cents(l.tax)).toBe(inclusiveTax(cents(l.total), Math.round(l.tax_rate * 100)));
        expect(cents(l.gross) + cents(l.tax)).toBe(cents(l.total));
      }
      expect(water.steps).toEqual([
        { step: 'base', id: null, name: null, unit_price: 1.29, amount: null },
        { step: 'price_book', id: airportBook, name: 'Airport prices', unit_price: 2.49, amount: null },
        { step: 'tax', id: null, name: null, unit_price: null, amount: 0.15 },
      ]);
      expect(res.body.data).toMatchObject({ subtotal: 24.01, tax_total: 0.92, total: 24.93, discount_total: 0 });
      expectConsistent(res);
    });

    it('applies member prices for a customer of the members group only', async () => {
      const res = await cart({
        customer_id: jane,
        items: [
          { id: item('COF-001'), qty: 1 },
          { id: item('COF-002'), qty: 2 },
          { id: item('SNK-003'), qty: 1 },
          { id: item('SNK-001'), qty: 1 },
        ],
      });
      expect(res.status).toBe(200);
      expect(res.body.data.customer_id).toBe(jane);
      const [beans, ground, nuts, crisps] = lines(res);
      expectLine(beans, { sku: 'COF-001', qty: 1, unit: 7.99, source: 'price_book', gross: 7.99, tax: 0.16, total: 8.15 });
      expect(beans).toMatchObject({ base_price: 8.99, server_unit_price: 7.99 });
      expect(beans.steps[1]).toEqual({ step: 'price_book', id: membersBook, name: 'Member prices', unit_price: 7.99, amount: null });
      expectLine(ground, { sku: 'COF-002', qty: 2, unit: 10.99, source: 'price_book', gross: 21.98, tax: 0.44, total: 22.42 });
      expectLine(nuts, { sku: 'SNK-003', qty: 1, unit: 4.99, source: 'price_book', gross: 4.99, tax: 0.41, total: 5.4 });
      expectLine(crisps, { sku: 'SNK-001', qty: 1, unit: 2.49, source: 'base', gross: 2.49, tax: 0.21, total: 2.7 });
      expect(res.body.data).toMatchObject({ subtotal: 37.45, tax_total: 1.22, total: 38.67 });
      expectConsistent(res);

      for (const body of [{}, { customer_id: walkIn }]) {
        const plain = await cart({ ...body, items: [{ id: item('COF-001'), qty: 1 }] });
        expect(plain.status).toBe(200);
        expectLine(lines(plain)[0], { sku: 'COF-001', qty: 1, unit: 8.99, source: 'base', gross: 8.99, tax: 0.18, total: 9.17 });
      }
    });

    it('chooses among books by priority (even when dearer), then the largest min_quantity reached', async () => {
      const cases: [string, string, number, string][] = [
        ['', cashier, 2.29, 'base'],
        [`?customer_id=${jane}`, cashier, 2.79, 'price_book'],
        [`?customer_id=${jane}&quantity=6`, cashier, 2.39, 'price_book'],
        [`?store_id=${ids.store.AP}`, manager, 2.59, 'price_book'],
        [`?store_id=${ids.store.AP}&customer_id=${jane}`, manager, 2.79, 'price_book'],
        [`?store_id=${ids.store.AP}&customer_id=${jane}&quantity=6`, manager, 2.39, 'price_book'],
        [`?store_id=${ids.store.AP}&customer_id=${walkIn}&quantity=6`, manager, 2.59, 'price_book'],
      ];
      for (const [query, token, price, source] of cases) {
        const res = await priceOf('BEV-005', query, token);
        expect(res.status).toBe(200);
        expect([query, res.body.data.unit_price, res.body.data.price_source]).toEqual([query, price, source]);
      }
    });
  });

  describe('POST /pricing/cart: which price books apply', () => {
    const stamp = '2026-01-01 00:00:00';
    const addBook = async (
      code: string,
      o: { priority?: number; active?: number; from?: string; to?: string; deleted?: string; currency?: string; group?: number },
      sku: string,
      price: number,
    ) => {
      await t.db.query(
        'INSERT INTO price_books (name, code, currency_code, priority, is_active, valid_from, valid_to, created_at, updated_at, deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [`Book ${code}`, code, o.currency ?? 'USD', o.priority ?? 50, o.active ?? 1, o.from ?? null, o.to ?? null, stamp, stamp, o.deleted ?? null],
      );
      const book = Number((await t.db.query('SELECT id FROM price_books WHERE code = ?', [code]))[0].id);
      if (o.group !== undefined) await t.db.query('INSERT INTO price_book_customer_groups (price_book_id, customer_group_id) VALUES (?, ?)', [book, o.group]);
      await t.db.query('INSERT INTO price_book_entries (price_book_id, item_id, price, min_quantity, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [
        book,
        item(sku),
        price,
        1,
        stamp,
        stamp,
      ]);
      // written behind the service's back: its per-process price book cache is told, as an operator would wait 5 s
      t.app.get(ActivePricingCache).clear();
      return book;
    };

    it('ignores books that are inactive, outside their window or deleted; a group book serves only that group', async () => {
      await addBook('T-OLD', { to: '2020-12-31 23:59:59' }, 'BEV-004', 99);
      await addBook('T-NEXT', { from: '2099-01-01 00:00:00' }, 'BEV-004', 98);
      await addBook('T-OFF', { active: 0 }, 'BEV-004', 97);
      await addBook('T-GONE', { deleted: '2021-01-01 00:00:00' }, 'BEV-004', 96);
      const retailGroup = Number((await t.db.query("SELECT id FROM customer_groups WHERE code = 'retail'"))[0].id);
      const retail = await addBook('T-RETAIL', { priority: 1, group: retailGroup, from: '2020-01-01 00:00:00', to: '2099-12-31 00:00:00' }, 'BEV-004', 319);
      expect(lines(await cart({ items: [{ id: item('BEV-004'), qty: 1 }] }))[0]).toMatchObject({ unit_price: 3.49, price_source: 'base' });
      expect(lines(await cart({ customer_id: jane, items: [{ id: item('BEV-004'), qty: 1 }] }))[0]).toMatchObject({ unit_price: 3.49, price_source: 'base' });
      const walkInLine = lines(await cart({ customer_id: walkIn, items: [{ id: item('BEV-004'), qty: 1 }] }))[0];
      expect(walkInLine).toMatchObject({ unit_price: 3.19, price_source: 'price_book' });
      expect(walkInLine.steps[1]).toMatchObject({ step: 'price_book', id: retail });
    });

    it("ignores a book in another currency than the store's", async () => {
      await addBook('T-EURO', { currency: 'EUR' }, 'BEV-002', 95);
      expect(lines(await cart({ items: [{ id: item('BEV-002'), qty: 1 }] }))[0]).toMatchObject({ unit_price: 1.49, price_source: 'base' });
    });
  });

  describe('POST /pricing/cart: pricing rules', () => {
    it('takes 10% off a category: 2 x SNK-001 = 2 x 2.24 = 4.48, tax 0.37, total 4.85', async () => {
      await rules.withRules([{ name: 'Snacks 10%', kind: 'percent_off', percent_off: 10, category_ids: [ids.category.snacks] }], async ([rule]) => {
        const res = await cart({
          items: [
            { id: item('SNK-001'), qty: 2 },
            { id: item('SNK-003'), qty: 1 },
            { id: item('BEV-003'), qty: 1 },
          ],
        });
        expect(res.status).toBe(200);
        const [crisps, nuts, cola] = lines(res);
        expectLine(crisps, { sku: 'SNK-001', qty: 2, unit: 2.24, source: 'pricing_rule', gross: 4.48, tax: 0.37, total: 4.85 });
        expect(crisps.steps).toEqual([
          { step: 'base', id: null, name: null, unit_price: 2.49, amount: null },
          { step: 'pricing_rule', id: rule, name: 'Snacks 10%', unit_price: 2.24, amount: null },
          { step: 'tax', id: null, name: null, unit_price: null, amount: 0.37 },
        ]);
        expectLine(nuts, { sku: 'SNK-003', qty: 1, unit: 4.94, source: 'pricing_rule', gross: 4.94, tax: 0.41, total: 5.35 });
        expectLine(cola, { sku: 'BEV-003', qty: 1, unit: 1.79, source: 'base', gross: 1.79, tax: 0.15, total: 1.94 });
        expect(res.body.data).toMatchObject({ subtotal: 11.21, tax_total: 0.93, total: 12.14, applied_rules: [rule] });
        expectConsistent(res);

        // A client price equal to the server's keeps the rule; a different one is a manual price and takes no rule.
        const same = await cart({ items: [{ id: item('SNK-001'), qty: 2, price: 2.24 }] });
        expectLine(lines(same)[0], { sku: 'SNK-001', qty: 2, unit: 2.24, source: 'pricing_rule', gross: 4.48, tax: 0.37, total: 4.85 });
        const manual = await cart({
          items: [
            { id: item('SNK-001'), qty: 2, price: 2.49 },
            { id: item('SNK-003'), qty: 1 },
          ],
        });
        const [m, n] = lines(manual);
        expectLine(m, { sku: 'SNK-001', qty: 2, unit: 2.49, source: 'manual', gross: 4.98, tax: 0.41, total: 5.39 });
        expect(m.server_unit_price).toBe(2.24);
        expect(m.steps.map((s) => s.step)).toEqual(['base', 'manual_price', 'tax']);
        expect(n.price_source).toBe('pricing_rule');
      });
    });

    it('stacks non-exclusive rules by priority; an exclusive rule applies alone', async () => {
      const crisps = [{ id: item('SNK-001'), qty: 1 }];
      await rules.withRules(
        [
          { name: 'Crisps 10%', kind: 'percent_off', percent_off: 10, item_ids: [item('SNK-001')], priority: 5 },
          { name: 'Crisps -0.20', kind: 'amount_off', amount_off: 0.2, item_ids: [item('SNK-001')], priority: 1 },
        ],
        async ([pct, amt]) => {
          const put = (id: number, body: Record<string, unknown>) => api().put(`/api/v1/pricing-rules/${id}`).set(bearer(manager)).send(body);
          // 2.49 - 10% = 2.24, then - 0.20 = 2.04
          let res = await cart({ items: crisps });
          expect(lines(res)[0]).toMatchObject({ unit_price: 2.04, price_source: 'pricing_rule', total: 2.21 });
          expect(
            lines(res)[0]
              .steps.filter((s) => s.step === 'pricing_rule')
              .map((s) => [s.id, s.unit_price]),
          ).toEqual([
            [pct, 2.24],
            [amt, 2.04],
          ]);
          expect(res.body.data.applied_rules).toEqual([pct, amt].sort((a, b) => a - b));
          // Priority decides the order: 2.49 - 0.20 = 2.29, then - 10% (0.23) = 2.06
          expect((await put(amt, { priority: 10 })).status).toBe(200);
          res = await cart({ items: crisps });
          expect(lines(res)[0].unit_price).toBe(2.06);
          expect(
            lines(res)[0]
              .steps.filter((s) => s.step === 'pricing_rule')
              .map((s) => s.id),
          ).toEqual([amt, pct]);
          // Exclusive: only that rule
          expect((await put(amt, { priority: 1 })).status).toBe(200);
          expect((await put(pct, { is_exclusive: true })).status).toBe(200);
          res = await cart({ items: crisps });
          expect(lines(res)[0].unit_price).toBe(2.24);
          expect(res.body.data.applied_rules).toEqual([pct]);
          // The first exclusive rule wins even over a higher-priority stackable one
          expect((await put(pct, { is_exclusive: false })).status).toBe(200);
          expect((await put(amt, { is_exclusive: true })).status).toBe(200);
          res = await cart({ items: crisps });
          expect(lines(res)[0].unit_price).toBe(2.29);
          expect(res.body.data.applied_rules).toEqual([amt]);
        },
      );
    });

    it('never raises a price with a fixed price rule', async () => {
      await rules.withRules(
        [
          { name: 'Crisps at 2.99', kind: 'fixed_price', fixed_price: 2.99, item_ids: [item('SNK-001')] },
          { name: 'Nuts at 3.99', kind: 'fixed_price', fixed_price: 3.99, item_ids: [item('SNK-003')] },
        ],
        async ([, nutsRule]) => {
          const res = await cart({
            items: [
              { id: item('SNK-001'), qty: 1 },
              { id: item('SNK-003'), qty: 2 },
            ],
          });
          expect(lines(res)[0]).toMatchObject({ unit_price: 2.49, price_source: 'base' });
          expectLine(lines(res)[1], { sku: 'SNK-003', qty: 2, unit: 3.99, source: 'pricing_rule', gross: 7.98, tax: 0.66, total: 8.64 });
          expect(res.body.data.applied_rules).toEqual([nutsRule]);
        },
      );
    });

    it('applies the highest quantity tier the line reaches (percent or unit price), also over a book price', async () => {
      await rules.withRules(
        [
          {
            name: 'Nuts tiers',
            kind: 'quantity_tiers',
            item_ids: [item('SNK-003')],
            tiers: [
              { min_quantity: 5, percent_off: 10 },
              { min_quantity: 10, unit_price: 4 },
            ],
          },
        ],
        async () => {
          const res = await cart({
            items: [
              { id: item('SNK-003'), qty: 4 },
              { id: item('SNK-003'), qty: 5 },
              { id: item('SNK-003'), qty: 12 },
            ],
          });
          expect(res.status).toBe(200);
          const [four, five, twelve] = lines(res);
          expectLine(four, { sku: 'SNK-003', qty: 4, unit: 5.49, source: 'base', gross: 21.96, tax: 1.81, total: 23.77 });
          expectLine(five, { sku: 'SNK-003', qty: 5, unit: 4.94, source: 'pricing_rule', gross: 24.7, tax: 2.04, total: 26.74 });
          expectLine(twelve, { sku: 'SNK-003', qty: 12, unit: 4, source: 'pricing_rule', gross: 48, tax: 3.96, total: 51.96 });
          expect(res.body.data.total).toBe(102.47);
          const member = await cart({
            customer_id: jane,
            items: [
              { id: item('SNK-003'), qty: 5 },
              { id: item('SNK-003'), qty: 10 },
            ],
          });
          expect(lines(member).map((l) => l.unit_price)).toEqual([4.49, 4]); // 4.99 - 10%; min(4.99, 4.00)
        },
      );
    });

    it('gives buy-X-get-Y free units as a discount on the line, last, at the final unit price', async () => {
      await rules.withRules(
        [
          { name: 'Milk 2+1', kind: 'buy_x_get_y', buy_quantity: 2, get_quantity: 1, item_ids: [item('GRO-002')], priority: 10 },
          { name: 'Bread 2+1 half price', kind: 'buy_x_get_y', buy_quantity: 2, get_quantity: 1, get_percent_off: 50, item_ids: [item('GRO-001')] },
        ],
        async ([milkRule, breadRule]) => {
          const res = await cart({
            items: [
              { id: item('GRO-002'), qty: 2 },
              { id: item('GRO-002'), qty: 3 },
              { id: item('GRO-002'), qty: 7 },
              { id: item('GRO-001'), qty: 3 },
            ],
          });
          expect(res.status).toBe(200);
          const [two, three, seven, bread] = lines(res);
          expectLine(two, { sku: 'GRO-002', qty: 2, unit: 1.19, source: 'base', gross: 2.38, tax: 0.05, total: 2.43, discount: 0 });
          expectLine(three, { sku: 'GRO-002', qty: 3, unit: 1.19, source: 'pricing_rule', gross: 3.57, tax: 0.05, total: 2.43, discount: 1.19, net: 2.38 });
          expect(three.discounts.rule).toBe(1.19);
          expect(three.steps.find((s) => s.step === 'pricing_rule')).toEqual({
            step: 'pricing_rule',
            id: milkRule,
            name: 'Milk 2+1',
            unit_price: 1.19,
            amount: 1.19,
          });
          expectLine(seven, { sku: 'GRO-002', qty: 7, unit: 1.19, source: 'pricing_rule', gross: 8.33, tax: 0.12, total: 6.07, discount: 2.38, net: 5.95 });
          expectLine(bread, { sku: 'GRO-001', qty: 3, unit: 2.79, source: 'pricing_rule', gross: 8.37, tax: 0.14, total: 7.11, discount: 1.4, net: 6.97 });
          expect(res.body.data).toMatchObject({
            subtotal: 22.65,
            discount_total: 4.97,
            tax_total: 0.36,
            total: 18.04,
            applied_rules: [milkRule, breadRule].sort((a, b) => a - b),
          });
          expectConsistent(res);

          // A lower-priority 10% rule still goes first: the free unit is worth 1.07, not 1.19.
          await rules.withRules([{ name: 'Milk 10%', kind: 'percent_off', percent_off: 10, item_ids: [item('GRO-002')], priority: 1 }], async ([pct]) => {
            const stacked = await cart({ items: [{ id: item('GRO-002'), qty: 3 }] });
            expectLine(lines(stacked)[0], {
              sku: 'GRO-002',
              qty: 3,
              unit: 1.07,
              source: 'pricing_rule',
              gross: 3.21,
              tax: 0.04,
              total: 2.18,
              discount: 1.07,
              net: 2.14,
            });
            expect(
              lines(stacked)[0]
                .steps.filter((s) => s.step === 'pricing_rule')
                .map((s) => s.id),
            ).toEqual([pct, milkRule]);
          });
        },
      );
    });

    it("honours days_of_week and start/end time in the store's time zone (America/New_York)", async () => {
      const now = newYorkNow();
      const near = [(now.day + 6) % 7, now.day, (now.day + 1) % 7]; // robust to midnight between test and server
      const otherDays = [0, 1, 2, 3, 4, 5, 6].filter((d) => !near.includes(d));
      await rules.withRules(
        [
          {
            name: 'Now, today',
            kind: 'percent_off',
            percent_off: 10,
            item_ids: [item('SNK-001')],
            days_of_week: near,
            start_time: hhmm(now.minutes - 90),
            end_time: hhmm(now.minutes + 90),
          },
          { name: 'Other days', kind: 'percent_off', percent_off: 50, item_ids: [item('SNK-002')], days_of_week: otherDays },
          {
            name: 'Later today',
            kind: 'percent_off',
            percent_off: 50,
            item_ids: [item('SNK-004')],
            start_time: hhmm(now.minutes + 120),
            end_time: hhmm(now.minutes + 240),
          },
          {
            name: 'Across midnight',
            kind: 'percent_off',
            percent_off: 20,
            item_ids: [item('SNK-005')],
            start_time: hhmm(now.minutes + 600),
            end_time: hhmm(now.minutes + 60),
          },
        ],
        async ([nowRule, , , midnightRule]) => {
          const res = await cart({ items: ['SNK-001', 'SNK-002', 'SNK-004', 'SNK-005'].map((sku) => ({ id: item(sku), qty: 1 })) });
          expect(res.status).toBe(200);
          expect(lines(res).map((l) => [l.sku, l.unit_price, l.price_source])).toEqual([
            ['SNK-001', 2.24, 'pricing_rule'],
            ['SNK-002', 1.99, 'base'],
            ['SNK-004', 1.29, 'base'],
            ['SNK-005', 2.39, 'pricing_rule'],
          ]);
          expect(res.body.data.applied_rules).toEqual([nowRule, midnightRule].sort((a, b) => a - b));
        },
      );
    });

    it('honours validity windows (date-only and date-time)', async () => {
      const iso = (ms: number) => new Date(Date.now() + ms).toISOString();
      await rules.withRules(
        [
          { name: 'Current', kind: 'percent_off', percent_off: 10, item_ids: [item('SNK-001')], valid_from: '2020-01-01', valid_to: '2099-12-31' },
          { name: 'Expired', kind: 'percent_off', percent_off: 50, item_ids: [item('SNK-002')], valid_from: '2020-01-01', valid_to: '2020-12-31' },
          { name: 'Upcoming', kind: 'percent_off', percent_off: 50, item_ids: [item('SNK-004')], valid_from: '2099-01-01' },
          {
            name: 'Started 5 min ago',
            kind: 'percent_off',
            percent_off: 10,
            item_ids: [item('SNK-005')],
            valid_from: iso(-5 * 60_000),
            valid_to: iso(3600_000),
          },
          { name: 'Starts in 10 min', kind: 'percent_off', percent_off: 50, item_ids: [item('GRO-006')], valid_from: iso(10 * 60_000) },
        ],
        async () => {
          const res = await cart({ items: ['SNK-001', 'SNK-002', 'SNK-004', 'SNK-005', 'GRO-006'].map((sku) => ({ id: item(sku), qty: 1 })) });
          expect(lines(res).map((l) => [l.sku, l.unit_price])).toEqual([
            ['SNK-001', 2.24],
            ['SNK-002', 1.99],
            ['SNK-004', 1.29],
            ['SNK-005', 2.69],
            ['GRO-006', 1.69],
          ]);
        },
      );
    });

    it('applies rules by customer group, store, line quantity and cart subtotal', async () => {
      await rules.withRules(
        [
          { name: 'Members tea', kind: 'percent_off', percent_off: 20, item_ids: [item('COF-003')], customer_group_ids: [membersGroup] },
          { name: 'Airport crisps', kind: 'amount_off', amount_off: 0.5, item_ids: [item('SNK-001')], store_ids: [ids.store.AP] },
          { name: 'Pretzels from 3', kind: 'percent_off', percent_off: 5, item_ids: [item('SNK-005')], min_quantity: 3 },
          { name: 'Soap over 20', kind: 'percent_off', percent_off: 10, item_ids: [item('HSE-001')], min_subtotal: 20 },
        ],
        async () => {
          const tea = async (body: Record<string, unknown>) => lines(await cart({ ...body, items: [{ id: item('COF-003'), qty: 1 }] }))[0].unit_price;
          expect(await tea({})).toBe(4.59);
          expect(await tea({ customer_id: walkIn })).toBe(4.59);
          expect(await tea({ customer_id: jane })).toBe(3.67);

          expect(lines(await cart({ items: [{ id: item('SNK-001'), qty: 1 }] }))[0]).toMatchObject({ unit_price: 2.49, price_source: 'base' });
          expect(lines(await cart({ store_id: ids.store.AP, items: [{ id: item('SNK-001'), qty: 1 }] }, manager))[0]).toMatchObject({
            unit_price: 1.99,
            price_source: 'pricing_rule',
            tax: 0.14,
          });

          const pretzels = await cart({
            items: [
              { id: item('SNK-005'), qty: 2 },
              { id: item('SNK-005'), qty: 3 },
            ],
          });
          expect(lines(pretzels).map((l) => l.unit_price)).toEqual([2.99, 2.84]);

          expect(lines(await cart({ items: [{ id: item('HSE-001'), qty: 1 }] }))[0].unit_price).toBe(3.49);
          const big = await cart({
            items: [
              { id: item('HSE-001'), qty: 1 },
              { id: item('ELC-001'), qty: 1 },
              { id: item('HSE-003'), qty: 1 },
            ],
          });
          expect(lines(big).map((l) => l.unit_price)).toEqual([3.14, 12.99, 11.99]);
        },
      );
    });

    it('applies a rule on top of the member price', async () => {
      await rules.withRules([{ name: 'Coffee 10%', kind: 'percent_off', percent_off: 10, category_ids: [ids.category.coffee] }], async ([rule]) => {
        const res = await cart({ customer_id: jane, items: [{ id: item('COF-001'), qty: 1 }] });
        const l = lines(res)[0];
        expectLine(l, { sku: 'COF-001', qty: 1, unit: 7.19, source: 'pricing_rule', gross: 7.19, tax: 0.14, total: 7.33 });
        expect(l.steps.map((s) => [s.step, s.id, s.unit_price])).toEqual([
          ['base', null, 8.99],
          ['price_book', membersBook, 7.99],
          ['pricing_rule', rule, 7.19],
          ['tax', null, null],
        ]);
      });
    });
  });

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

  describe('GET /items/{item}/price, /price-breakdown, /applicable-price-books', () => {
    it('gives the live unit price for a store, customer, quantity and unit', async () => {
      const member = await priceOf('COF-001', `?customer_id=${jane}`);
      expect(member.status).toBe(200);
      expect(member.body.data).toEqual({
        item_id: item('COF-001'),
        store_id: ids.store.DT,
        currency: 'USD',
        quantity: 1,
        base_price: 8.99,
        unit_price: 7.99,
        price_source: 'price_book',
        prices_include_tax: false,
      });
      expect((await priceOf('COF-001')).body.data).toMatchObject({ unit_price: 8.99, price_source: 'base' });
      expect((await priceOf('BEV-001', `?unit_id=${caseUnit}&quantity=2`)).body.data).toMatchObject({
        quantity: 2,
        base_price: 13.99,
        unit_price: 13.99,
        price_source: 'base',
      });
      expect((await priceOf('BEV-001', `?store_id=${ids.store.AP}`, manager)).body.data).toMatchObject({
        store_id: ids.store.AP,
        unit_price: 2.49,
        price_source: 'price_book',
        prices_include_tax: true,
      });
      await rules.withRules(
        [{ name: 'Tiers', kind: 'quantity_tiers', item_ids: [item('SNK-003')], tiers: [{ min_quantity: 10, unit_price: 4 }] }],
        async () => {
          expect((await priceOf('SNK-003', '?quantity=9')).body.data).toMatchObject({ unit_price: 5.49, price_source: 'base' });
          expect((await priceOf('SNK-003', '?quantity=10')).body.data).toMatchObject({ unit_price: 4, price_source: 'pricing_rule' });
        },
      );
    });

    it('breaks a price down step by step', async () => {
      const res = await api()
        .get(`/api/v1/items/${item('COF-001')}/price-breakdown?customer_id=${jane}&quantity=2`)
        .set(bearer(cashier));
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        item_id: item('COF-001'),
        store_id: ids.store.DT,
        currency: 'USD',
        quantity: 2,
        base_price: 8.99,
        final_unit_price: 7.99,
        price_source: 'price_book',
        tax_rate: 2,
        tax: 0.32,
        total: 16.3,
        steps: [
          { step: 'base', id: null, name: null, unit_price: 8.99, amount: null },
          { step: 'price_book', id: membersBook, name: 'Member prices', unit_price: 7.99, amount: null },
          { step: 'tax', id: null, name: null, unit_price: null, amount: 0.32 },
        ],
      });
      const ap = await api()
        .get(`/api/v1/items/${item('SNK-001')}/price-breakdown?store_id=${ids.store.AP}`)
        .set(bearer(manager));
      expect(ap.body.data).toMatchObject({ final_unit_price: 2.49, price_source: 'base', tax_rate: 7.5, tax: 0.17, total: 2.49 });
    });

    it('lists the price books that apply and the one chosen', async () => {
      const get = (sku: string, query: string, token = cashier) =>
        api()
          .get(`/api/v1/items/${item(sku)}/applicable-price-books${query}`)
          .set(bearer(token));
      const none = await get('COF-001', '');
      expect(none.status).toBe(200);
      expect(none.body.data).toEqual({
        item_id: item('COF-001'),
        store_id: ids.store.DT,
        customer_group_id: null,
        price_books: [],
        chosen_price_book_id: null,
      });
      const member = await get('COF-001', `?customer_id=${jane}`);
      expect(member.body.data).toEqual({
        item_id: item('COF-001'),
        store_id: ids.store.DT,
        customer_group_id: membersGroup,
        price_books: [{ id: membersBook, name: 'Member prices', priority: 10, price: 7.99, min_quantity: 1 }],
        chosen_price_book_id: membersBook,
      });
      const both = await get('BEV-005', `?store_id=${ids.store.AP}&customer_id=${jane}`, manager);
      const sorted = [...both.body.data.price_books].sort((a, b) => a.id - b.id || a.min_quantity - b.min_quantity);
      expect(sorted).toEqual([
        { id: membersBook, name: 'Member prices', priority: 10, price: 2.79, min_quantity: 1 },
        { id: membersBook, name: 'Member prices', priority: 10, price: 2.39, min_quantity: 6 },
        { id: airportBook, name: 'Airport prices', priority: 5, price: 2.59, min_quantity: 1 },
      ]);
      expect(both.body.data.chosen_price_book_id).toBe(membersBook);
      const airportOnly = await get('BEV-005', `?store_id=${ids.store.AP}`, manager);
      expect(airportOnly.body.data).toMatchObject({ customer_group_id: null, chosen_price_book_id: airportBook });
      expect(airportOnly.body.data.price_books).toHaveLength(1);
    });

    it('answers another store with 403, bad query values with 422 naming them, and needs items.view', async () => {
      for (const path of ['price', 'price-breakdown', 'applicable-price-books']) {
        const url = `/api/v1/items/${item('SNK-001')}/${path}`;
        expectErrorEnvelope(await api().get(`${url}?store_id=${ids.store.AP}`).set(bearer(cashier)), 403);
        expectErrorEnvelope(await api().get(url), 401);
        for (const [query, field] of [
          ['store_id=abc', 'store_id'],
          ['customer_id=999999', 'customer_id'],
          ['customer_id=x', 'customer_id'],
          ['quantity=0', 'quantity'],
          ['quantity=100001', 'quantity'],
          ['quantity=1.5', 'quantity'],
          [`store_id=${encodeURIComponent("1' OR '1'='1")}`, 'store_id'],
          [`customer_id=${LONG}`, 'customer_id'],
        ]) {
          const res = await api().get(`${url}?${query}`).set(bearer(cashier));
          expectErrorEnvelope(res, 422);
          expect([path, query.slice(0, 40), Object.keys(res.body.errors)]).toEqual([path, query.slice(0, 40), [field]]);
        }
        // '1e3' is read as item 1000 (see the non-canonical id test below); the rest never name an item.
        for (const id of HOSTILE_IDS.filter((h) => h !== '1e3'))
          expectErrorEnvelope(
            await api()
              .get(`/api/v1/items/${encodeURIComponent(id)}/${path}`)
              .set(bearer(cashier)),
            404,
          );
      }
      const posOnly = await appToken(t, ['pos.access']);
      for (const path of ['price', 'price-breakdown', 'applicable-price-books'])
        expectErrorEnvelope(
          await api()
            .get(`/api/v1/items/${item('SNK-001')}/${path}`)
            .set(bearer(posOnly)),
          403,
        );
    });

    it('answers an unknown item with 404', async () => {
      for (const path of ['price', 'price-breakdown', 'applicable-price-books']) {
        expectErrorEnvelope(await api().get(`/api/v1/items/999999/${path}`).set(bearer(cashier)), 404);
      }
    });

    it('does not read non-canonical ids (1e0, 0x1, 1.0, +1) as another item', async () => {
      for (const id of ['1e0', '0x1', '0b1', '1.0', '+1', ' 1']) {
        const res = await api()
          .get(`/api/v1/items/${encodeURIComponent(id)}/price`)
          .set(bearer(cashier));
        expect([id, res.status]).toEqual([id, 404]);
      }
    });
  });
});
