/**
 * Calendar arithmetic for reports, pure. A business day is a date in a store's time zone, kept as
 * an epoch day number (days since 1970-01-01): sortable, compact, and free of the drivers' DATE
 * handling. Offsets come from Intl (IANA zones, DST included); every zone's offset is a multiple
 * of 15 minutes, so a 15-minute slot of UTC maps to one local day and hour and is cached.
 */
export type EpochDay = number;

export const DAY_MS = 86_400_000;
const SLOT_MS = 15 * 60_000;

/** A strict YYYY-MM-DD calendar date to its epoch day; null when malformed or not a real date. */
export function parseDate(value: string): EpochDay | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (y < 1970 || back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return ms / DAY_MS;
}

const formatted = new Map<EpochDay, string>();

/** YYYY-MM-DD of an epoch day (kept: a year of report rows formats the same few hundred days). */
export function formatDay(day: EpochDay): string {
  let text = formatted.get(day);
  if (text === undefined) {
    text = new Date(day * DAY_MS).toISOString().slice(0, 10);
    if (formatted.size > 100_000) formatted.clear();
    formatted.set(day, text);
  }
  return text;
}

/** ISO weekday index: 0 Monday ... 6 Sunday (1970-01-01 was a Thursday). */
export function weekdayOf(day: EpochDay): number {
  return (((day + 3) % 7) + 7) % 7;
}

export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

/** Local days and hours of one IANA time zone (unknown zones fall back to UTC). */
export class ZoneCalendar {
  private static readonly zones = new Map<string, ZoneCalendar>();
  private readonly slots = new Map<number, { day: EpochDay; hour: number }>();
  private readonly format: Intl.DateTimeFormat;

  private constructor(readonly timeZone: string) {
    this.format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      hourCycle: 'h23',
    });
  }

  static of(timeZone: string | null | undefined): ZoneCalendar {
    const asked = timeZone || 'UTC';
    let cal = ZoneCalendar.zones.get(asked);
    if (!cal) {
      cal = isValidZone(asked) ? new ZoneCalendar(asked) : ZoneCalendar.of('UTC');
      ZoneCalendar.zones.set(asked, cal);
    }
    return cal;
  }

  /** The local day and hour (0-23) of an instant. */
  dayAndHour(at: Date): { day: EpochDay; hour: number } {
    const slot = Math.floor(at.getTime() / SLOT_MS);
    let hit = this.slots.get(slot);
    if (!hit) {
      const wall = this.wallClockMs(slot * SLOT_MS);
      hit = { day: Math.floor(wall / DAY_MS), hour: Math.floor((wall % DAY_MS) / 3_600_000) };
      if (this.slots.size > 200_000) this.slots.clear();
      this.slots.set(slot, hit);
    }
    return hit;
  }

  dayOf(at: Date): EpochDay {
    return this.dayAndHour(at).day;
  }

  /** The instant local midnight starts this day (DST-safe: the offset is re-read at the guess). */
  startOf(day: EpochDay): Date {
    const wall = day * DAY_MS;
    let guess = wall - this.offsetMs(wall);
    guess = wall - this.offsetMs(guess);
    return new Date(guess);
  }

  private offsetMs(instant: number): number {
    return this.wallClockMs(instant) - instant;
  }

  /** The local wall-clock time of an instant, as if it were UTC milliseconds. */
  private wallClockMs(instant: number): number {
    const p: Record<string, number> = {};
    for (const part of this.format.formatToParts(new Date(instant))) if (part.type !== 'literal') p[part.type] = Number(part.value);
    return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) + (instant % 60_000);
  }
}

function isValidZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Dyadic time blocks: a block of span s covers 2^s days starting at a multiple of 2^s. Every day
 * lies in one block of each span, so a rollup kept per block of every span answers any range of
 * days with at most about 2 log2(n) blocks (`cover`) instead of n daily rows.
 */
export const MAX_SPAN = 8; // up to 256-day blocks: a 366-day range needs at most ~16 blocks

export interface Block {
  span: number;
  start: EpochDay;
}

/** The block of each span (0..MAX_SPAN) a day lies in. */
export function blocksOf(day: EpochDay): Block[] {
  const out: Block[] = [];
  for (let span = 0; span <= MAX_SPAN; span++) {
    const size = 2 ** span;
    out.push({ span, start: day - (((day % size) + size) % size) });
  }
  return out;
}

/** The fewest aligned blocks exactly covering [from, to] (inclusive), largest first where they fit. */
export function cover(from: EpochDay, to: EpochDay): Block[] {
  const out: Block[] = [];
  let day = from;
  while (day <= to) {
    let span = MAX_SPAN;
    while (span > 0 && (day % 2 ** span !== 0 || day + 2 ** span - 1 > to)) span--;
    out.push({ span, start: day });
    day += 2 ** span;
  }
  return out;
}
