import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, ValidateBy, ValidationOptions } from 'class-validator';

/** YYYY-MM-DDTHH:MM[:SS[.fraction]] with Z or an offset: an instant, never a local time. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;
const MIN = Date.UTC(1970, 0, 1);
const MAX = Date.UTC(9999, 11, 31, 23, 59, 59);
/** Says the range too: a real instant before 1970 is refused with it (it read as "not a date-time"). */
export const DATE_TIME_MESSAGE = '$property must be an ISO 8601 date-time with a time zone (e.g. 2026-01-31T09:30:00Z), from 1970 to 9999';

/** The instant `value` names, or null when it is not an ISO 8601 date-time with a zone (or not a real date). */
export function parseDateTime(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const m = DATE_TIME.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi, se] = m.map(Number);
  const calendar = new Date(Date.UTC(y, mo - 1, d));
  if (calendar.getUTCMonth() !== mo - 1 || calendar.getUTCDate() !== d || h > 23 || mi > 59 || (se || 0) > 59) return null;
  const t = new Date(value).getTime();
  return Number.isNaN(t) || t < MIN || t > MAX ? null : new Date(t);
}

const IsDateTime = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isDateTime',
      validator: {
        validate: (value: unknown) => value instanceof Date,
        defaultMessage: () => DATE_TIME_MESSAGE,
      },
    },
    options,
  );

/**
 * An optional instant (query or body): an ISO 8601 date-time with `Z` or an offset, from 1970 to
 * 9999, converted to a Date. A date alone or a time without a zone is refused (422): the server's
 * time zone must never decide what a partner meant.
 */
export const OptionalDateTime = (description?: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: String, format: 'date-time', description, example: '2026-01-31T09:30:00Z' }),
    Transform(({ value }: { value: unknown }) =>
      value === null || value === undefined ? undefined : (parseDateTime(typeof value === 'string' ? value.trim() : value) ?? value),
    ),
    IsOptional(),
    IsDateTime(),
  );
