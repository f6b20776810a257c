import { ValidationFailedError } from '@pos/kernel';
import { EpochDay, formatDay, parseDate, ZoneCalendar } from './calendar';

export const DEFAULT_DAYS = 30;
export const MAX_DAYS = 366;

export interface Period {
  from: EpochDay;
  to: EpochDay;
  days: number;
}

/**
 * The days a report covers: date_to defaults to today, date_from to the 30th day back (30 days
 * in all), in the calendar the caller chose (the store's when one store is asked, else UTC).
 * Malformed dates, date_from after date_to and spans over 366 days are 422 on the field.
 */
export function resolvePeriod(input: { dateFrom?: string; dateTo?: string }, today: EpochDay): Period {
  const errors: Record<string, string[]> = {};
  const parse = (field: 'date_from' | 'date_to', value: string | undefined): EpochDay | undefined => {
    if (value === undefined) return undefined;
    const day = parseDate(value);
    if (day === null) errors[field] = [`The ${field} must be a valid date (YYYY-MM-DD).`];
    return day ?? undefined;
  };
  const givenFrom = parse('date_from', input.dateFrom);
  const givenTo = parse('date_to', input.dateTo);
  if (Object.keys(errors).length) throw new ValidationFailedError(errors);
  const to = givenTo ?? today;
  const from = givenFrom ?? to - (DEFAULT_DAYS - 1);
  if (from > to) throw ValidationFailedError.field('date_from', `The date_from must be a date before or equal to date_to (${formatDay(to)}).`);
  const days = to - from + 1;
  if (days > MAX_DAYS)
    throw ValidationFailedError.field(givenTo !== undefined ? 'date_to' : 'date_from', `The date range may span at most ${MAX_DAYS} days (it spans ${days}).`);
  return { from, to, days };
}

/**
 * A report's calendar and its "today" for the time zones of the stores in scope: the store's own
 * when there is one (or none), else UTC with, as today, the latest of the stores' own current days.
 * Sales are filed under their store's local day, so a store east of UTC is already on the next
 * day late in the UTC evening: with UTC's today the default period (and "today" in aging and
 * dead stock) would leave out what it sold since its midnight.
 */
export function reportCalendar(timeZones: string[], now: Date): { timeZone: string; today: EpochDay } {
  if (timeZones.length === 1) {
    const own = ZoneCalendar.of(timeZones[0]);
    return { timeZone: own.timeZone, today: own.dayOf(now) };
  }
  // UTC's day too: a warehouse of no store counts its stock movements on UTC days.
  const today = Math.max(ZoneCalendar.of('UTC').dayOf(now), ...timeZones.map((z) => ZoneCalendar.of(z).dayOf(now)));
  return { timeZone: 'UTC', today };
}
