import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsSafeText } from './text-safety';

export const INT32_MAX = 2_147_483_647;

const trimmedEach = Transform(({ value }: { value: unknown }) => {
  if (value === null) return undefined;
  return Array.isArray(value) ? value.map((v: unknown) => (typeof v === 'string' ? v.trim() : v)) : value;
});

// ---------------------------------------------------------------------------------------------
// Arrays
// ---------------------------------------------------------------------------------------------

/**
 * Array limits recorded per DTO property so the validation pipe can refuse an oversized array
 * (and drop unknown keys) before class-transformer builds an object per element: 100,000 empty
 * checkout lines are one 422 in milliseconds, not 100,000 validated objects.
 */
export interface ArrayShape {
  maxItems: number;
  nested?: () => new () => object;
}
const ARRAY_SHAPES = Symbol('ARRAY_SHAPES');

function recordArrayShape(shape: ArrayShape): PropertyDecorator {
  return (target: object, key: string | symbol) => {
    const own: Map<string | symbol, ArrayShape> = Reflect.hasOwnMetadata(ARRAY_SHAPES, target)
      ? (Reflect.getOwnMetadata(ARRAY_SHAPES, target) as Map<string | symbol, ArrayShape>)
      : new Map();
    own.set(key, shape);
    Reflect.defineMetadata(ARRAY_SHAPES, own, target);
  };
}

/** The array limit of a DTO property (the nearest declaration up the class chain). */
export function arrayShapeOf(cls: new () => object, key: string): ArrayShape | undefined {
  for (let proto: object | null = cls.prototype as object; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    const own = Reflect.getOwnMetadata(ARRAY_SHAPES, proto) as Map<string | symbol, ArrayShape> | undefined;
    const shape = own?.get(key);
    if (shape) return shape;
  }
  return undefined;
}

interface ArrayOpts {
  minItems?: number;
  maxItems?: number;
  description?: string;
}

/** An array of nested DTOs, validated element by element; errors keyed `field.N.sub`. */
export const NestedArray = (type: () => new () => object, o: ArrayOpts & { required: boolean; maxItems: number }) =>
  applyDecorators(
    // `type: () => ...` written here so the function is named "type": how @nestjs/swagger recognises a lazy type.
    (o.required ? ApiProperty : ApiPropertyOptional)({
      type: () => type(),
      isArray: true,
      minItems: o.minItems,
      maxItems: o.maxItems,
      description: o.description,
    }),
    recordArrayShape({ maxItems: o.maxItems, nested: type }),
    Transform(({ value }: { value: unknown }) => (value === null ? undefined : value)),
    o.required ? IsDefined() : IsOptional(),
    IsArray(),
    ...(o.minItems ? [ArrayMinSize(o.minItems)] : []),
    ArrayMaxSize(o.maxItems),
    ValidateNested({ each: true }),
    Type(type),
  );

export const RequiredStringArray = (o: { maxItems?: number; max?: number; in?: readonly string[]; description?: string } = {}) =>
  applyDecorators(
    ApiProperty({
      type: String,
      isArray: true,
      maxItems: o.maxItems ?? 200,
      description: o.description,
      enum: o.in as string[] | undefined,
      ...(o.in ? {} : { items: { type: 'string', minLength: 1, maxLength: o.max ?? 255 } }),
    }),
    recordArrayShape({ maxItems: o.maxItems ?? 200 }),
    trimmedEach,
    IsDefined(),
    IsArray(),
    ArrayMaxSize(o.maxItems ?? 200),
    IsString({ each: true }),
    MaxLength(o.max ?? 255, { each: true }),
    IsSafeText(false, { each: true }),
    ...(o.in ? [IsIn(o.in as string[], { each: true })] : []),
  );

export const OptionalStringArray = (o: { maxItems?: number; max?: number; description?: string } = {}) =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      isArray: true,
      maxItems: o.maxItems ?? 200,
      description: o.description,
      items: { type: 'string', minLength: 1, maxLength: o.max ?? 255 },
    }),
    recordArrayShape({ maxItems: o.maxItems ?? 200 }),
    trimmedEach,
    IsOptional(),
    IsArray(),
    ArrayMaxSize(o.maxItems ?? 200),
    IsString({ each: true }),
    IsNotEmpty({ each: true }),
    MaxLength(o.max ?? 255, { each: true }),
    IsSafeText(false, { each: true }),
  );

export const OptionalIntArray = (o: { maxItems?: number; min?: number; max?: number; description?: string } = {}) =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      isArray: true,
      maxItems: o.maxItems ?? 200,
      description: o.description,
      items: { type: 'integer', format: 'int32', minimum: o.min ?? 1, maximum: o.max ?? INT32_MAX },
    }),
    recordArrayShape({ maxItems: o.maxItems ?? 200 }),
    Transform(({ value }: { value: unknown }) => (value === null ? undefined : value)),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(o.maxItems ?? 200),
    IsInt({ each: true }),
    Min(o.min ?? 1, { each: true }),
    Max(o.max ?? INT32_MAX, { each: true }),
  );

export { Type };
