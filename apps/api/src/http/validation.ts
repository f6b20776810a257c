import { ArgumentMetadata, BadRequestException, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { FieldErrors, ValidationFailedError } from '@pos/kernel';
import { arrayShapeOf } from './validators';
import { aliasesOf, renameErrorFields, sameJson, UNKNOWN_FIELD_MESSAGE } from './body-names';
import { cacheValidationMetadata } from './validation-metadata-cache';
import { ValidationPlans } from './validation-plan';
import { InstanceBuilder } from './instance-builder';

const REQUIRED_CONSTRAINTS = new Set(['isDefined', 'isNotEmpty', 'arrayNotEmpty']);
/** When the type is wrong, range/length messages about the same value are noise. */
const TYPE_CONSTRAINTS = new Set(['isString', 'isInt', 'isNumber', 'isBoolean', 'isArray', 'isObject', 'isDateString', 'isISO8601']);
/** A 422 names at most this many fields (a hostile body must not produce a megabyte of errors). */
export const MAX_REPORTED_ERRORS = 100;

type Dto = new () => object;

/**
 * The global pipe: whitelist + transform; failures become 422 `The given data was invalid.`
 * with Laravel-style dotted keys (`items.0.qty`) and one sentence per problem.
 *
 * Before class-transformer sees a body, `preflight` walks it against the DTO: a field the DTO
 * does not know is refused with a 422 naming it (`errors.items.0.colour: ["Unknown field."]`, as
 * the integration routes name an unknown query parameter; a misspelt `quantity` must not vanish),
 * aliases (`@AliasOf`) are renamed to their field, and an array longer than its field allows is
 * refused at once, so the cost of a hostile body is bounded by the DTO's limits, not by what the
 * client sent. Unknown query parameters are dropped (outside the integration routes).
 */
@Injectable()
export class AppValidationPipe extends ValidationPipe {
  private readonly plans = new ValidationPlans();
  private readonly instances: InstanceBuilder;

  constructor() {
    cacheValidationMetadata();
    super({
      whitelist: true,
      transform: true,
      forbidUnknownValues: false,
      transformOptions: { enableImplicitConversion: false },
      validationError: { target: false, value: true },
      exceptionFactory: (errors) => new ValidationFailedError(capErrors(flattenValidationErrors(errors))),
    });
    this.instances = new InstanceBuilder(this.transformOptions ?? {});
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // Path parameters are strings (contract part 4); IdPipe decides what a valid id is, so "0x1",
    // "1e0" or "+1" must not be turned into numbers here first.
    if (metadata.type === 'param') return value;
    const dto = metadata.metatype && metadata.metatype !== Object && isDto(metadata.metatype) ? (metadata.metatype as Dto) : undefined;
    // No body at all is an empty object (its required fields are then "required", 422); a JSON
    // body that is not an object (an array, a string, null) is 400.
    if (metadata.type === 'body' && value === undefined) value = {};
    if (metadata.type === 'body' && dto && (Array.isArray(value) || typeof value !== 'object' || value === null)) {
      throw new BadRequestException('The request body must be a JSON object.');
    }
    if (dto && (metadata.type === 'body' || metadata.type === 'query') && value && typeof value === 'object') {
      const ctx: Preflight = { errors: {}, renamed: new Map(), refuseUnknown: metadata.type === 'body' };
      const trimmed = preflight(value as Record<string, unknown>, dto, '', ctx);
      if (Object.keys(ctx.errors).length) throw new ValidationFailedError(capErrors(ctx.errors));
      const valid = this.validInstance(trimmed, dto);
      if (valid) return valid;
      try {
        return await super.transform(trimmed, metadata);
      } catch (error) {
        // An alias's own problems are named as sent (`items.0.quantity`), not by its field.
        if (error instanceof ValidationFailedError && ctx.renamed.size) throw new ValidationFailedError(renameErrorFields(error.fields, ctx.renamed));
        throw error;
      }
    }
    return super.transform(value ?? {}, metadata);
  }

  /**
   * A body or query (preflight's copy) built as the DTO's instance (instance-builder.ts:
   * class-transformer's instance, planned per class) and checked by the DTO's validation plan
   * (validation-plan.ts): the instance when both are sure it is valid, else undefined
   * (ValidationPipe then runs class-transformer and class-validator, whose errors make the 422).
   * Neither holds binary values or sparse arrays: body-parsing.ts accepts JSON only, and Express's
   * simple query parser makes strings and arrays of strings.
   */
  private validInstance(value: Record<string, unknown>, dto: Dto): object | undefined {
    const entity = this.instances.build(dto, value);
    return entity !== undefined && this.plans.validate(entity) ? entity : undefined;
  }
}

function isDto(metatype: unknown): boolean {
  return typeof metatype === 'function' && ![String, Boolean, Number, Array].includes(metatype as never);
}

const knownKeysCache = new WeakMap<Dto, Set<string>>();
function knownKeys(dto: Dto): Set<string> {
  let keys = knownKeysCache.get(dto);
  if (!keys) {
    keys = new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(dto, '', true, false)
        .map((m) => m.propertyName),
    );
    knownKeysCache.set(dto, keys);
  }
  return keys;
}

