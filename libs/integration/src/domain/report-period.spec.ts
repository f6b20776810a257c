import { ValidationFailedError } from '@pos/kernel';
import { parseDate } from './calendar';
import { reportCalendar, resolvePeriod } from './report-period';

const today = parseDate('2025-06-30')!;
const fields = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return Object.keys((e as ValidationFailedError).fields);
  }
  return [];
};

describe('report period', () => {
  it('defaults to the last 30 days ending today', () => {
    expect(resolvePeriod({}, today)).toEqual({ from: today - 29, to: today, days: 30 });
    expect(resolvePeriod({ dateTo: '2025-01-31' }, today)).toEqual({ from: parseDate('2025-01-02'), to: parseDate('2025-01-31'), days: 30 });
    expect(resolvePeriod({ dateFrom: '2025-06-01' }, today)).toEqual({ from: parseDate('2025-06-01'), to: today, days: 30 });
    expect(resolvePeriod({ dateFrom: '2024-07-01', dateTo: '2025-07-01' }, today).days).toBe(366);
  });

  it('refuses malformed dates, reversed ranges and spans over 366 days, naming the field', () => {
    expect(fields(() => resolvePeriod({ dateFrom: '2025-02-30' }, today))).toEqual(['date_from']);
    expect(fields(() => resolvePeriod({ dateFrom: 'x', dateTo: 'y' }, today))).toEqual(['date_from', 'date_to']);
    expect(fields(() => resolvePeriod({ dateFrom: '2025-06-02', dateTo: '2025-06-01' }, today))).toEqual(['date_from']);
    expect(fields(() => resolvePeriod({ dateFrom: '2024-06-30', dateTo: '2025-07-01' }, today))).toEqual(['date_to']);
    expect(fields(() => resolvePeriod({ dateFrom: '2023-01-01' }, today))).toEqual(['date_from']);
  });
});

describe('reportCalendar', () => {
  // 23:30 UTC on 2025-06-30: New York is still on the 30th, Berlin is on 1 July.
  const lateUtc = new Date('2025-06-30T23:30:00Z');

  it("is one store's own calendar and day", () => {
    expect(reportCalendar(['Europe/Berlin'], lateUtc)).toEqual({ timeZone: 'Europe/Berlin', today: parseDate('2025-07-01') });
    expect(reportCalendar(['America/New_York'], lateUtc)).toEqual({ timeZone: 'America/New_York', today: parseDate('2025-06-30') });
  });

  it("is UTC for several stores, with the latest store's day as today (what Berlin sold since its midnight is in)", () => {
    expect(reportCalendar(['America/New_York', 'Europe/Berlin'], lateUtc)).toEqual({ timeZone: 'UTC', today: parseDate('2025-07-01') });
    expect(reportCalendar(['America/New_York', 'America/Los_Angeles'], lateUtc)).toEqual({ timeZone: 'UTC', today: parseDate('2025-06-30') });
    expect(reportCalendar([], lateUtc)).toEqual({ timeZone: 'UTC', today: parseDate('2025-06-30') });
  });
});
