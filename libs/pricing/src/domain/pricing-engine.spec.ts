import fc from 'fast-check';
import { priceCart, ruleApplies, ruleIndex } from './pricing-engine';
import { Bundle, CartInput, CartLineInput, Discount, PricingContext, PricingRule } from './pricing.types';

const ctx = (over: Partial<PricingContext> = {}): PricingContext => ({
  storeId: 1,
  customerGroupId: null,
  at: new Date('2026-11-18T15:00:00Z'), // a Wednesday, 10:00 in New York
  timeZone: 'America/New_York',
  pricesIncludeTax: false,
  taxExempt: false,
  ...over,
});

const line = (key: string, itemId: number, quantity: number, basePrice: number, over: Partial<CartLineInput> = {}): CartLineInput => ({
  key,
  itemId,
  categoryId: null,
  quantity,
  basePrice,
  priceBooks: [],
  taxRateBp: 0,
  ...over,
});

const rule = (over: Partial<PricingRule> & Pick<PricingRule, 'kind'>): PricingRule => ({
  id: 1,
  name: 'rule',
  priority: 0,
  exclusive: false,
  active: true,
  conditions: {},
  ...over,
});

const cart = (lines: CartLineInput[], over: Partial<CartInput> = {}): CartInput => ({ context: ctx(), lines, rules: [], bundles: [], ...over });

// ---- generators -------------------------------------------------------------------------
const discountArb: fc.Arbitrary<Discount> = fc.oneof(
  fc.integer({ min: 0, max: 10000 }).map((valueBp) => ({ type: 'percent' as const, valueBp })),
  fc.integer({ min: 0, max: 500_000 }).map((value) => ({ type: 'amount' as const, value })),
);
const ruleArb: fc.Arbitrary<PricingRule> = fc.record({
  id: fc.integer({ min: 1, max: 50 }),
  name: fc.constant('r'),
  kind: fc.constantFrom('percent_off' as const, 'amount_off' as const, 'fixed_price' as const, 'quantity_tiers' as const, 'buy_x_get_y' as const),
  priority: fc.integer({ min: 0, max: 5 }),
  exclusive: fc.boolean(),
  active: fc.boolean(),
  conditions: fc.record({
    itemIds: fc.option(fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 3 }), { nil: undefined }),
    minQuantity: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
  }),
  value: fc.integer({ min: 0, max: 20000 }),
  tiers: fc.array(fc.record({ minQuantity: fc.integer({ min: 1, max: 10 }), percentOffBp: fc.integer({ min: 0, max: 10000 }) }), { maxLength: 3 }),
  buyQuantity: fc.integer({ min: 1, max: 3 }),
  getQuantity: fc.integer({ min: 1, max: 2 }),
  getPercentOffBp: fc.integer({ min: 0, max: 10000 }),
});
const bundleArb: fc.Arbitrary<Bundle> = fc.record({
  id: fc.integer({ min: 1, max: 20 }),
  name: fc.constant('b'),
  price: fc.integer({ min: 0, max: 50_000 }),
  components: fc.array(fc.record({ itemId: fc.integer({ min: 1, max: 6 }), quantity: fc.integer({ min: 1, max: 3 }) }), { minLength: 1, maxLength: 3 }),
  active: fc.boolean(),
});
const linesArb = fc
  .array(
    fc.record({
      itemId: fc.integer({ min: 1, max: 6 }),
      quantity: fc.integer({ min: 1, max: 12 }),
      basePrice: fc.integer({ min: 0, max: 100_000 }),
      taxRateBp: fc.constantFrom(0, 200, 750, 825, 2000),
      manual: fc.option(discountArb, { nil: undefined }),
      book: fc.option(
        fc.record({ price: fc.integer({ min: 0, max: 100_000 }), priority: fc.integer({ min: 0, max: 3 }), minQuantity: fc.integer({ min: 1, max: 4 }) }),
        { nil: undefined },
      ),
    }),
    { minLength: 1, maxLength: 12 },
  )
  .map((rows) =>
    rows.map((r, i) =>
      line(String(i), r.itemId, r.quantity, r.basePrice, {
        taxRateBp: r.taxRateBp,
        manualDiscount: r.manual,
        priceBooks: r.book ? [{ priceBookId: 1 + (i % 2), name: 'book', ...r.book }] : [],
      }),
    ),
  );
