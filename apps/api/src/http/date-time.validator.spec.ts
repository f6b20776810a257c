import { parseDateTime } from './date-time.validator';

describe('parseDateTime: an instant, never a local time', () => {
  it('accepts ISO 8601 date-times with Z or an offset', () => {
    expect(parseDateTime('2026-01-31T09:30:00Z')?.toISOString()).toBe('2026-01-31T09:30:00.000Z');
    expect(parseDateTime('2026-01-31T09:30Z')?.toISOString()).toBe('2026-01-31T09:30:00.000Z');
    expect(parseDateTime('2026-01-31T09:30:00.123Z')?.toISOString()).toBe('2026-01-31T09:30:00.123Z');
    expect(parseDateTime('2026-01-31T10:30:00+01:00')?.toISOString()).toBe('2026-01-31T09:30:00.000Z');
    expect(parseDateTime('2026-01-31T04:30:00-0500')?.toISOString()).toBe('2026-01-31T09:30:00.000Z');
  });

  it('refuses a date alone, a time without a zone, impossible dates and anything else', () => {
    for (const value of [
      '2026-01-31',
      '2026-01-31T09:30:00',
      '2026-02-30T09:30:00Z',
      '2026-13-01T09:30:00Z',
      '2026-01-31T24:00:00Z',
      '2026-01-31T09:60:00Z',
      '1969-12-31T23:59:59Z',
      'yesterday',
      '',
      ' 2026-01-31T09:30:00Z',
      1769851800000,
      null,
    ]) {
      expect([value, parseDateTime(value)]).toEqual([value, null]);
    }
  });
});
