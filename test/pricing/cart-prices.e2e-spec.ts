import { bearer, expectErrorEnvelope, startTestApp, TestApp } from '../support/test-app';
import { DemoIds, HOSTILE_IDS, LONG } from '../catalog/catalog-helpers';
import { appToken, cents, inclusiveTax } from './pricing-helpers';
import { CartFixtures, cartFixtures, cartKit } from './cart-helpers';
import { ActivePricingCache } from '../../libs/pricing/src/application/active-pricing.cache';

/**
 * Cart pricing through the engine (contract 4.2 item prices, 4.3 tax, 4.8 pricing; decisions.md
 * "Sales"): base -> best price book -> rules -> manual line discount -> cart discount -> tax, each
 * line with its price_source. Every figure below is worked out by hand from the demo prices.
 * This part: base prices, units, tax modes, which price books apply, and the item price endpoints.
 */
describe('Pricing: carts, single items and tax', () => {
  let t: TestApp;
  let f: CartFixtures;
  let manager: string;
  let cashier: string;
  let ids: DemoIds;
  let jane: number;
  let walkIn: number;
  let caseUnit: number;
  let membersBook: number;
  let airportBook: number;
  let membersGroup: number;

  const { api, item, cart, lines, rules, priceOf, expectLine, expectConsistent } = cartKit(
    () => t,
    () => f,
  );

  beforeAll(async () => {
    t = await startTestApp();
    f = await cartFixtures(t);
    ({ manager, cashier, ids, jane, walkIn, caseUnit, membersBook, airportBook, membersGroup } = f);
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
