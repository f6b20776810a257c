import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  Matches,
  MinLength,
  ValidateBy,
  ValidationOptions,
} from 'class-validator';
import { MAX_CURRENCY_DECIMALS } from '@pos/kernel';
import { INT32_MAX } from './array-validators';
import { isIdentifierField, IsSafeEmail, IsSafeText, stripInvisible } from './text-safety';

export * from './text-safety';
export * from './array-validators';

/**
 * Composed field decorators so every DTO states a field the same way (validation + OpenAPI).
 *
 * Conventions they carry (README "Conventions"):
 * - Query strings arrive as strings: the numeric and boolean helpers convert them strictly
 *   ("12abc" stays invalid, "true"/"1" and "false"/"0" are the only booleans). Numeric strings are
 *   accepted in bodies too ("12.50").
 * - null: an optional field sent as null is the same as leaving it out, except fields declared
 *   `nullable` (documented so in OpenAPI), where null has its stated meaning (clear the value).
 *   A required field sent as null is "required" (422).
 * - Text: no C0 control characters (tab/newline only in multi-line text), no bidirectional
 *   override/isolate characters, no unpaired UTF-16 surrogates (the databases store and read such
 *   strings back differently). Surrounding whitespace is trimmed (except secrets).
 * - Invisible characters: identifiers (SKUs, barcodes, codes, emails, keys, serial numbers: told
 *   by the field's name, text-safety.ts) refuse every format character with a 422 naming the
 *   field; names and other free text have the meaningless ones (soft hyphen, zero-width space,
 *   word joiner, BOM) stripped before validation, as trimming does. Secrets are never touched.
 * - Money: a number (or numeric string). Here at most MAX_CURRENCY_DECIMALS decimals, checked
 *   without `toString().split('.')` so 1e-7 is "at most 4 decimal places", never a crash; the use
 *   case, which knows the currency, holds it to that currency's decimals (`amountToMinor`).
 *   Percents (2 decimals) and exchange rates (8) say their scale.
 */
interface StringOpts {
  max?: number;
  min?: number;
  example?: string;
  description?: string;
  email?: boolean;
  in?: readonly string[];
  /** default true; false for passwords and other secrets */ trim?: boolean;
  /** optional, but when given not blank (names on update) */ nonEmpty?: boolean;
  /** tabs and line breaks allowed (notes, descriptions, addresses) */ multiline?: boolean;
  /** secrets (passwords, PINs, signed tokens): no text-safety rule, nothing is stored as typed */ raw?: boolean;
  /** null is accepted and means "clear" (documented as nullable) */ nullable?: boolean;
  /** an identifier (no invisible formatting at all) although its name does not say so; false: free text although it does */
  identifier?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Transforms
// ---------------------------------------------------------------------------------------------

/** null -> undefined (not given) unless the field is nullable; then strips invisible characters and trims strings when asked. */
function normalise(o: { nullable?: boolean; trim?: boolean; strip?: boolean }) {
  return Transform(({ value }: { value: unknown }) => {
    if (value === null) return o.nullable ? null : undefined;
    if (typeof value !== 'string') return value;
    const visible = o.strip ? stripInvisible(value) : value;
    return o.trim ? visible.trim() : visible;
  });
}

const NUMERIC_STRING = /^-?\d{1,20}(\.\d{1,20})?$/;

/** "12" / "12.50" -> number; null -> undefined (unless nullable); anything else stays for the validators to refuse. */
function toNumber(o: { nullable?: boolean } = {}) {
  return Transform(({ value }: { value: unknown }) => {
    if (value === null) return o.nullable ? null : undefined;
    if (typeof value === 'string' && NUMERIC_STRING.test(value.trim())) return Number(value);
    return value;
  });
}

// ---------------------------------------------------------------------------------------------
// Strings
// ---------------------------------------------------------------------------------------------

/**
 * A string field's decorators, made once its name is known: whether it is an identifier (refuse
 * invisible formatting) or free text (strip it) follows from the name unless `identifier` says.
 */
function stringField(o: StringOpts, make: (identifier: boolean) => PropertyDecorator): PropertyDecorator {
  return (target, key) => make(o.identifier ?? (!!o.email || isIdentifierField(String(key))))(target, key);
}

function stringRules(o: StringOpts, identifier: boolean) {
  return [
    IsString(),
    ...(o.nonEmpty ? [IsNotEmpty()] : []),
    MaxLength(o.max ?? 255),
    ...(o.min ? [MinLength(o.min)] : []),
    ...(o.raw ? [] : [IsSafeText(o.multiline ?? false, undefined, identifier)]),
    ...(o.email ? [IsSafeEmail()] : []),
    ...(o.in ? [IsIn(o.in as string[])] : []),
  ];
}

function stringDocs(o: StringOpts, required: boolean) {
  return {
    type: String,
    maxLength: o.max ?? 255,
    minLength: o.min ?? (required || o.nonEmpty ? 1 : undefined),
    example: o.example,
    description: o.description,
    enum: o.in as string[] | undefined,
    format: o.email ? 'email' : undefined,
    nullable: o.nullable || undefined,
  };
}

export const RequiredString = (o: StringOpts = {}) =>
  stringField(o, (identifier) =>
    applyDecorators(
      ApiProperty(stringDocs(o, true)),
      normalise({ trim: o.trim !== false, strip: !o.raw && !identifier }),
      IsDefined(),
      IsNotEmpty(),
      ...stringRules(o, identifier),
    ),
  );

export const OptionalString = (o: StringOpts = {}) =>
  stringField(o, (identifier) =>
    applyDecorators(
      ApiPropertyOptional(stringDocs(o, false)),
      normalise({ nullable: o.nullable, trim: o.trim !== false, strip: !o.raw && !identifier }),
      IsOptional(),
      ...stringRules(o, identifier),
    ),
  );

// ---------------------------------------------------------------------------------------------
// Integers and booleans
// ---------------------------------------------------------------------------------------------

interface IntOpts {
  min?: number;
  max?: number;
  description?: string;
  example?: number;
  /** null is accepted and means "clear" (documented as nullable) */ nullable?: boolean;
}

function intRules(o: IntOpts) {
  return [IsInt(), Min(o.min ?? 1), Max(o.max ?? INT32_MAX)];
}

function intDocs(o: IntOpts) {
  return {
    type: 'integer',
    format: 'int32',
    minimum: o.min ?? 1,
    maximum: o.max ?? INT32_MAX,
    description: o.description,
    example: o.example,
    nullable: o.nullable || undefined,
  } as const;
}

export const RequiredInt = (o: IntOpts = {}) => applyDecorators(ApiProperty(intDocs(o)), toNumber(), IsDefined(), ...intRules(o));

export const OptionalInt = (o: IntOpts = {}) => applyDecorators(ApiPropertyOptional(intDocs(o)), toNumber(o), IsOptional(), ...intRules(o));

export const OptionalBoolean = (description?: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: Boolean, description }),
    Transform(({ value }: { value: unknown }) => {
      if (value === null) return undefined;
      if (value === 'true' || value === '1' || value === 1) return true;
      if (value === 'false' || value === '0' || value === 0) return false;
      return value;
    }),
    IsOptional(),
    IsBoolean(),
  );

