import fc from 'fast-check';
import { allocateByLargestRemainder, applyBasisPoints, fromMinor, minorToString, roundHalfAwayFromZero, toMinor } from './money';

describe('money', () => {
  it('parses decimal numbers and strings without float error', () => {
    expect(toMinor(0.1 + 0.2, 2)).toBe(30);
    expect(toMinor('19.99', 2)).toBe(1999);
    expect(toMinor(19.99, 2)).toBe(1999);
    expect(toMinor('-0.01', 2)).toBe(-1);
    expect(toMinor(1.005, 2)).toBe(101); // half away from zero on the third decimal as written
    expect(toMinor(-1.005, 2)).toBe(-101);
    expect(toMinor(1500, 0)).toBe(1500);
    expect(toMinor('12.3456', 3)).toBe(12346);
    expect(toMinor(1e-7, 2)).toBe(0);
  });

  it('refuses what is not an amount', () => {
    for (const bad of ['abc', '1,5', '', '1e5', 'NaN']) expect(() => toMinor(bad, 2)).toThrow(RangeError);
    expect(() => toMinor(Number.POSITIVE_INFINITY, 2)).toThrow(RangeError);
    expect(() => toMinor('99999999999999999999', 2)).toThrow(RangeError);
  });

  it('formats minor units with the currency decimals', () => {
    expect(fromMinor(1999, 2)).toBe(19.99);
    expect(minorToString(-5, 2)).toBe('-0.05');
    expect(minorToString(1500, 0)).toBe('1500');
    expect(fromMinor(0, 2)).toBe(0);
  });

  it('gives the number the decimal text parses to, for every safe integer and number of decimals (the division fast path is exact)', () => {
    const viaText = (minor: number, decimals: number) => Number(minorToString(minor, decimals));
    fc.assert(
      fc.property(fc.maxSafeInteger(), fc.integer({ min: 0, max: 8 }), (minor, decimals) => Object.is(fromMinor(minor, decimals), viaText(minor, decimals))),
      { numRuns: 20_000 },
    );
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: 0, max: 4 }), (minor, decimals) =>
        Object.is(fromMinor(minor, decimals), viaText(minor, decimals)),
      ),
      {
        numRuns: 20_000,
      },
    );
    for (const minor of [0, 1, -1, 5, -5, 10, 99, 101, 1999, -1999, 123456789, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER])
      for (let d = 0; d <= 8; d++) expect(Object.is(fromMinor(minor, d), viaText(minor, d))).toBe(true);
  });

  it('round-trips every integer amount', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e12, max: 1e12 }),
        fc.integer({ min: 0, max: 4 }),
        (minor, decimals) => toMinor(minorToString(minor, decimals), decimals) === minor,
      ),
    );
  });

  it('rounds half away from zero', () => {
    expect(roundHalfAwayFromZero(5n, 2n)).toBe(3n);
    expect(roundHalfAwayFromZero(-5n, 2n)).toBe(-3n);
    expect(roundHalfAwayFromZero(4n, 3n)).toBe(1n);
    expect(applyBasisPoints(1000, 825)).toBe(83); // 82.5 -> 83
    expect(applyBasisPoints(333, 3333)).toBe(111);
  });

  it('allocates by largest remainder so parts always sum to the total', () => {
    expect(allocateByLargestRemainder(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocateByLargestRemainder(-100, [1, 1, 1])).toEqual([-34, -33, -33]);
    expect(allocateByLargestRemainder(10, [0, 0])).toEqual([10, 0]);
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), fc.array(fc.integer({ min: 0, max: 1e7 }), { minLength: 1, maxLength: 50 }), (total, weights) => {
        const parts = allocateByLargestRemainder(total, weights);
        const sum = parts.reduce((a, b) => a + b, 0);
        const sameSign = parts.every((p) => p === 0 || Math.sign(p) === Math.sign(total));
        return sum === total && parts.length === weights.length && sameSign;
      }),
    );
  });
});

describe('amountToMinor', () => {
  const { amountToMinor, decimalPlaces, ValidationFailedError } = jest.requireActual('./index') as typeof import('./index');
  it('reads JSON amounts with the currency decimals and refuses finer ones naming the field', () => {
    expect(amountToMinor(12.5, 2, 'amount')).toBe(1250);
    expect(amountToMinor(387, 0, 'total_amount')).toBe(387);
    for (const [v, d] of [
      [387.5, 0],
      [1.005, 2],
      [1e-7, 2],
    ] as const) {
      const e = (() => {
        try {
          return amountToMinor(v, d, 'payments.0.amount');
        } catch (error) {
          return error;
        }
      })();
      expect(e).toBeInstanceOf(ValidationFailedError);
      expect(Object.keys((e as InstanceType<typeof ValidationFailedError>).fields)).toEqual(['payments.0.amount']);
    }
    expect(decimalPlaces(1e-7)).toBe(7);
    expect(decimalPlaces(100)).toBe(0);
  });
});
