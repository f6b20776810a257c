import { dayEnd, dayStart, lastInstantOfDay } from './date-range';

describe('date-range query parameters', () => {
  it('a date-only value names a whole UTC day: start at its midnight, end at the next', () => {
    expect(dayStart('2026-03-14')?.toISOString()).toBe('2026-03-14T00:00:00.000Z');
    expect(dayEnd('2026-03-14')?.toISOString()).toBe('2026-03-15T00:00:00.000Z');
  });

  it('the end of a date-only range rolls over months, years and leap days', () => {
    expect(dayEnd('2026-01-31')?.toISOString()).toBe('2026-02-01T00:00:00.000Z');
    expect(dayEnd('2025-12-31')?.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(dayEnd('2028-02-28')?.toISOString()).toBe('2028-02-29T00:00:00.000Z');
  });

  it('a date-time is taken as given at both ends (its offset honoured)', () => {
    expect(dayStart('2026-03-14T10:30:00Z')?.toISOString()).toBe('2026-03-14T10:30:00.000Z');
    expect(dayEnd('2026-03-14T10:30:00Z')?.toISOString()).toBe('2026-03-14T10:30:00.000Z');
    expect(dayEnd('2026-03-14T23:00:00+02:00')?.toISOString()).toBe('2026-03-14T21:00:00.000Z');
  });

  it('no value or an empty one is no bound', () => {
    expect(dayStart(undefined)).toBeUndefined();
    expect(dayEnd(undefined)).toBeUndefined();
    expect(dayStart('')).toBeUndefined();
    expect(dayEnd('')).toBeUndefined();
  });

  it('an inclusive validity end: the last millisecond of a date-only day, a date-time as given', () => {
    expect(lastInstantOfDay('2026-03-14').toISOString()).toBe('2026-03-14T23:59:59.999Z');
    expect(lastInstantOfDay('2026-03-14T10:30:00+01:00').toISOString()).toBe('2026-03-14T09:30:00.000Z');
  });
});
