import { ClassTransformOptions, TransformationType, TransformFnParams } from 'class-transformer';
import { defaultOptions } from 'class-transformer/cjs/constants/default-options.constant';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';

type Dto = new () => object;
type Plain = Record<string, unknown>;
type TransformFn = (params: TransformFnParams) => unknown;

/** One field of a DTO as class-transformer turns it into the instance's property. */
interface FieldPlan {
  /** The class named by @Type (built as an instance), or none: the value is copied as JSON. */
  nested?: Dto;
  /** Its @Transform functions, in class-transformer's order. */
  transforms: TransformFn[];
  /** A method or read-only accessor of the class: class-transformer leaves it alone. */
  kept: boolean;
}

/** A class's fields as they are met (null: not modelled), or null when the class uses what a plan does not model. */
type ClassPlan = { dto: Dto; sample: Plain; fields: Map<string, FieldPlan | null> } | null;

/** Keys never copied: class-transformer skips the first two, Nest's pipe strips all three before it. */
const DROPPED = new Set(['__proto__', 'constructor', 'prototype']);
/** The keys class-transformer never copies into a plain object either: Object.prototype's own. */
const PLAIN_SKIPPED = new Set([...Object.getOwnPropertyNames(Object.prototype), ...DROPPED]);
/** Classes class-transformer converts to rather than builds: a @Type naming one is not modelled. */
const CONVERTED = new Set<unknown>([String, Number, Boolean, Date, Buffer, Map, Set, Promise, Object, Array]);
/** The options a plan models: class-transformer's defaults with implicit conversion off (the pipe's). */
const MODELLED: ClassTransformOptions = { ...defaultOptions, enableImplicitConversion: false };
const NOT_SURE = Symbol('not sure');

/**
 * `plainToInstance` for a body or a query, planned once per DTO class: what AppValidationPipe did
 * before validating one (Nest's closeArrayGaps and stripProtoKeys, then class-transformer)
 * without walking class-transformer's metadata for every key of every object (51 objects for a
 * 50-line cart). A plan keeps, per field, the @Type class and the @Transform functions, and
 * builds the same instance: `new Dto()`, the body's keys in their order, nested DTOs built the
 * same way, every other value copied as class-transformer copies JSON (arrays and plain objects
 * anew, without Object.prototype's names, `__proto__`, `constructor` and `prototype`), then the
 * field's transforms called with the arguments class-transformer passes.
 *
 * It answers the instance or "not sure" (undefined): a class with @Expose, @Exclude, a
 * discriminator or a @Type that converts (Date, String...), a nested DTO field holding arrays of
 * anything but objects. "Not sure" sends the input through class-transformer itself. The input is
 * never changed. It is given preflight's copy (validation.ts), which holds the class's own fields
 * only, so a class's field plans are bounded by its fields. instance-builder.spec.ts checks, over
 * every DTO of the API and generated bodies and queries, that an instance built is
 * class-transformer's.
 */
export class InstanceBuilder {
  private readonly plans = new Map<Dto, ClassPlan>();
  private readonly options: ClassTransformOptions;

  constructor(options: ClassTransformOptions) {
    this.options = { ...defaultOptions, ...options };
    const differs = (Object.keys(this.options) as (keyof ClassTransformOptions)[]).filter((k) => this.options[k] !== MODELLED[k]);
    if (differs.length) throw new Error(`InstanceBuilder does not model the class-transformer options ${differs.join(', ')}`);
  }

  /** The instance class-transformer would build from `input` (preflight's copy), or undefined when not sure. */
  build(dto: Dto, input: Plain): object | undefined {
    const built = this.object(dto, input);
    return built === NOT_SURE ? undefined : built;
  }

  private object(dto: Dto, plain: Plain): object | typeof NOT_SURE {
    const plan = this.planOf(dto);
    if (!plan) return NOT_SURE;
    const out = new dto() as Plain;
    for (const key of Object.keys(plain)) {
      if (DROPPED.has(key)) continue;
      const field = fieldOf(plan, key);
      if (!field) return NOT_SURE;
      if (field.kept) continue;
      let value = field.nested ? this.nested(field.nested, plain[key]) : copy(plain[key]);
      if (value === NOT_SURE) return NOT_SURE;
      for (const transform of field.transforms) value = transform({ value, key, obj: plain, type: TransformationType.PLAIN_TO_CLASS, options: this.options });
      out[key] = value;
    }
    return out;
  }

  /** A @Type field: an object or an array of objects built as the class; a scalar stays as it is (class-validator refuses it). */
  private nested(dto: Dto, value: unknown): unknown {
    if (!Array.isArray(value)) return isPlainObject(value) ? this.object(dto, value) : typeof value === 'object' && value !== null ? NOT_SURE : value;
    const out: unknown[] = [];
    for (const element of value) {
      if (!isPlainObject(element)) return NOT_SURE;
      const built = this.object(dto, element);
      if (built === NOT_SURE) return NOT_SURE;
      out.push(built);
    }
    return out;
  }

  private planOf(dto: Dto): ClassPlan {
    let plan = this.plans.get(dto);
    if (plan === undefined) {
      plan = classPlan(dto);
      this.plans.set(dto, plan);
    }
    return plan;
  }
}

function classPlan(dto: Dto): ClassPlan {
  const storage = defaultMetadataStorage;
  if (storage.getStrategy(dto) !== 'none' || storage.getExposedMetadatas(dto).length || storage.getExcludedMetadatas(dto).length) return null;
  return { dto, sample: new dto() as Plain, fields: new Map() };
}

function fieldOf(plan: NonNullable<ClassPlan>, key: string): FieldPlan | null {
  let field = plan.fields.get(key);
  if (field === undefined) {
    field = fieldPlan(plan, key);
    plan.fields.set(key, field);
  }
  return field;
}

/** What class-transformer does with `key` of the class's bodies (PLAIN_TO_CLASS, no groups, no version), or null if not modelled. */
function fieldPlan({ dto, sample }: NonNullable<ClassPlan>, key: string): FieldPlan | null {
  const storage = defaultMetadataStorage;
  const type = storage.findTypeMetadata(dto, key);
  let nested: Dto | undefined;
  if (type) {
    if (type.options?.discriminator || !type.typeFunction || type.typeFunction.length > 0) return null;
    if (type.reflectedType !== undefined && type.reflectedType !== Array && type.reflectedType !== Object) return null;
    const target = type.typeFunction() as Dto;
    if (typeof target !== 'function' || CONVERTED.has(target)) return null;
    nested = target;
  }
  const transforms = storage
    .findTransformMetadatas(dto, key, TransformationType.PLAIN_TO_CLASS)
    .filter((m) => !m.options?.groups?.length)
    .map((m) => m.transformFn as TransformFn);
  const own = Object.getOwnPropertyDescriptor(dto.prototype, key);
  return { nested, transforms, kept: Boolean(own && !own.set) || sample[key] instanceof Function };
}

function isPlainObject(value: unknown): value is Plain {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}

/** A JSON value as class-transformer copies one that has no @Type. */
function copy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copy);
  const out: Plain = {};
  for (const key of Object.keys(value)) if (!PLAIN_SKIPPED.has(key)) out[key] = copy((value as Plain)[key]);
  return out;
}