const cartArb = fc.record({
  lines: linesArb,
  rules: fc.array(ruleArb, { maxLength: 6 }).map((rs) => rs.map((r, i) => ({ ...r, id: i + 1 }))),
  bundles: fc.array(bundleArb, { maxLength: 3 }).map((bs) => bs.map((b, i) => ({ ...b, id: i + 1 }))),
  cartDiscount: fc.option(discountArb, { nil: undefined }),
  inclusive: fc.boolean(),
  exempt: fc.boolean(),
});
const toInput = (c: {
  lines: CartLineInput[];
  rules: PricingRule[];
  bundles: Bundle[];
  cartDiscount?: Discount;
  inclusive: boolean;
  exempt: boolean;
}): CartInput => ({
  context: ctx({ pricesIncludeTax: c.inclusive, taxExempt: c.exempt }),
  lines: c.lines,
  rules: c.rules,
  bundles: c.bundles,
  cartDiscount: c.cartDiscount,
});

describe('pricing engine: properties', () => {
  it('line totals sum to the cart totals, and every line adds up', () => {
    fc.assert(
      fc.property(cartArb, (c) => {
        const r = priceCart(toInput(c));
        const s = (f: (l: (typeof r.lines)[number]) => number) => r.lines.reduce((a, l) => a + f(l), 0);
        return (
          r.total === s((l) => l.total) &&
          r.taxTotal === s((l) => l.tax) &&
          r.subtotal === s((l) => l.books.gross) &&
          r.discountTotal === s((l) => l.books.ruleDiscount + l.books.bundleDiscount + l.books.manualDiscount + l.books.cartDiscount) &&
          // the books identity, in both tax modes, exempt or not: subtotal - discounts + tax = total
          r.subtotal - r.discountTotal + r.taxTotal === r.total &&
          r.lines.every((l) => l.net === l.gross - l.ruleDiscount - l.bundleDiscount - l.manualDiscount - l.cartDiscount) &&
          r.lines.every((l) => l.total === (c.inclusive ? l.net - l.exemptedTax : l.net + l.tax)) &&
          r.lines.every((l) => {
            const b = l.books;
            const discounts = [b.ruleDiscount, b.bundleDiscount, b.manualDiscount, b.cartDiscount];
            return b.gross - discounts.reduce((a, d) => a + d, 0) === b.net && b.net + l.tax === l.total && discounts.every((d) => d >= 0) && b.net >= 0;
          }) &&
          r.lines.every((l) => (c.inclusive ? true : l.books.gross === l.gross && l.books.net === l.net)) &&
          r.lines.every((l) => l.exemptedTax === 0 || (c.inclusive && c.exempt))
        );
      }),
      { numRuns: 400 },
    );
  });

  it('never goes negative', () => {
    fc.assert(
      fc.property(cartArb, (c) => {
        const r = priceCart(toInput(c));
        return (
          r.total >= 0 &&
          r.lines.every(
            (l) =>
              l.unitPrice >= 0 &&
              l.net >= 0 &&
              l.tax >= 0 &&
              l.total >= 0 &&
              [l.ruleDiscount, l.bundleDiscount, l.manualDiscount, l.cartDiscount].every((d) => d >= 0),
          )
        );
      }),
      { numRuns: 400 },
    );
  });

  it('splits a cart discount so the parts sum exactly to it', () => {
    fc.assert(
      fc.property(linesArb, discountArb, (lines, discount) => {
        const without = priceCart(cart(lines));
        const withDiscount = priceCart(cart(lines, { cartDiscount: discount }));
        const parts = withDiscount.lines.reduce((a, l) => a + l.cartDiscount, 0);
        const base = without.lines.reduce((a, l) => a + l.net, 0);
        const expected = Math.min(discount.type === 'percent' ? Math.round((base * discount.valueBp) / 10000) : discount.value, base);
        return Math.abs(parts - expected) <= 1 && withDiscount.total === without.total - parts - (without.taxTotal - withDiscount.taxTotal);
      }),
      { numRuns: 300 },
    );
  });

  it('is the identity without books, rules, bundles, discounts or tax', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ q: fc.integer({ min: 1, max: 50 }), p: fc.integer({ min: 0, max: 1_000_000 }) }), { minLength: 1, maxLength: 20 }),
        (rows) => {
          const r = priceCart(cart(rows.map((x, i) => line(String(i), i + 1, x.q, x.p))));
          return r.total === rows.reduce((a, x) => a + x.q * x.p, 0) && r.lines.every((l, i) => l.unitPrice === rows[i].p && l.priceSource === 'base');
        },
      ),
    );
  });

  it('does not depend on line order', () => {
    fc.assert(
      fc.property(cartArb, fc.integer(), (c, seed) => {
        const input = toInput(c);
        const shuffled = { ...input, lines: [...input.lines].sort((a, b) => ((Number(a.key) * 7919 + seed) % 13) - ((Number(b.key) * 7919 + seed) % 13)) };
        const a = priceCart(input);
        const b = priceCart(shuffled);
        const byKey = (x: typeof a) => JSON.stringify([...x.lines].sort((l, m) => Number(l.key) - Number(m.key)));
        return a.total === b.total && a.taxTotal === b.taxTotal && byKey(a) === byKey(b);
      }),
      { numRuns: 300 },
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(cartArb, (c) => JSON.stringify(priceCart(toInput(c))) === JSON.stringify(priceCart(toInput(c)))),
      { numRuns: 100 },
    );
  });

  it('tax-inclusive and tax-exclusive agree on the same gross (to the cent per line)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ q: fc.integer({ min: 1, max: 20 }), net: fc.integer({ min: 0, max: 100_000 }), rate: fc.constantFrom(0, 200, 750, 825, 2000) }), {
          minLength: 1,
          maxLength: 10,
        }),
        (rows) => {
          const exclusive = priceCart(cart(rows.map((r, i) => line(String(i), i + 1, 1, r.net, { taxRateBp: r.rate }))));
          // the gross the exclusive store charges, priced again as a tax-inclusive price
          const inclusive = priceCart({
            ...cart(exclusive.lines.map((l, i) => line(String(i), i + 1, 1, l.total, { taxRateBp: rows[i].rate }))),
            context: ctx({ pricesIncludeTax: true }),
          });
          return inclusive.lines.every((l, i) => l.total === exclusive.lines[i].total && Math.abs(l.tax - exclusive.lines[i].tax) <= 1);
        },
      ),
    );
  });
});

