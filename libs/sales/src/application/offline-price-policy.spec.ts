import fc from 'fast-check';
import { judgeOfflinePrices, OfflineLineFacts } from './offline-price-policy';

const limits = { maxPercentBp: 1000, maxAmount: 2000 };
const line = (over: Partial<OfflineLineFacts> = {}): OfflineLineFacts => ({
  line: 0,
  itemId: 7,
  quantity: 1,
  unitPrice: 1249,
  manualDiscount: 0,
  referenceUnitPrice: 1249,
  referenceAmount: 1249,
  ...over,
});
const none = () => undefined;

describe('judgeOfflinePrices', () => {
  it('leaves a line charged at or above its reference alone', () => {
    expect(judgeOfflinePrices([line(), line({ unitPrice: 1300 })], limits, none)).toEqual([]);
  });

  it('takes a price below the reference within the limits, and flags one beyond them', () => {
    const [small] = judgeOfflinePrices([line({ unitPrice: 1199 })], limits, none);
    expect(small).toMatchObject({ amount: 1199, difference: 50, percentBp: 400, decision: 'within_limits', approvedBy: null });
    const [penny] = judgeOfflinePrices([line({ unitPrice: 1 })], limits, none);
    expect(penny).toMatchObject({ amount: 1, difference: 1248, percentBp: 9992, decision: 'beyond_limits' });
  });

  it('counts the line discount with the markdown, as at the till', () => {
    // 0.50 below the reference and 1.00 off the line: 1.50 of 12.49 (12.0%) is beyond 10%
    const [j] = judgeOfflinePrices([line({ unitPrice: 1199, manualDiscount: 100 })], limits, none);
    expect(j).toMatchObject({ amount: 1099, difference: 150, percentBp: 1201, decision: 'beyond_limits' });
  });

  it('judges the whole line against a reference holding savings no unit price shows (buy 2 get 1)', () => {
    // 3 x 1.00 with one free: reference 2.00; charged 3 x 0.60 = 1.80 is 0.20 (10%) below it
    const [j] = judgeOfflinePrices([line({ quantity: 3, unitPrice: 60, referenceUnitPrice: 100, referenceAmount: 200 })], limits, none);
    expect(j).toMatchObject({ amount: 180, difference: 20, percentBp: 1000, decision: 'within_limits' });
  });

  it('asks an approval for exactly the markdown beyond the limits: approved, or flagged when the token does not verify', () => {
    const asked: unknown[] = [];
    const [ok] = judgeOfflinePrices([line({ unitPrice: 1 })], limits, (l, item, d) => (asked.push([l, item, d]), 42));
    expect(ok).toMatchObject({ decision: 'approved', approvedBy: 42 });
    expect(asked).toEqual([[0, 7, { type: 'amount', value: 1248 }]]);
    const [bad] = judgeOfflinePrices([line({ unitPrice: 1 })], limits, () => null);
    expect(bad.decision).toBe('approval_invalid');
  });

  it('never lets a line below its reference pass unjudged, and flags exactly what exceeds the limits', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 200_000 }), (qty, unit, reference) => {
        const [j] = judgeOfflinePrices([line({ quantity: qty, unitPrice: unit, referenceAmount: reference })], limits, none);
        if (unit * qty >= reference) return j === undefined;
        const within = j.difference <= limits.maxAmount && Math.round((j.difference * 10000) / reference) <= limits.maxPercentBp;
        return j.difference === reference - unit * qty && j.decision === (within ? 'within_limits' : 'beyond_limits');
      }),
    );
  });
});
