import { ArgumentMetadata, BadRequestException, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { FieldErrors, ValidationFailedError } from '@pos/kernel';

const REQUIRED_CONSTRAINTS = new Set(['isDefined', 'isNotEmpty', 'arrayNotEmpty']);
/** When the type is wrong, range/length messages about the same value are noise. */
const TYPE_CONSTRAINTS = new Set(['isString', 'isInt', 'isNumber', 'isBoolean', 'isArray', 'isObject', 'isDateString', 'isISO8601']);

/**
 * The global pipe: whitelist + transform; failures become 422 `The given data was invalid.`
 * with Laravel-style dotted keys (`items.0.qty`) and one sentence per problem.
 */
@Injectable()
export class AppValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      transform: true,
      forbidUnknownValues: false,
      transformOptions: { enableImplicitConversion: false },
      validationError: { target: false, value: true },
      exceptionFactory: (errors) => new ValidationFailedError(flattenValidationErrors(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // Path parameters are strings (contract part 4); IdPipe decides what a valid id is, so "0x1",
    // "1e0" or "+1" must not be turned into numbers here first.
    if (metadata.type === 'param') return value;
    if (
      metadata.type === 'body' &&
      metadata.metatype &&
      metadata.metatype !== Object &&
      (Array.isArray(value) || typeof value !== 'object' || value === null)
    ) {
      throw new BadRequestException('The request body must be a JSON object.');
    }
    return super.transform(value ?? {}, metadata);
  }
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
  }
  return out;
}

function sentence(constraint: string, path: string, property: string, message: string): string {
  if (REQUIRED_CONSTRAINTS.has(constraint)) return `The ${path} field is required.`;
  if (message.startsWith('The ')) return message; // already a full sentence from a custom message
  const rest = message.startsWith(property + ' ') ? message.slice(property.length + 1) : message;
  return `The ${path} field ${rest.replace(/\.$/, '')}.`;
}
