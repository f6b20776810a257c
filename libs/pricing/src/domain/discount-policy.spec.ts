import fc from 'fast-check';
import { approvedAmount, discountsBeyondLimits, judgedDiscount, PricedLineFacts } from './discount-policy';
import { priceCart } from './pricing-engine';
import { Discount } from './pricing.types';
import { exemptionProblem } from './tax-exemption';

const limits = { maxPercentBp: 1000, maxAmount: 2000 };
const line = (extra: Partial<PricedLineFacts> = {}): PricedLineFacts => ({
  quantity: 1,
  serverUnitPrice: 349,
  unitPrice: 349,
  manualDiscount: 0,
  cartDiscount: 0,
  net: 349,
  ...extra,
});

describe('discount policy', () => {
  it('judges a percent discount by the percent asked, not its rounded effect (10% of 3.49 is 0.35 = 10.03%)', () => {
    const r = discountsBeyondLimits([line({ manualDiscount: 35, net: 314, requested: { type: 'percent', valueBp: 1000 } })], undefined, limits);
    expect(r.lines).toEqual([null]);
  });

  it('counts a price typed below the server price as a manual discount, asked as an amount', () => {
    const r = discountsBeyondLimits([line({ unitPrice: 249, net: 249 })], undefined, limits);
    expect(r.lines[0]).toEqual({ discount: { type: 'amount', value: 100 }, percentBp: 2865, amount: 100 });
  });

  it('judges the cart discount against the lines before it', () => {
    const lines = [line({ serverUnitPrice: 10000, unitPrice: 10000, cartDiscount: 1500, net: 8500 })];
    expect(discountsBeyondLimits(lines, { type: 'percent', valueBp: 1500 }, limits).cart).toMatchObject({ percentBp: 1500, amount: 1500 });
    expect(discountsBeyondLimits(lines, { type: 'percent', valueBp: 1500 }, { maxPercentBp: 1500, maxAmount: 1500 }).cart).toBeNull();
  });

  it('never asks approval for a discount within both limits', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 0, max: 100 }), (price, pct) => {
        const amount = Math.round((price * pct) / 100);
        const r = discountsBeyondLimits(
          [line({ serverUnitPrice: price, unitPrice: price, manualDiscount: amount, net: price - amount, requested: { type: 'percent', valueBp: pct * 100 } })],
          undefined,
          limits,
        );
        const within = amount === 0 || (pct * 100 <= limits.maxPercentBp && amount <= limits.maxAmount);
        return within === (r.lines[0] === null);
      }),
    );
  });
});

describe('approved amount (what an approval token covers)', () => {
  it('takes a percent of its base as the engine does, half away from zero, never more than the base', () => {
    expect(approvedAmount({ type: 'percent', valueBp: 1000 }, 5000)).toBe(500);
    expect(approvedAmount({ type: 'percent', valueBp: 3000 }, 1999)).toBe(600); // 599.7
    expect(approvedAmount({ type: 'percent', valueBp: 1000 }, 5)).toBe(1); // 0.5 rounds up
    expect(approvedAmount({ type: 'percent', valueBp: 10000 }, 387)).toBe(387);
  });

  it('covers an amount discount by its value, at most a base given; a percent without a base covers nothing', () => {
    expect(approvedAmount({ type: 'amount', value: 1550 }, undefined)).toBe(1550);
    expect(approvedAmount({ type: 'amount', value: 1550 }, 1000)).toBe(1000);
    expect(approvedAmount({ type: 'percent', valueBp: 1000 }, undefined)).toBeNull();
  });

  it('judges a percent by the percent, an amount by its share of the base', () => {
    expect(judgedDiscount({ type: 'percent', valueBp: 3000 }, 60000, 200000)).toEqual({ percentBp: 3000, amount: 60000 });
    expect(judgedDiscount({ type: 'amount', value: 6000 }, 6000, 10000)).toEqual({ percentBp: 6000, amount: 6000 });
    expect(judgedDiscount({ type: 'amount', value: 6000 }, 6000, undefined)).toEqual({ percentBp: 0, amount: 6000 });
  });

  it('equals the discount checkout computes for a line whose amount before it is the base (so an approval covers exactly its cart)', () => {
    const discountArb: fc.Arbitrary<Discount> = fc.oneof(
      fc.integer({ min: 0, max: 10000 }).map((valueBp) => ({ type: 'percent' as const, valueBp })),
      fc.integer({ min: 0, max: 500_000 }).map((value) => ({ type: 'amount' as const, value })),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: 50 }), discountArb, fc.boolean(), (price, quantity, d, inclusive) => {
        const priced = priceCart({
          context: { storeId: 1, customerGroupId: null, at: new Date('2026-11-18T15:00:00Z'), timeZone: 'UTC', pricesIncludeTax: inclusive, taxExempt: false },
          lines: [{ key: 'a', itemId: 1, categoryId: null, quantity, basePrice: price, priceBooks: [], taxRateBp: 825, manualDiscount: d }],
          rules: [],
          bundles: [],
        });
        return priced.lines[0].manualDiscount === approvedAmount(d, price * quantity);
      }),
    );
  });
});

describe('tax exemption rule', () => {
  it('needs a customer or a reason', () => {
    expect(exemptionProblem({ taxExempt: true, hasCustomer: false })).toMatchObject({ field: 'tax_exempt_reason' });
    expect(exemptionProblem({ taxExempt: true, hasCustomer: false, reason: '  ' })).not.toBeNull();
    expect(exemptionProblem({ taxExempt: true, hasCustomer: true })).toBeNull();
    expect(exemptionProblem({ taxExempt: true, hasCustomer: false, reason: 'Embassy' })).toBeNull();
    expect(exemptionProblem({ taxExempt: false, hasCustomer: false })).toBeNull();
  });
});