// ---------------------------------------------------------------------------------------------
// Money and decimals
// ---------------------------------------------------------------------------------------------

export const MONEY_MAX = 99_999_999.99;

/** Decimal places of a finite number as written in JSON, exponent form included (1e-7 -> 7). */
export function decimalPlaces(value: number): number {
  if (!Number.isFinite(value)) return Number.POSITIVE_INFINITY;
  const [mantissa, exponent = '0'] = value.toString().toLowerCase().split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent));
}

/** A finite number with at most `decimals` decimal places, between min and max. */
export const IsDecimal = (o: { decimals: number; min: number; max: number }, options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isDecimal',
      constraints: [o.decimals, o.min, o.max],
      validator: {
        validate: (value: unknown) =>
          typeof value === 'number' && Number.isFinite(value) && decimalPlaces(value) <= o.decimals && value >= o.min && value <= o.max,
        defaultMessage: (args) => {
          const v = args?.value;
          if (typeof v !== 'number' || !Number.isFinite(v)) return '$property must be a number';
          if (decimalPlaces(v) > o.decimals) return `$property must be a number with at most ${o.decimals} decimal places`;
          if (v < o.min) return `$property must not be less than ${o.min}`;
          return `$property must not be greater than ${o.max}`;
        },
      },
    },
    options,
  );

interface MoneyOpts {
  description?: string;
  max?: number;
  min?: number;
  /** decimal places: percents 2, exchange rates 8; money leaves it out (its currency decides, in the use case) */ decimals?: number;
  /** above zero: at least the currency's smallest unit (0.01 USD, 1 JPY, 0.001 KWD), held by the use case */ positive?: boolean;
  example?: number;
}

const CURRENCY_SCALE = "At most the currency's decimal places (USD 2, JPY 0, KWD 3; more: 422).";

function moneyDocs(o: MoneyOpts) {
  const decimals = o.decimals ?? MAX_CURRENCY_DECIMALS;
  return {
    type: 'number',
    minimum: o.min ?? 0,
    ...(o.positive ? { exclusiveMinimum: true } : {}),
    maximum: o.max ?? MONEY_MAX,
    multipleOf: Number((10 ** -decimals).toFixed(decimals)),
    description: [o.description, o.decimals === undefined ? CURRENCY_SCALE : `At most ${decimals} decimal places.`].filter(Boolean).join(' '),
    example: o.example ?? 12.5,
  } as const;
}

function moneyRules(o: MoneyOpts) {
  const rules = [IsDecimal({ decimals: o.decimals ?? MAX_CURRENCY_DECIMALS, min: o.min ?? 0, max: o.max ?? MONEY_MAX })];
  return o.positive ? [...rules, IsPositiveAmount()] : rules;
}

