import { bearer, startTestApp, TestApp } from '../support/test-app';
import { DemoIds } from '../catalog/catalog-helpers';
import { hhmm, newYorkNow } from './pricing-helpers';
import { CartFixtures, cartFixtures, cartKit } from './cart-helpers';

/**
 * Cart pricing through the engine (contract 4.2 item prices, 4.3 tax, 4.8 pricing; decisions.md
 * "Sales"): base -> best price book -> rules -> manual line discount -> cart discount -> tax, each
 * line with its price_source. Every figure below is worked out by hand from the demo prices.
 * This part: pricing rules in the cart (kinds, stacking, schedules, conditions).
 */
describe('Pricing: carts, single items and tax', () => {
  let t: TestApp;
  let f: CartFixtures;
  let manager: string;
  let ids: DemoIds;
  let jane: number;
  let walkIn: number;
  let membersBook: number;
  let membersGroup: number;

  const { api, item, cart, lines, rules, expectLine, expectConsistent } = cartKit(
    () => t,
    () => f,
  );

  beforeAll(async () => {
    t = await startTestApp();
    f = await cartFixtures(t);
    ({ manager, ids, jane, walkIn, membersBook, membersGroup } = f);
  });
  afterAll(() => t.close());
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
});
