/**
 * Domain errors carry a stable machine `code`; the HTTP edge maps each kind to a status
 * (see apps/api/src/http/exception.filter.ts). Nothing here knows about HTTP.
 */
export type FieldErrors = Record<string, string[]>;

export abstract class DomainError extends Error {
  abstract readonly kind: 'bad_request' | 'unauthenticated' | 'forbidden' | 'not_found' | 'conflict' | 'precondition_failed' | 'validation' | 'rate_limited';

  constructor(
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends DomainError {
  readonly kind = 'bad_request' as const;
}

export class UnauthenticatedError extends DomainError {
  readonly kind = 'unauthenticated' as const;
  constructor(message = 'Unauthorized.') {
    super('unauthenticated', message);
  }
}

export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden' as const;
  constructor(message = 'This action is unauthorized.', code = 'forbidden') {
    super(code, message);
  }
}

export class NotFoundError extends DomainError {
  readonly kind = 'not_found' as const;
  constructor(resource = 'Resource', code = 'not_found') {
    super(code, `${resource} not found.`);
  }
}

export class ConflictError extends DomainError {
  readonly kind = 'conflict' as const;
  constructor(
    code: string,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(code, message);
  }
}

/** 429: the caller has spent its budget for this action; it may try again after `retryAfterSeconds`. */
export class RateLimitedError extends DomainError {
  readonly kind = 'rate_limited' as const;
  constructor(
    code: string,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(code, message);
  }
}

/**
 * 400: a well-formed request that breaks a business rule, with the fields that break it (the
 * contract's "checkout validation error"): the body is valid, the cart cannot be sold as it stands.
 */
export class RuleViolationError extends DomainError {
  readonly kind = 'bad_request' as const;
  constructor(
    readonly fields: FieldErrors,
    code: string,
    message: string,
  ) {
    super(code, message);
  }
}

/** 422: field-level problems found by business rules (not only by DTO validation). */
export class ValidationFailedError extends DomainError {
  readonly kind = 'validation' as const;
  constructor(
    readonly fields: FieldErrors,
    message = 'The given data was invalid.',
  ) {
    super('validation_failed', message);
  }

  static field(field: string, message: string): ValidationFailedError {
    return new ValidationFailedError({ [field]: [message] });
  }
}

/**
 * Gathers the field errors of several conversions into one ValidationFailedError, so a body with
 * many faulty amounts (a 500-line cart, 10,000 bulk prices) names every one at once, as the
 * request validators name every field of a body: `take` each conversion, then `check`.
 */
export class FieldErrorCollector {
  private readonly fields: FieldErrors = {};

  /** The conversion's value; when it throws a ValidationFailedError, its fields are kept and undefined stands in. */
  take<V>(convert: () => V): V {
    try {
      return convert();
    } catch (e) {
      if (!(e instanceof ValidationFailedError)) throw e;
      for (const [field, messages] of Object.entries(e.fields)) (this.fields[field] ??= []).push(...messages);
      return undefined as V;
    }
  }

  /** Throws every error taken; when it returns, every value taken is real. */
  check(): void {
    if (Object.keys(this.fields).length) throw new ValidationFailedError(this.fields);
  }
}
