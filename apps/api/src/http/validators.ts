import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsEmail,
  IsIn,
  IsISO8601,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';

/**
 * Composed field decorators so every DTO states a field the same way (validation + OpenAPI).
 * Query strings arrive as strings: the numeric and boolean helpers convert them strictly
 * ("12abc" stays invalid, "true"/"1" and "false"/"0" are the only booleans).
 */
interface StringOpts {
  max?: number;
  min?: number;
  example?: string;
  description?: string;
  email?: boolean;
  in?: readonly string[];
  /** default true; false for passwords */ trim?: boolean;
  /** optional, but when given not blank (names on update) */ nonEmpty?: boolean;
}

/** Surrounding whitespace is never meaningful (except in secrets): "   " is an empty value. */
const trimmed = Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));
const trimmedEach = Transform(({ value }: { value: unknown }) =>
  Array.isArray(value) ? value.map((v: unknown) => (typeof v === 'string' ? v.trim() : v)) : value,
);

function stringRules(o: StringOpts) {
  return [
    IsString(),
    ...(o.nonEmpty ? [IsNotEmpty()] : []),
    MaxLength(o.max ?? 255),
    ...(o.min ? [MinLength(o.min)] : []),
    ...(o.email ? [IsEmail({}, { message: '$property must be a valid email address' })] : []),
    ...(o.in ? [IsIn(o.in as string[])] : []),
  ];
}

export const RequiredString = (o: StringOpts = {}) =>
  applyDecorators(
    ApiProperty({ type: String, maxLength: o.max ?? 255, example: o.example, description: o.description, enum: o.in }),
    ...(o.trim === false ? [] : [trimmed]),
    IsDefined(),
    IsNotEmpty(),
    ...stringRules(o),
  );

export const OptionalString = (o: StringOpts = {}) =>
  applyDecorators(
    ApiPropertyOptional({ type: String, maxLength: o.max ?? 255, example: o.example, description: o.description, enum: o.in }),
    ...(o.trim === false ? [] : [trimmed]),
    IsOptional(),
    ...stringRules(o),
  );

interface IntOpts {
  min?: number;
  max?: number;
  description?: string;
  example?: number;
}

const toNumber = Transform(({ value }: { value: unknown }) => {
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  return value;
});

function intRules(o: IntOpts) {
  return [IsInt(), Min(o.min ?? 1), Max(o.max ?? 2_147_483_647)];
}

export const RequiredInt = (o: IntOpts = {}) =>
  applyDecorators(
    ApiProperty({ type: Number, minimum: o.min ?? 1, maximum: o.max, description: o.description, example: o.example }),
    toNumber,
    IsDefined(),
    ...intRules(o),
  );

export const OptionalInt = (o: IntOpts = {}) =>
  applyDecorators(
    ApiPropertyOptional({ type: Number, minimum: o.min ?? 1, maximum: o.max, description: o.description, example: o.example }),
    toNumber,
    IsOptional(),
    ...intRules(o),
  );

export const OptionalBoolean = (description?: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: Boolean, description }),
    Transform(({ value }: { value: unknown }) => {
      if (value === 'true' || value === '1' || value === 1) return true;
      if (value === 'false' || value === '0' || value === 0) return false;
      return value;
    }),
    IsOptional(),
    IsBoolean(),
  );

export const RequiredStringArray = (o: { maxItems?: number; max?: number; in?: readonly string[]; description?: string } = {}) =>
  applyDecorators(
    ApiProperty({ type: [String], description: o.description, enum: o.in }),
    trimmedEach,
    IsDefined(),
    IsArray(),
    ArrayMaxSize(o.maxItems ?? 200),
    IsString({ each: true }),
    MaxLength(o.max ?? 255, { each: true }),
    ...(o.in ? [IsIn(o.in as string[], { each: true })] : []),
  );

export const OptionalIntArray = (o: { maxItems?: number; description?: string } = {}) =>
  applyDecorators(
    ApiPropertyOptional({ type: [Number], description: o.description }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(o.maxItems ?? 200),
    IsInt({ each: true }),
    Min(1, { each: true }),
    Max(2_147_483_647, { each: true }),
  );

export { Type };

interface MoneyOpts {
  description?: string;
  max?: number;
  min?: number;
}

/** A money amount as a JSON number with at most 2 decimals (converted to minor units by the use case). */
export const OptionalMoney = (o: MoneyOpts = {}) =>
  applyDecorators(
    ApiPropertyOptional({ type: Number, minimum: o.min ?? 0, maximum: o.max ?? 99_999_999.99, description: o.description, example: 12.5 }),
    toNumber,
    IsOptional(),
    IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 }, { message: '$property must be a number with at most 2 decimal places' }),
    Min(o.min ?? 0),
    Max(o.max ?? 99_999_999.99),
  );

export const RequiredMoney = (o: MoneyOpts = {}) =>
  applyDecorators(
    ApiProperty({ type: Number, minimum: o.min ?? 0, maximum: o.max ?? 99_999_999.99, description: o.description, example: 12.5 }),
    toNumber,
    IsDefined(),
    IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 }, { message: '$property must be a number with at most 2 decimal places' }),
    Min(o.min ?? 0),
    Max(o.max ?? 99_999_999.99),
  );

export const OptionalStringArray = (o: { maxItems?: number; max?: number; description?: string } = {}) =>
  applyDecorators(
    ApiPropertyOptional({ type: [String], description: o.description }),
    trimmedEach,
    IsOptional(),
    IsArray(),
    ArrayMaxSize(o.maxItems ?? 200),
    IsString({ each: true }),
    IsNotEmpty({ each: true }),
    MaxLength(o.max ?? 255, { each: true }),
  );

/** An ISO 8601 date or date-time in a query string (YYYY-MM-DD or full timestamp). */
export const OptionalDate = (description?: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: String, format: 'date', description }),
    IsOptional(),
    IsISO8601({ strict: true }, { message: '$property must be a valid date (YYYY-MM-DD)' }),
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
