import fc from 'fast-check';
import { priceCart, ruleApplies } from './pricing-engine';
import { RuleBook } from './rule-book';
import { cart, ctx, line, rule } from './pricing-engine.test-carts';
import { PricingRule } from './pricing.types';

/** Rules with every kind of condition, windows and hours included. */
const ids = fc.option(fc.array(fc.integer({ min: 1, max: 5 }), { maxLength: 3 }), { nil: undefined });
const when = fc.option(
  fc.integer({ min: -3, max: 3 }).map((days) => new Date(Date.parse('2026-11-18T15:00:00Z') + days * 86_400_000)),
  { nil: null },
);
const hhmm = fc.option(
  fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
  { nil: undefined },
);
const rulesArb = fc
  .array(
    fc.record({
      priority: fc.integer({ min: 0, max: 4 }),
      exclusive: fc.boolean(),
      active: fc.boolean(),
      value: fc.integer({ min: 0, max: 5000 }),
      itemIds: ids,
      categoryIds: ids,
      storeIds: ids,
      customerGroupIds: ids,
      minQuantity: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
      minSubtotal: fc.option(fc.integer({ min: 0, max: 5000 }), { nil: undefined }),
      daysOfWeek: fc.option(fc.array(fc.integer({ min: 0, max: 6 }), { maxLength: 3 }), { nil: undefined }),
      startTime: hhmm,
      endTime: hhmm,
      validFrom: when,
      validTo: when,
    }),
    { maxLength: 30 },
  )
  .map((rs) =>
    rs.map(({ priority, exclusive, active, value, ...conditions }, i): PricingRule =>
      rule({ kind: 'percent_off', id: i + 1, priority, exclusive, active, value, conditions }),
    ),
  );
const contextArb = fc.record({
  storeId: fc.integer({ min: 1, max: 5 }),
  customerGroupId: fc.option(fc.integer({ min: 1, max: 5 })),
  at: fc.integer({ min: -4 * 24, max: 4 * 24 }).map((hours) => new Date(Date.parse('2026-11-18T15:00:00Z') + hours * 3_600_000)),
});
const linesArb = fc.array(
  fc.record({ itemId: fc.integer({ min: 1, max: 5 }), categoryId: fc.option(fc.integer({ min: 1, max: 5 })), quantity: fc.integer({ min: 1, max: 6 }) }),
  { minLength: 1, maxLength: 8 },
);

describe('RuleBook', () => {
  it('answers, for each line, exactly the rules that apply to it, in the order given', () => {
    fc.assert(
      fc.property(rulesArb, contextArb, linesArb, fc.integer({ min: 0, max: 5000 }), (rules, over, ls, subtotal) => {
        const c = ctx(over);
        const rulesFor = new RuleBook(rules).forCart(c, subtotal);
        for (const [i, l] of ls.entries()) {
          const cartLine = line(String(i), l.itemId, l.quantity, 100, { categoryId: l.categoryId });
          expect(rulesFor(cartLine).map((r) => r.id)).toEqual(rules.filter((r) => ruleApplies(r, cartLine, c, subtotal)).map((r) => r.id));
        }
      }),
    );
  });

  it('one book priced many carts: the same result as pricing each cart with its rules alone', () => {
    fc.assert(
      fc.property(rulesArb, fc.array(fc.tuple(contextArb, linesArb), { minLength: 1, maxLength: 4 }), (rules, carts) => {
        const book = RuleBook.ordered(rules);
        for (const [over, ls] of carts) {
          const lines = ls.map((l, i) => line(String(i), l.itemId, l.quantity, 1000 + i, { categoryId: l.categoryId }));
          const input = cart(lines, { context: ctx(over), rules });
          expect(priceCart({ ...input, ruleBook: book })).toEqual(priceCart(input));
        }
      }),
    );
  });

  it('a book of other rules is not used: the cart is priced with its own rules', () => {
    const mine = [rule({ kind: 'percent_off', id: 1, value: 1000 })];
    const other = RuleBook.ordered([rule({ kind: 'percent_off', id: 2, value: 5000 })]);
    const priced = priceCart(cart([line('a', 1, 1, 1000)], { rules: mine, ruleBook: other }));
    expect(priced.lines[0].unitPrice).toBe(900);
    expect(priced.appliedRuleIds).toEqual([1]);
  });
});
