import fc from 'fast-check';
import { discountsBeyondLimits, PricedLineFacts } from './discount-policy';
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

describe('tax exemption rule', () => {
  it('needs a customer or a reason', () => {
    expect(exemptionProblem({ taxExempt: true, hasCustomer: false })).toMatchObject({ field: 'tax_exempt_reason' });
    expect(exemptionProblem({ taxExempt: true, hasCustomer: false, reason: '  ' })).not.toBeNull();
    expect(exemptionProblem({ taxExempt: true, hasCustomer: true })).toBeNull();
    expect(exemptionProblem({ taxExempt: true, hasCustomer: false, reason: 'Embassy' })).toBeNull();
    expect(exemptionProblem({ taxExempt: false, hasCustomer: false })).toBeNull();
  });
});
