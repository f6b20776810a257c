import type { Flags } from './command';
import { utcDayOf } from '@pos/kernel';
import { CliRefusal, EXIT } from './errors';

/** Flag value readers: each refuses a bad value with one line naming the flag (the API's rules). */

export function str(flags: Flags, name: string): string | undefined {
  const v = flags[name];
  return typeof v === 'string' ? v : undefined;
}

/** A required text flag, trimmed, at most `max` characters (the API DTO's limit). */
export function text(flags: Flags, name: string, max = 255): string {
  const v = str(flags, name)?.trim();
  if (!v) throw new CliRefusal(`--${name} must not be empty`);
  if (v.length > max) throw new CliRefusal(`--${name} must be at most ${max} characters`);
  if ([...v].some((ch) => ch.charCodeAt(0) < 32 || ch.charCodeAt(0) === 127)) throw new CliRefusal(`--${name} must not contain control characters`);
  return v;
}

/** A whole number in [min, max], or undefined when the flag is absent. */
export function int(flags: Flags, name: string, o: { min?: number; max?: number } = {}): number | undefined {
  const v = str(flags, name);
  if (v === undefined) return undefined;
  const min = o.min ?? 0;
  if (!/^\d+$/.test(v) || Number(v) < min || (o.max !== undefined && Number(v) > o.max))
    throw new CliRefusal(`--${name} must be a whole number${o.max !== undefined ? ` from ${min} to ${o.max}` : ` of at least ${min}`} (got "${v}")`);
  return Number(v);
}

/** A calendar day (YYYY-MM-DD, a real date) as its UTC epoch day, or undefined when the flag is absent. */
export function utcDay(flags: Flags, name: string): number | undefined {
  const v = str(flags, name);
  if (v === undefined) return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  const at = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  if (!m || new Date(at).toISOString().slice(0, 10) !== v) throw new CliRefusal(`--${name} must be a date YYYY-MM-DD (got "${v}")`);
  return utcDayOf(new Date(at));
}

/** Comma-separated ids (store ids). */
export function ids(flags: Flags, name: string): number[] {
  const v = str(flags, name);
  if (v === undefined || v.trim() === '') return [];
  return v.split(',').map((s) => {
    const t = s.trim();
    if (!/^\d+$/.test(t) || Number(t) < 1) throw new CliRefusal(`--${name} must be comma-separated ids (got "${t}")`);
    return Number(t);
  });
}

/** A comma-separated list whose every entry is one of `allowed` (the list the API validates against). */
export function oneOfList(flags: Flags, name: string, allowed: readonly string[], what: string, maxItems = 200): string[] {
  const list = [
    ...new Set(
      (str(flags, name) ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  if (!list.length) throw new CliRefusal(`--${name} must name at least one ${what}`);
  if (list.length > maxItems) throw new CliRefusal(`--${name} takes at most ${maxItems} ${what}s`);
  const unknown = list.filter((p) => !allowed.includes(p));
  if (unknown.length)
    throw new CliRefusal(
      `unknown ${what}${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `"${u}"`).join(', ')} in --${name} (known: ${allowed.join(', ')})`,
      EXIT.refused,
    );
  return list;
}