describe('pricing engine: worked examples', () => {
  it('rounds per line half away from zero: 3 x 0.333 and the 0.005 boundary', () => {
    // 8.25% of 1.00 = 0.0825 -> 0.08; of 0.06 = 0.00495 -> 0.00; of 2.00 = 0.165 -> 0.17
    const r = priceCart(cart([line('0', 1, 3, 33, { taxRateBp: 825 }), line('1', 2, 1, 100, { taxRateBp: 825 }), line('2', 3, 1, 200, { taxRateBp: 825 })]));
    expect(r.lines.map((l) => l.tax)).toEqual([8, 8, 17]); // 0.99 x 8.25% = 0.081675 -> 0.08
    expect(r.total).toBe(99 + 8 + 100 + 8 + 200 + 17);
    const half = priceCart(cart([line('0', 1, 1, 2, { taxRateBp: 2500 })])); // 0.02 x 25% = 0.005 -> 0.01
    expect(half.lines[0].tax).toBe(1);
  });

  it('takes the highest-priority price book, then the lowest price, and the largest tier reached', () => {
    const books = [
      { priceBookId: 1, name: 'Members', priority: 10, price: 799, minQuantity: 1 },
      { priceBookId: 1, name: 'Members', priority: 10, price: 700, minQuantity: 6 },
      { priceBookId: 2, name: 'Airport', priority: 5, price: 500, minQuantity: 1 },
    ];
    expect(priceCart(cart([line('0', 1, 2, 899, { priceBooks: books })])).lines[0]).toMatchObject({ unitPrice: 799, priceSource: 'price_book' });
    expect(priceCart(cart([line('0', 1, 6, 899, { priceBooks: books })])).lines[0].unitPrice).toBe(700);
    // a higher book price still replaces the base (airport prices)
    expect(
      priceCart(cart([line('0', 1, 1, 129, { priceBooks: [{ priceBookId: 3, name: 'Airport', priority: 5, price: 249, minQuantity: 1 }] })])).lines[0]
        .unitPrice,
    ).toBe(249);
  });

  it('applies each rule kind', () => {
    const one = (r: PricingRule, qty = 1, price = 1000) => priceCart(cart([line('0', 1, qty, price)], { rules: [r] })).lines[0];
    expect(one(rule({ kind: 'percent_off', value: 1500 })).unitPrice).toBe(850);
    expect(one(rule({ kind: 'amount_off', value: 250 })).unitPrice).toBe(750);
    expect(one(rule({ kind: 'amount_off', value: 5000 })).unitPrice).toBe(0);
    expect(one(rule({ kind: 'fixed_price', value: 600 })).unitPrice).toBe(600);
    expect(one(rule({ kind: 'fixed_price', value: 1600 })).unitPrice).toBe(1000); // never raises a price
    const tiers = rule({
      kind: 'quantity_tiers',
      tiers: [
        { minQuantity: 5, percentOffBp: 1000 },
        { minQuantity: 10, unitPrice: 700 },
      ],
    });
    expect(one(tiers, 4).unitPrice).toBe(1000);
    expect(one(tiers, 5).unitPrice).toBe(900);
    expect(one(tiers, 12).unitPrice).toBe(700);
    const bxgy = one(rule({ kind: 'buy_x_get_y', buyQuantity: 2, getQuantity: 1 }), 7);
    expect(bxgy).toMatchObject({ unitPrice: 1000, ruleDiscount: 2000, net: 5000, priceSource: 'pricing_rule' }); // 2 groups of 3 -> 2 free
    expect(one(rule({ kind: 'buy_x_get_y', buyQuantity: 1, getQuantity: 1, getPercentOffBp: 5000 }), 2).ruleDiscount).toBe(500);
  });

  it('stacks rules by priority unless one is exclusive', () => {
    const a = rule({ id: 1, kind: 'percent_off', value: 1000, priority: 2 });
    const b = rule({ id: 2, kind: 'amount_off', value: 100, priority: 1 });
    const x = rule({ id: 3, kind: 'percent_off', value: 5000, priority: 0, exclusive: true });
    expect(priceCart(cart([line('0', 1, 1, 1000)], { rules: [b, a] })).lines[0].unitPrice).toBe(800); // 1000 -10% = 900, -1.00
    const excl = priceCart(cart([line('0', 1, 1, 1000)], { rules: [a, b, x] }));
    expect(excl.lines[0].unitPrice).toBe(500);
    expect(excl.appliedRuleIds).toEqual([3]);
  });

  it('checks rule conditions: items, categories, groups, stores, quantities, subtotal, validity, days and hours', () => {
    const l = line('0', 7, 3, 1000, { categoryId: 4 });
    const applies = (conditions: PricingRule['conditions'], c = ctx()) =>
      priceCart({ ...cart([l], { rules: [rule({ kind: 'percent_off', value: 1000, conditions })] }), context: c }).lines[0].unitPrice === 900;
    expect(applies({ itemIds: [7] })).toBe(true);
    expect(applies({ itemIds: [8] })).toBe(false);
    expect(applies({ categoryIds: [4] })).toBe(true);
    expect(applies({ customerGroupIds: [2] })).toBe(false);
    expect(applies({ customerGroupIds: [2] }, ctx({ customerGroupId: 2 }))).toBe(true);
    expect(applies({ storeIds: [2] })).toBe(false);
    expect(applies({ minQuantity: 3 })).toBe(true);
    expect(applies({ minQuantity: 4 })).toBe(false);
    expect(applies({ minSubtotal: 3000 })).toBe(true);
    expect(applies({ minSubtotal: 3001 })).toBe(false);
    expect(applies({ validFrom: new Date('2026-12-01T00:00:00Z') })).toBe(false);
    expect(applies({ validTo: new Date('2026-11-01T00:00:00Z') })).toBe(false);
    expect(applies({ daysOfWeek: [3] })).toBe(true); // Wednesday in New York
    expect(applies({ daysOfWeek: [4] })).toBe(false);
    expect(applies({ startTime: '09:00', endTime: '11:00' })).toBe(true); // 10:00 local
    expect(applies({ startTime: '11:00', endTime: '12:00' })).toBe(false);
    expect(applies({ startTime: '22:00', endTime: '10:30' })).toBe(true); // window across midnight
    expect(applies({}, ctx({ timeZone: 'Asia/Tokyo' }))).toBe(true);
    expect(applies({ daysOfWeek: [3] }, ctx({ timeZone: 'Asia/Tokyo' }))).toBe(false); // already Thursday in Tokyo
  });

  it('applies a bundle when all components are present and splits the saving over them', () => {
    const bundle: Bundle = {
      id: 9,
      name: 'Coffee kit',
      price: 1500,
      active: true,
      components: [
        { itemId: 1, quantity: 1 },
        { itemId: 2, quantity: 2 },
      ],
    };
    const r = priceCart(cart([line('0', 1, 1, 899), line('1', 2, 5, 459)], { bundles: [bundle] }));
    // one kit: 8.99 + 2 x 4.59 = 18.17 -> 15.00, saving 3.17 split 899:918
    expect(r.appliedBundleIds).toEqual([9]);
    expect(r.lines[0].bundleDiscount + r.lines[1].bundleDiscount).toBe(317);
    expect(r.lines[0].bundleDiscount).toBe(157);
    expect(r.lines[0].priceSource).toBe('bundle');
    expect(r.total).toBe(899 + 5 * 459 - 317);
    expect(priceCart(cart([line('0', 1, 1, 899), line('1', 2, 1, 459)], { bundles: [bundle] })).appliedBundleIds).toEqual([]);
    expect(priceCart(cart([line('0', 1, 1, 100), line('1', 2, 2, 100)], { bundles: [bundle] })).appliedBundleIds).toEqual([]); // no saving
  });

  it('applies manual line and cart discounts after rules, then tax on what is left', () => {
    const r = priceCart(
      cart([line('0', 1, 2, 1000, { taxRateBp: 1000, manualDiscount: { type: 'percent', valueBp: 1000 } }), line('1', 2, 1, 500, { taxRateBp: 1000 })], {
        cartDiscount: { type: 'amount', value: 300 },
      }),
    );
    expect(r.lines[0]).toMatchObject({ gross: 2000, manualDiscount: 200, priceSource: 'manual' });
    expect(r.lines[0].cartDiscount + r.lines[1].cartDiscount).toBe(300);
    expect(r.lines[0].cartDiscount).toBe(235); // 300 x 1800/2300 = 234.78 -> 235
    expect(r.taxTotal).toBe(Math.round((1800 - 235) / 10) + Math.round((500 - 65) / 10));
    expect(r.total).toBe(2000 + 500 - 200 - 300 + r.taxTotal);
  });

  it('keeps a manual or offline unit price and gives such a line no rule or bundle', () => {
    const r = priceCart(
      cart([line('0', 1, 1, 1000, { manualUnitPrice: 800, manualSource: 'offline' })], { rules: [rule({ kind: 'percent_off', value: 5000 })] }),
    );
    expect(r.lines[0]).toMatchObject({ unitPrice: 800, priceSource: 'offline', total: 800 });
  });

  it('computes inclusive tax out of the price and exempts when asked', () => {
    const incl = priceCart({ ...cart([line('0', 1, 1, 1075, { taxRateBp: 750 })]), context: ctx({ pricesIncludeTax: true }) });
    expect(incl.lines[0]).toMatchObject({ total: 1075, tax: 75 });
    const exempt = priceCart({ ...cart([line('0', 1, 1, 1000, { taxRateBp: 750 })]), context: ctx({ taxExempt: true }) });
    expect(exempt).toMatchObject({ taxTotal: 0, total: 1000 });
    // tax-inclusive store: an exempt customer pays the price without the tax it holds (10.75 -> 10.00)
    const inclusiveExempt = priceCart({ ...cart([line('0', 1, 1, 1075, { taxRateBp: 750 })]), context: ctx({ pricesIncludeTax: true, taxExempt: true }) });
    expect(inclusiveExempt.lines[0]).toMatchObject({ tax: 0, exemptedTax: 75, total: 1000 });
  });

  it('keeps the books before tax in a tax-inclusive store, so subtotal - discounts + tax = total (issue 23, item 2)', () => {
    // 7.99 at 6% included (0.45 of tax inside), 1.00 off the line; and the same sale exempt.
    const taxed = priceCart({
      ...cart([line('0', 1, 1, 799, { taxRateBp: 600, manualDiscount: { type: 'amount', value: 100 } })]),
      context: ctx({ pricesIncludeTax: true }),
    });
    // shelf 7.99 -> 7.54 before tax; after the discount 6.99 -> 6.59 before tax, 0.40 of tax
    expect(taxed.lines[0].books).toEqual({ gross: 754, ruleDiscount: 0, bundleDiscount: 0, manualDiscount: 95, cartDiscount: 0, net: 659 });
    expect(taxed.lines[0]).toMatchObject({ tax: 40, total: 699 });
    expect(taxed).toMatchObject({ subtotal: 754, discountTotal: 95, taxTotal: 40, total: 699 });
    const exempt = priceCart({ ...cart([line('0', 1, 1, 799, { taxRateBp: 600 })]), context: ctx({ pricesIncludeTax: true, taxExempt: true }) });
    // the line: the customer pays 7.54, which is the price before tax: nothing left to explain
    expect(exempt.lines[0]).toMatchObject({ tax: 0, exemptedTax: 45, total: 754, books: expect.objectContaining({ gross: 754, net: 754 }) });
    expect(exempt).toMatchObject({ subtotal: 754, discountTotal: 0, taxTotal: 0, total: 754 });
  });

  it('refuses malformed carts', () => {
    expect(() => priceCart(cart([line('0', 1, 1, 10), line('0', 2, 1, 10)]))).toThrow(/Duplicate/);
    expect(() => priceCart(cart([line('0', 1, 0, 10)]))).toThrow(RangeError);
    expect(() => priceCart(cart([line('0', 1, 1.5, 10)]))).toThrow(RangeError);
  });
});

