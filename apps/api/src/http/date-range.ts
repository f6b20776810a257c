/**
 * Date-range query parameters (`date_from`/`date_to`, `from`/`to`) as half-open instants
 * [start, end). A date-only value (YYYY-MM-DD) names a whole UTC day: the start is its
 * midnight, and the end is the next day's midnight, so `date_to` includes the day it names.
 * A full date-time is taken as given. The DTOs have validated the format already.
 */
const DATE_ONLY = 10; // 'YYYY-MM-DD'.length

/** The first instant of a range: midnight UTC of a date-only value, or the date-time itself. */
export function dayStart(date: string | undefined): Date | undefined {
  return date ? new Date(date.length === DATE_ONLY ? `${date}T00:00:00Z` : date) : undefined;
}

/** The (exclusive) end of a range: the day after a date-only value, so that day is included; a date-time as given. */
export function dayEnd(date: string | undefined): Date | undefined {
  if (!date) return undefined;
  const d = new Date(date.length === DATE_ONLY ? `${date}T00:00:00Z` : date);
  if (date.length === DATE_ONLY) d.setUTCDate(d.getUTCDate() + 1);
  return d;
}

/**
 * The last instant of a date-only value (23:59:59.999 UTC), a date-time as given: for validity
 * windows stored with an inclusive end (rules' and bundles' valid_to), unlike query ranges above.
 */
export function lastInstantOfDay(date: string): Date {
  return new Date(date.length === DATE_ONLY ? `${date}T23:59:59.999Z` : date);
}