/** What `preflight` reports besides the copy: problems, and the aliases it renamed (canonical path -> sent path). */
export interface Preflight {
  errors: FieldErrors;
  renamed: Map<string, string>;
  /** A body names its unknown fields (422); a query drops them (forward compatibility). */
  refuseUnknown: boolean;
}

/**
 * A copy of `value` with the DTO's keys only, aliases renamed to their field (`quantity` ->
 * `qty`), refusing in a body a field the DTO does not know (`errors.<path>: ["Unknown field."]`),
 * an alias that contradicts its field, and arrays beyond their field's maximum.
 */
export function preflight(value: Record<string, unknown>, dto: Dto, path: string, ctx: Preflight): Record<string, unknown> {
  const known = knownKeys(dto);
  const aliases = aliasesOf(dto);
  const { errors } = ctx;
  const out: Record<string, unknown> = {};
  for (const sent of Object.keys(value)) {
    let key = sent;
    if (!known.has(sent)) {
      const canonical = aliases.get(sent);
      if (canonical === undefined) {
        if (ctx.refuseUnknown) errors[path + sent] = [UNKNOWN_FIELD_MESSAGE];
        continue;
      }
      if (canonical in value) {
        if (!sameJson(value[canonical], value[sent]))
          errors[path + sent] = [`The ${path + sent} field is an alias of ${path + canonical} and differs from it.`];
        continue;
      }
      key = canonical;
      ctx.renamed.set(path + canonical, path + sent);
    }
    const v = value[sent];
    const shape = arrayShapeOf(dto, key);
    const field = path + key;
    if (shape && Array.isArray(v)) {
      if (v.length > shape.maxItems) {
        errors[path + sent] = [`The ${path + sent} field must not have more than ${shape.maxItems} items.`];
        continue;
      }
      const nested = shape.nested?.();
      out[key] = nested
        ? v.map((el: unknown, i) =>
            el && typeof el === 'object' && !Array.isArray(el) ? preflight(el as Record<string, unknown>, nested, `${field}.${i}.`, ctx) : el,
          )
        : v;
    } else {
      out[key] = v;
    }
  }
  return out;
}

export function capErrors(errors: FieldErrors): FieldErrors {
  const keys = Object.keys(errors);
  if (keys.length <= MAX_REPORTED_ERRORS) return errors;
  return Object.fromEntries(keys.slice(0, MAX_REPORTED_ERRORS).map((k) => [k, errors[k]]));
}

export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldErrors {
  const out: FieldErrors = {};
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    if (error.constraints) {
      const entries = Object.entries(error.constraints);
      const missing = error.value === undefined || error.value === null || error.value === '';
      const required = entries.filter(([k]) => REQUIRED_CONSTRAINTS.has(k));
      const typeErrors = entries.filter(([k]) => TYPE_CONSTRAINTS.has(k));
      const chosen =
        missing && required.length ? required.slice(0, 1) : typeErrors.length ? typeErrors : entries.filter(([k]) => !REQUIRED_CONSTRAINTS.has(k) || !missing);
      out[path] = (chosen.length ? chosen : entries).map(([key, message]) => sentence(key, path, error.property, message));
    }
    if (error.children?.length) Object.assign(out, flattenValidationErrors(error.children, path));
    if (Object.keys(out).length >= MAX_REPORTED_ERRORS) break;
  }
  return out;
}

function sentence(constraint: string, path: string, property: string, message: string): string {
  if (REQUIRED_CONSTRAINTS.has(constraint)) return `The ${path} field is required.`;
  if (message.startsWith('The ')) return message; // already a full sentence from a custom message
  const rest = message.startsWith(property + ' ') ? message.slice(property.length + 1) : message;
  return `The ${path} field ${rest.replace(/\.$/, '')}.`;
}
