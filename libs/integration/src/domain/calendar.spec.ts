import fc from 'fast-check';
import { blocksOf, cover, formatDay, MAX_SPAN, parseDate, weekdayOf, ZoneCalendar } from './calendar';

describe('calendar', () => {
  it('parses strict calendar dates only', () => {
    expect(parseDate('2025-01-31')).toBe(Date.UTC(2025, 0, 31) / 86_400_000);
    expect(formatDay(parseDate('2024-02-29')!)).toBe('2024-02-29');
    for (const bad of ['2025-02-29', '2025-13-01', '2025-1-01', '20250101', '2025-01-01T00:00:00Z', '', '1969-12-31'])
      expect([bad, parseDate(bad)]).toEqual([bad, null]);
  });

  it('knows weekdays (Monday 0) and local days and hours across DST', () => {
    expect(weekdayOf(parseDate('2025-11-24')!)).toBe(0);
    expect(weekdayOf(parseDate('2025-11-23')!)).toBe(6);
    const ny = ZoneCalendar.of('America/New_York');
    // 03:30 UTC on 1 March is 22:30 the day before in New York (UTC-5); in July (UTC-4) 23:30.
    expect(ny.dayAndHour(new Date('2025-03-01T03:30:00Z'))).toEqual({ day: parseDate('2025-02-28'), hour: 22 });
    expect(ny.dayAndHour(new Date('2025-07-01T03:30:00Z'))).toEqual({ day: parseDate('2025-06-30'), hour: 23 });
    expect(ny.startOf(parseDate('2025-07-01')!).toISOString()).toBe('2025-07-01T04:00:00.000Z');
    expect(ny.startOf(parseDate('2025-01-01')!).toISOString()).toBe('2025-01-01T05:00:00.000Z');
    expect(ZoneCalendar.of('Asia/Kathmandu').dayAndHour(new Date('2025-01-01T18:15:00Z'))).toEqual({ day: parseDate('2025-01-02'), hour: 0 });
    expect(ZoneCalendar.of('Not/AZone').timeZone).toBe('UTC');
  });

  it('covers any range of days exactly, with aligned blocks each day lies in', () => {
    fc.assert(
      fc.property(fc.integer({ min: 18_000, max: 22_000 }), fc.integer({ min: 0, max: 400 }), (from, length) => {
        const to = from + length;
        const blocks = cover(from, to);
        let next = from;
        for (const b of blocks) {
          expect(b.start).toBe(next);
          expect(b.start % 2 ** b.span).toBe(0);
          expect(b.span).toBeLessThanOrEqual(MAX_SPAN);
          expect(blocksOf(b.start)[b.span]).toEqual(b);
          next += 2 ** b.span;
        }
        expect(next).toBe(to + 1);
        expect(blocks.length).toBeLessThanOrEqual(2 * MAX_SPAN + Math.ceil((length + 1) / 2 ** MAX_SPAN));
      }),
    );
  });
});