describe('the per-cart rule index', () => {
  it('picks for every line exactly the rules that apply to it, in the same order', () => {
    const ids = fc.option(fc.array(fc.integer({ min: 1, max: 5 }), { maxLength: 3 }), { nil: undefined });
    const ruleArb2 = fc.record({
      id: fc.integer({ min: 1, max: 1000 }),
      active: fc.boolean(),
      itemIds: ids,
      categoryIds: ids,
      storeIds: ids,
      minQuantity: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
      minSubtotal: fc.option(fc.integer({ min: 0, max: 5000 }), { nil: undefined }),
      daysOfWeek: fc.option(fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 3 }), { nil: undefined }),
    });
    const lineArb = fc.record({
      itemId: fc.integer({ min: 1, max: 5 }),
      categoryId: fc.option(fc.integer({ min: 1, max: 5 })),
      quantity: fc.integer({ min: 1, max: 6 }),
    });
    fc.assert(
      fc.property(
        fc.array(ruleArb2, { maxLength: 25 }),
        fc.array(lineArb, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 5000 }),
        (rs, ls, subtotal) => {
          const rules = rs.map((r, i) =>
            rule({
              kind: 'percent_off',
              id: i + 1,
              active: r.active,
              conditions: {
                itemIds: r.itemIds,
                categoryIds: r.categoryIds,
                storeIds: r.storeIds,
                minQuantity: r.minQuantity,
                minSubtotal: r.minSubtotal,
                daysOfWeek: r.daysOfWeek,
              },
            }),
          );
          const c = ctx();
          const rulesFor = ruleIndex(rules, c, subtotal);
          for (const [i, l] of ls.entries()) {
            const cartLine = line(String(i), l.itemId, l.quantity, 100, { categoryId: l.categoryId });
            expect(rulesFor(cartLine).map((r) => r.id)).toEqual(rules.filter((r) => ruleApplies(r, cartLine, c, subtotal)).map((r) => r.id));
          }
        },
      ),
    );
  });
});
