import { DAY_MS, nextUtcMonth, utcDayOf, utcMonthOf } from './utc-days';

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;

describe('UTC days and months', () => {
  it('puts an instant on its UTC day, whatever the hour', () => {
    expect(utcDayOf(new Date('1970-01-01T00:00:00Z'))).toBe(0);
    expect(utcDayOf(new Date('2026-11-25T23:59:59.999Z'))).toBe(day('2026-11-25'));
    expect(utcDayOf(new Date('1969-12-31T23:00:00Z'))).toBe(-1);
  });

  it('names a month by its first day and finds the next one, across years and leap days', () => {
    expect(utcMonthOf(day('2026-11-25'))).toBe(day('2026-11-01'));
    expect(utcMonthOf(day('2026-11-01'))).toBe(day('2026-11-01'));
    expect(utcMonthOf(day('2026-11-30'))).toBe(day('2026-11-01'));
    expect(nextUtcMonth(day('2026-12-31'))).toBe(day('2027-01-01'));
    expect(utcMonthOf(day('2028-02-29'))).toBe(day('2028-02-01'));
    expect(nextUtcMonth(day('2028-02-29'))).toBe(day('2028-03-01'));
    expect(nextUtcMonth(day('2026-01-01'))).toBe(day('2026-02-01'));
  });
});
