/**
 * When rules and bundles apply: validity windows and the store's local weekday and time of day
 * (rules with days of week and hours; windows may cross midnight). Pure.
 */
export type Validity = 'active' | 'upcoming' | 'expired';

/** Where a validity window stands at a moment: not started yet, running, or over (both ends inclusive). */
export function validityAt(window: { validFrom?: Date | null; validTo?: Date | null }, at: Date): Validity {
  if (window.validFrom && at < window.validFrom) return 'upcoming';
  if (window.validTo && at > window.validTo) return 'expired';
  return 'active';
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** Day of week (0 = Sunday) and minutes after midnight at `at` in the time zone. */
export function localTime(at: Date, timeZone: string): { dayOfWeek: number; minutes: number } {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formatters.set(timeZone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(at).map((p) => [p.type, p.value]));
  return { dayOfWeek: WEEKDAYS.indexOf(parts.weekday), minutes: Number(parts.hour) * 60 + Number(parts.minute) };
}

export function withinWindow(minutes: number, start?: string, end?: string): boolean {
  const s = start ? toMinutes(start) : 0;
  const e = end ? toMinutes(end) : 24 * 60;
  return s <= e ? minutes >= s && minutes < e : minutes >= s || minutes < e;
}

function toMinutes(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + m;
}
