import { ArgumentMetadata, BadRequestException, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { FieldErrors, ValidationFailedError } from '@pos/kernel';
import { arrayShapeOf, isStrictBody } from './validators';
import { cacheValidationMetadata } from './validation-metadata-cache';

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
 * Before class-transformer sees a body, `preflight` walks it against the DTO: unknown keys are
 * dropped (whitelisting would drop them later anyway, after copying them), or refused with a 422
 * naming them in a body that moves money (`@StrictBody()`), and an array longer
 * than its field allows is refused at once, so the cost of a hostile body is bounded by the
 * DTO's limits, not by what the client sent.
 */
@Injectable()
export class AppValidationPipe extends ValidationPipe {
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
      const errors: FieldErrors = {};
      const trimmed = preflight(value as Record<string, unknown>, dto, '', errors);
      if (Object.keys(errors).length) throw new ValidationFailedError(capErrors(errors));
      return super.transform(trimmed, metadata);
    }
    return super.transform(value ?? {}, metadata);
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

/** A copy of `value` with the DTO's keys only, refusing arrays beyond their field's maximum. */
export function preflight(value: Record<string, unknown>, dto: Dto, path: string, errors: FieldErrors): Record<string, unknown> {
  const known = knownKeys(dto);
  const strict = isStrictBody(dto);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (!known.has(key)) {
      if (strict) errors[path + key] = [`The ${path + key} field is not accepted here (a body that moves money refuses fields it does not know).`];
      continue;
    }
    const v = value[key];
    const shape = arrayShapeOf(dto, key);
    const field = path + key;
    if (shape && Array.isArray(v)) {
      if (v.length > shape.maxItems) {
        errors[field] = [`The ${field} field must not have more than ${shape.maxItems} items.`];
        continue;
      }
      const nested = shape.nested?.();
      out[key] = nested
        ? v.map((el: unknown, i) =>
            el && typeof el === 'object' && !Array.isArray(el) ? preflight(el as Record<string, unknown>, nested, `${field}.${i}.`, errors) : el,
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
