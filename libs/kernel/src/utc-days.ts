/**
 * UTC calendar days as integers (days since 1970-01-01), the key of the sales feeds' counts, and
 * the UTC months they roll up into (a month is named by its first day).
 */
export const DAY_MS = 86_400_000;

/** The UTC day an instant falls on. */
export function utcDayOf(at: Date): number {
  return Math.floor(at.getTime() / DAY_MS);
}

/** The first day of the UTC month that `day` falls in. */
export function utcMonthOf(day: number): number {
  const d = new Date(day * DAY_MS);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / DAY_MS;
}

/** The first day of the UTC month after the one that `day` falls in. */
export function nextUtcMonth(day: number): number {
  const d = new Date(day * DAY_MS);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / DAY_MS;
}
