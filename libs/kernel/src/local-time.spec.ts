import { localDateTime } from './local-time';

describe('localDateTime', () => {
  it("gives a New York store's wall clock with its offset, the same instant as UTC", () => {
    const at = new Date('2026-11-25T16:32:05.600Z');
    const t = localDateTime(at, 'America/New_York');
    expect(t).toEqual({ iso: '2026-11-25T11:32:05-05:00', printed: '2026-11-25 11:32', timeZone: 'America/New_York' });
    expect(new Date(t.iso).getTime()).toBe(Math.floor(at.getTime() / 1000) * 1000);
  });

  it('follows daylight saving time and half-hour zones, and falls back to UTC for an unknown zone', () => {
    expect(localDateTime(new Date('2026-07-01T16:32:00Z'), 'America/New_York').iso).toBe('2026-07-01T12:32:00-04:00');
    expect(localDateTime(new Date('2026-07-01T16:32:00Z'), 'Asia/Kolkata').iso).toBe('2026-07-01T22:02:00+05:30');
    expect(localDateTime(new Date('2026-07-01T16:32:00Z'), 'Not/AZone')).toEqual({ iso: '2026-07-01T16:32:00Z', printed: '2026-07-01 16:32', timeZone: 'UTC' });
    expect(localDateTime(new Date('2026-07-01T23:59:00Z'), 'Pacific/Auckland').printed).toBe('2026-07-02 11:59');
  });
});
