import fc from 'fast-check';
import { addClaim, LineClaims, lineRefund, NO_CLAIMS, SoldLine } from './refund-amounts';

/** A sale line as recorded in either tax mode (the books: net before tax, net + tax = total). */
const soldLine = fc
  .record({
    quantity: fc.integer({ min: 1, max: 60 }),
    base: fc.integer({ min: 0, max: 10_000_000 }),
    tax: fc.integer({ min: 0, max: 2_000_000 }),
    unitCost: fc.integer({ min: 0, max: 100_000 }),
  })
  .map(({ quantity, base, tax, unitCost }): SoldLine => ({ quantity, total: base + tax, tax, unitCost }));

/** Splits n into random positive parts. */
const partition = (n: number) =>
  fc.array(fc.integer({ min: 1, max: n }), { minLength: 1, maxLength: n }).map((sizes) => {
    const parts: number[] = [];
    let left = n;
    for (const s of sizes) {
      if (left === 0) break;
      const take = Math.min(s, left);
      parts.push(take);
      left -= take;
    }
    if (left > 0) parts.push(left);
    return parts;
  });

describe('lineRefund', () => {
  it('refunds each unit what it cost, the last unit taking the remainder', () => {
    // 3 units for 10.00 with 0.76 tax (tax-exclusive): 3.33 + 3.34 + 3.33
    const line: SoldLine = { quantity: 3, total: 1000, tax: 76, unitCost: 250 };
    let claims = NO_CLAIMS;
    const refunds = [1, 1, 1].map((q) => {
      const r = lineRefund(line, claims, q);
      claims = addClaim(claims, q, r);
      return r;
    });
    expect(refunds).toEqual([
      { net: 308, tax: 25, total: 333, cost: 250 },
      { net: 308, tax: 26, total: 334, cost: 250 },
      { net: 308, tax: 25, total: 333, cost: 250 },
    ]);
    expect(lineRefund(line, NO_CLAIMS, 3)).toEqual({ net: 924, tax: 76, total: 1000, cost: 750 });
  });

  it('refunds the net before tax in a tax-inclusive store too (one definition of refund_net)', () => {
    // 2 x 5.375 with 7.5% inside: the line recorded net 10.00, tax 0.75, total 10.75
    const line: SoldLine = { quantity: 2, total: 1075, tax: 75, unitCost: 0 };
    expect(lineRefund(line, NO_CLAIMS, 1)).toEqual({ net: 500, tax: 38, total: 538, cost: 0 });
    expect(lineRefund(line, { quantity: 1, total: 538, tax: 38 }, 1)).toEqual({ net: 500, tax: 37, total: 537, cost: 0 });
  });

  it('refuses more units than are left, and non-positive quantities', () => {
    const line: SoldLine = { quantity: 2, total: 200, tax: 0, unitCost: 0 };
    expect(() => lineRefund(line, { quantity: 2, total: 200, tax: 0 }, 1)).toThrow(RangeError);
    expect(() => lineRefund(line, NO_CLAIMS, 0)).toThrow(RangeError);
    expect(() => lineRefund(line, NO_CLAIMS, 1.5)).toThrow(RangeError);
  });

  it('partial returns add up exactly to the line, each within a minor unit of its share, never negative', () => {
    fc.assert(
      fc.property(
        soldLine.chain((line) => fc.tuple(fc.constant(line), partition(line.quantity))),
        ([line, parts]) => {
          let claims: LineClaims = NO_CLAIMS;
          let total = 0;
          let tax = 0;
          let net = 0;
          for (const q of parts) {
            const r = lineRefund(line, claims, q);
            expect(r.total).toBeGreaterThanOrEqual(0);
            expect(r.tax).toBeGreaterThanOrEqual(0);
            expect(r.net).toBeGreaterThanOrEqual(0);
            expect(r.tax).toBeLessThanOrEqual(r.total);
            expect(r.total).toBeLessThanOrEqual(line.total - claims.total);
            // within one minor unit (per part: the amount without tax, and the tax) of the exact share
            const exactBase = ((line.total - line.tax) * q) / line.quantity;
            const exactTax = (line.tax * q) / line.quantity;
            expect(Math.abs(r.total - r.tax - exactBase)).toBeLessThanOrEqual(1);
            expect(Math.abs(r.tax - exactTax)).toBeLessThanOrEqual(1);
            expect(r.cost).toBe(line.unitCost * q);
            claims = addClaim(claims, q, r);
            total += r.total;
            tax += r.tax;
            net += r.net;
          }
          expect(total).toBe(line.total);
          expect(tax).toBe(line.tax);
          expect(net).toBe(line.total - line.tax);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('cancelled returns give their units back and the rest still adds up exactly, never above the line', () => {
    const step = fc.record({ cancel: fc.boolean(), pick: fc.nat(), size: fc.integer({ min: 1, max: 60 }) });
    fc.assert(
      fc.property(soldLine, fc.array(step, { maxLength: 30 }), (line, steps) => {
        let claims: LineClaims = NO_CLAIMS;
        const live: { q: number; total: number; tax: number }[] = [];
        for (const s of steps) {
          if (s.cancel && live.length) {
            const [gone] = live.splice(s.pick % live.length, 1);
            claims = addClaim(claims, gone.q, gone, -1);
            continue;
          }
          const left = line.quantity - claims.quantity;
          if (left === 0) continue;
          const q = 1 + (s.size % left);
          const r = lineRefund(line, claims, q);
          expect(Math.min(r.total, r.tax, r.net)).toBeGreaterThanOrEqual(0);
          claims = addClaim(claims, q, r);
          live.push({ q, total: r.total, tax: r.tax });
          expect(claims.total).toBeLessThanOrEqual(line.total);
          expect(claims.tax).toBeLessThanOrEqual(line.tax);
        }
        const left = line.quantity - claims.quantity;
        if (left > 0) {
          const r = lineRefund(line, claims, left);
          live.push({ q: left, total: r.total, tax: r.tax });
        }
        expect(live.reduce((a, r) => a + r.total, 0)).toBe(line.total);
        expect(live.reduce((a, r) => a + r.tax, 0)).toBe(line.tax);
      }),
      { numRuns: 500 },
    );
  });
});
