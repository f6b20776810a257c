/**
 * Wall-clock time of an instant in an IANA time zone, for what people read (receipts): the ISO
 * 8601 form with the zone's offset (`2026-11-25T11:32:05-05:00`, the same instant as the UTC
 * form machines exchange) and a short printed form (`2026-11-25 11:32`). An unknown zone is UTC.
 */
export interface LocalDateTime {
  iso: string;
  printed: string;
  timeZone: string;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
      });
    } catch {
      return formatOf('UTC');
    }
    if (formats.size > 1_000) formats.clear();
    formats.set(timeZone, f);
  }
  return f;
}

export function localDateTime(at: Date, timeZone: string | null | undefined): LocalDateTime {
  const zone = timeZone || 'UTC';
  const format = formatOf(zone);
  const p: Record<string, string> = {};
  for (const part of format.formatToParts(at)) if (part.type !== 'literal') p[part.type] = part.value;
  const wall = `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
  const offsetMinutes = Math.round((Date.parse(`${wall}Z`) - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const offset = offsetMinutes === 0 ? 'Z' : `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return { iso: wall + offset, printed: `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`, timeZone: format.resolvedOptions().timeZone };
}
