import { nextPriceBoundary } from './live-price.service';
import { RuleRecord } from './pricing.ports';
import { PriceBookWithScope } from './reference.ports';

const rule = (conditions: RuleRecord['conditions']) => ({ conditions }) as RuleRecord;
const book = (validFrom: Date | null, validTo: Date | null) => ({ validFrom, validTo }) as PriceBookWithScope;
const NOW = Date.parse('2026-11-26T10:15:42.250Z');

describe('nextPriceBoundary', () => {
  it('is never while no rule or book has a window or hours', () => {
    expect(nextPriceBoundary([rule({}), rule({ itemIds: [1] })], [book(null, null)], NOW)).toBe(Infinity);
  });

  it("is a window's start still to come, or the moment after its end (validTo is inclusive)", () => {
    const from = new Date(NOW + 5_000);
    expect(nextPriceBoundary([rule({ validFrom: from })], [], NOW)).toBe(from.getTime());
    expect(nextPriceBoundary([rule({ validFrom: new Date(NOW - 1), validTo: new Date(NOW + 9_000) })], [], NOW)).toBe(NOW + 9_001);
    expect(nextPriceBoundary([rule({ validTo: new Date(NOW) })], [], NOW)).toBe(NOW + 1);
    // past windows change nothing any more
    expect(nextPriceBoundary([rule({ validFrom: new Date(NOW - 9), validTo: new Date(NOW - 2) })], [], NOW)).toBe(Infinity);
    expect(nextPriceBoundary([], [book(new Date(NOW + 7), null), book(null, new Date(NOW + 3))], NOW)).toBe(NOW + 4);
  });

  it('is the next whole minute when a rule has days or hours, the earliest of all', () => {
    const minute = Date.parse('2026-11-26T10:16:00.000Z');
    expect(nextPriceBoundary([rule({ startTime: '09:00' })], [], NOW)).toBe(minute);
    expect(nextPriceBoundary([rule({ endTime: '17:00' })], [], NOW)).toBe(minute);
    expect(nextPriceBoundary([rule({ daysOfWeek: [1] })], [], NOW)).toBe(minute);
    expect(nextPriceBoundary([rule({ daysOfWeek: [1] }), rule({ validTo: new Date(NOW + 100) })], [], NOW)).toBe(NOW + 101);
    expect(nextPriceBoundary([rule({ daysOfWeek: [] })], [], NOW)).toBe(Infinity);
  });
});
