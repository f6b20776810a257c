import fc from 'fast-check';
import { priceCart, ruleApplies, ruleIndex } from './pricing-engine';
import { cart, ctx, line, rule } from './pricing-engine.test-carts';
import { Bundle, CartInput, CartLineInput, Discount, PricingRule } from './pricing.types';

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

  it('never sells bundled units for less than the bundle, whatever rules ran first', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.array(ruleArb, { maxLength: 4 }),
        fc.record({ price: fc.integer({ min: 0, max: 50_000 }), quantity: fc.integer({ min: 1, max: 3 }) }),
        (qty, basePrice, rules, pack) => {
          const bundle: Bundle = { id: 1, name: 'b', price: pack.price, active: true, components: [{ itemId: 1, quantity: pack.quantity }] };
          const active = rules.map((r, i) => ({ ...r, id: i + 1, active: true, conditions: {} }));
          const rulesOnly = priceCart(cart([line('0', 1, qty, basePrice)], { rules: active })).lines[0];
          const r = priceCart(cart([line('0', 1, qty, basePrice)], { rules: active, bundles: [bundle] }));
          const packs = Math.floor(qty / pack.quantity);
          if (r.appliedBundleIds.length === 0) return r.lines[0].net === rulesOnly.net;
          return r.lines[0].net >= pack.price * packs && r.lines[0].net < rulesOnly.net;
        },
      ),
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
