import { priceCart } from './pricing-engine';
import { cart, ctx, line, rule } from './pricing-engine.test-carts';
import { Bundle, PricingRule } from './pricing.types';

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

  it('values bundled units at what they cost after buy-X-get-Y: the two savings never give the goods away', () => {
    const bogo = rule({ kind: 'buy_x_get_y', buyQuantity: 1, getQuantity: 1, conditions: { itemIds: [1] } });
    const pair: Bundle = { id: 3, name: 'Two-pack', price: 800, active: true, components: [{ itemId: 1, quantity: 2 }] };
    // 2 x 10.00: buy 1 get 1 leaves 10.00; the two-pack at 8.00 saves 2.00 more, not another 10.00
    const both = priceCart(cart([line('0', 1, 2, 1000)], { rules: [bogo], bundles: [pair] }));
    expect(both.lines[0]).toMatchObject({ ruleDiscount: 1000, bundleDiscount: 200, net: 800 });
    expect(both.total).toBe(800);
    // a pack that costs more than the free unit left them: the bundle does not apply
    const dear = priceCart(cart([line('0', 1, 2, 1000)], { rules: [bogo], bundles: [{ ...pair, price: 1200 }] }));
    expect(dear.appliedBundleIds).toEqual([]);
    expect(dear.total).toBe(1000);
    // 3 units, one free: 20.00 after the rule, a pack takes 2 units worth 13.33 of it
    const three = priceCart(cart([line('0', 1, 3, 1000)], { rules: [bogo], bundles: [pair] }));
    expect(three.lines[0]).toMatchObject({ ruleDiscount: 1000, bundleDiscount: 533, net: 1467 });
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
