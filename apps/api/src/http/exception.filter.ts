import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import type { Response } from 'express';
import { ConflictError, DomainError, FieldErrors, ValidationFailedError } from '@pos/kernel';
import { isUniqueViolation } from '@pos/platform';

const KIND_STATUS: Record<DomainError['kind'], number> = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  validation: 422,
  rate_limited: 429,
};

const DEFAULT_MESSAGES: Record<number, string> = {
  400: 'The request is invalid.',
  401: 'Unauthorized.',
  403: 'This action is unauthorized.',
  404: 'Not found.',
  405: 'Method not allowed.',
  409: 'Conflict.',
  413: 'The request body is too large.',
  415: 'Unsupported media type.',
  422: 'The given data was invalid.',
  429: 'Too Many Attempts.',
  500: 'Server Error.',
  503: 'Service Unavailable.',
};

export interface ErrorBody {
  success: false;
  message: string;
  errors?: FieldErrors;
  code?: string;
  [extra: string]: unknown;
}

/**
 * The one place errors become responses (contract part 7). Domain errors map by kind; Nest's
 * HTTP exceptions keep their status with our messages; anything else is a 500 that leaks
 * nothing (the stack goes to the log with the request id).
 */
@Catch()
export class AppExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Exceptions');

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const req = host.switchToHttp().getRequest<{ id?: string; method: string; url: string }>();
    const { status, body, headers } = toErrorResponse(exception);
    if (status >= 500) {
      this.logger.error({ err: exception, request_id: req.id, method: req.method, url: req.url }, 'Unhandled error');
    }
    if (res.headersSent) return;
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    res.status(status).json(body);
  }
}

export function toErrorResponse(exception: unknown): { status: number; body: ErrorBody; headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  if (exception instanceof ValidationFailedError) {
    return { status: 422, body: { success: false, message: exception.message, errors: exception.fields }, headers };
  }
  if (exception instanceof DomainError) {
    const status = KIND_STATUS[exception.kind];
    if (exception instanceof ConflictError && exception.retryAfterSeconds) headers['Retry-After'] = String(exception.retryAfterSeconds);
    return { status, body: { success: false, message: exception.message, code: exception.code, ...(exception.details ?? {}) }, headers };
  }
  if (exception instanceof ThrottlerException) {
    return { status: 429, body: { success: false, message: DEFAULT_MESSAGES[429] }, headers };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    return { status, body: { success: false, message: messageFor(status, exception) }, headers };
  }
  // Safety net: a write that lost a race to a unique index is a conflict, not a server error.
  if (isUniqueViolation(exception))
    return { status: 409, body: { success: false, message: 'The request conflicts with an existing record.', code: 'duplicate' }, headers };
  const status = httpStatusOfLowLevelError(exception);
  if (status) return { status, body: { success: false, message: DEFAULT_MESSAGES[status] ?? 'The request is invalid.' }, headers };
  return { status: 500, body: { success: false, message: DEFAULT_MESSAGES[500] }, headers };
}

function messageFor(status: number, exception: HttpException): string {
  // Nest's own 404 ("Cannot GET /x") and 401 texts are replaced by the contract's.
  if (status === 401) return DEFAULT_MESSAGES[401];
  if (status === 404) return DEFAULT_MESSAGES[404];
  const response = exception.getResponse();
  const custom = typeof response === 'string' ? response : (response as { message?: unknown }).message;
  if (typeof custom === 'string' && custom && !/^(Forbidden resource|Bad Request|Internal server error)/i.test(custom)) return custom;
  return DEFAULT_MESSAGES[status] ?? HttpStatus[status] ?? 'Error.';
}

/** body-parser and similar errors carry a 4xx `status` and an `expose` flag. */
function httpStatusOfLowLevelError(exception: unknown): number | undefined {
  const e = exception as { status?: unknown; statusCode?: unknown; expose?: unknown; type?: unknown } | null;
  const status = typeof e?.status === 'number' ? e.status : typeof e?.statusCode === 'number' ? e.statusCode : undefined;
  return status && status >= 400 && status < 500 && e?.expose === true ? status : undefined;
}