/** Above zero (what IsDecimal's inclusive minimum cannot say); the currency's scale makes it at least one minor unit. */
const IsPositiveAmount = () =>
  ValidateBy({
    name: 'isPositiveAmount',
    validator: {
      validate: (value: unknown) => value !== 0, // below zero is IsDecimal's minimum
      defaultMessage: () => '$property must be greater than 0',
    },
  });

/**
 * A money amount as a JSON number. Its currency is known only to the use case (the store's, the
 * catalog's), which converts it with `amountToMinor`: this layer takes up to MAX_CURRENCY_DECIMALS.
 */
export const OptionalMoney = (o: MoneyOpts = {}) => applyDecorators(ApiPropertyOptional(moneyDocs(o)), toNumber(), IsOptional(), ...moneyRules(o));

export const RequiredMoney = (o: MoneyOpts = {}) => applyDecorators(ApiProperty(moneyDocs(o)), toNumber(), IsDefined(), ...moneyRules(o));

/** A percentage 0-100 with at most 2 decimals (basis points). */
export const OptionalPercent = (o: { description?: string } = {}) =>
  OptionalMoney({ max: 100, decimals: 2, description: [o.description, 'Percent, 0 to 100.'].filter(Boolean).join(' '), example: 10 });

// ---------------------------------------------------------------------------------------------
// Dates
// ---------------------------------------------------------------------------------------------

const DATE_MIN = Date.UTC(1000, 0, 1);
const DATE_MAX = Date.UTC(9999, 11, 31, 23, 59, 59);

/**
 * The forms of ISO 8601 the API takes for a date: YYYY-MM-DD, or that with a time (hours and
 * minutes, optional seconds and fraction) and an optional zone. ISO 8601's other forms (basic
 * 20261128, week 2026-W48-5, ordinal 2026-332) pass class-validator's IsISO8601 but are not what
 * JavaScript's Date reads: they were taken and then failed (a 500) or were ignored as filters.
 */
const DATE_FORM = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** DATE_FORM for the OpenAPI document. */
export const API_DATE_PATTERN = DATE_FORM.source;

/** Within what both databases store (MySQL DATETIME: years 1000 to 9999). */
export const IsStorableDate = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isStorableDate',
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string') return true; // the ISO 8601 rule reports it
          const t = new Date(value.length === 10 ? `${value}T00:00:00Z` : value).getTime();
          return Number.isNaN(t) || (t >= DATE_MIN && t <= DATE_MAX);
        },
        defaultMessage: () => '$property must be between 1000-01-01 and 9999-12-31',
      },
    },
    options,
  );

/** An ISO 8601 date or date-time (YYYY-MM-DD or full timestamp). */
export const OptionalDate = (description?: string) =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      format: 'date',
      pattern: API_DATE_PATTERN,
      description: [description, 'YYYY-MM-DD or an ISO 8601 timestamp.'].filter(Boolean).join(' '),
    }),
    normalise({ trim: true }),
    IsOptional(),
    IsApiDate(),
  );

/** A real date in one of the API's forms (DATE_FORM) that both databases can store. */
export const IsApiDate = () =>
  applyDecorators(
    IsISO8601({ strict: true }, { message: '$property must be a valid date (YYYY-MM-DD)' }),
    Matches(DATE_FORM, { message: '$property must be a date (YYYY-MM-DD) or a date-time (YYYY-MM-DDTHH:MM[:SS][Z|±HH:MM])' }),
    IsStorableDate(),
  );

const toId = Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^\s*[1-9]\d{0,9}\s*$/.test(value) ? Number(value) : value));
const idRules = () => [
  IsInt({ message: '$property must be an id (a positive whole number, as a number or a string of digits)' }),
  Min(1, { message: '$property must be an id (a positive whole number, as a number or a string of digits)' }),
  Max(2_147_483_647, { message: '$property must be an id (a positive whole number, as a number or a string of digits)' }),
];

/** A record id that the contract types as a string: a string of digits or a positive integer, converted to a number. */
export const RequiredId = (o: { description?: string; example?: string } = {}) =>
  applyDecorators(
    ApiProperty({
      oneOf: [
        { type: 'string', pattern: '^[1-9][0-9]{0,9}$' },
        { type: 'integer', minimum: 1 },
      ],
      description: o.description,
      example: o.example ?? '42',
    }),
    toId,
    IsDefined(),
    ...idRules(),
  );

export const OptionalId = (o: { description?: string; example?: string } = {}) =>
  applyDecorators(
    ApiPropertyOptional({
      oneOf: [
        { type: 'string', pattern: '^[1-9][0-9]{0,9}$' },
        { type: 'integer', minimum: 1 },
      ],
      description: o.description,
      example: o.example ?? '3',
    }),
    toId,
    IsOptional(),
    ...idRules(),
  );
