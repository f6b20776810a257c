import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger, NotFoundException } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ThrottlerException } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { ConflictError, DomainError, FieldErrors, RateLimitedError, RuleViolationError, ValidationFailedError } from '@pos/kernel';
import {
  isDatabaseUnavailable,
  isForeignKeyViolation,
  isOutOfRange,
  isRetryableTransactionError,
  isUniqueViolation,
  isWriteDeadlineExceeded,
  stripQuerySecrets,
} from '@pos/platform';
import { RouteTable } from './method-not-allowed';
import { capErrors } from './validation';
import { setTokenExpiryHeaders } from '../identity/token-expiry';

const KIND_STATUS: Record<DomainError['kind'], number> = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  precondition_failed: 412,
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
  412: 'Precondition failed.',
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
  private routes?: RouteTable;

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const req = host.switchToHttp().getRequest<Request & { id?: string }>();
    if (isRouteNotFound(exception, req) && this.answerUnsupportedMethod(req, res)) return;
    const { status, body, headers } = toErrorResponse(exception);
    if (status === 503 && body.code === 'contention') {
      // Not an outage, and maybe a defect (two writes taking the same locks in opposite orders):
      // the statement that lost, without its values, so the pattern can be found.
      const err = loggableError(exception);
      this.logger.warn({ err: { type: err.type, code: err.code, query: err.query }, request_id: req.id }, 'Transaction contention after retries (503)');
    } else if (status === 503) {
      // An outage, not a defect: one short line per request, no stack.
      this.logger.warn({ err: { type: (exception as Error)?.name, code: loggableError(exception).code }, request_id: req.id }, 'Dependency unavailable (503)');
    } else if (status >= 500 || isForeignKeyViolation(exception) || isOutOfRange(exception)) {
      this.logger.error(
        { err: loggableError(exception), request_id: req.id, method: req.method, url: stripQuerySecrets(req.originalUrl ?? req.url) },
        'Unhandled error',
      );
    }
    if (res.headersSent) return;
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    setTokenExpiryHeaders(req, res);
    res.status(status).json(body);
  }

  /** No route matched: a path known under other methods is 405 with Allow (OPTIONS: 204 with Allow). */
  private answerUnsupportedMethod(req: Request, res: Response): boolean {
    this.routes ??= RouteTable.fromExpress(this.adapterHost.httpAdapter.getInstance());
    const allowed = this.routes.allowed(req.path);
    if (!allowed.length || res.headersSent) return false;
    res.setHeader('Allow', [...allowed, 'OPTIONS'].join(', '));
    if (req.method === 'OPTIONS') {
      res.status(204).end();
      return true;
    }
    res.status(405).json({ success: false, message: `The ${req.method} method is not supported for this route. Supported methods: ${allowed.join(', ')}.` });
    return true;
  }
}

/** Nest's own "no route matched" 404 ("Cannot POST /x"), not a 404 thrown by a handler or a pipe. */
function isRouteNotFound(exception: unknown, req: Request): boolean {
  return exception instanceof NotFoundException && exception.message.startsWith(`Cannot ${req.method} `);
}

/**
 * What a 500 log line may say about an error: its type, driver code and message, the SQL text
 * with its placeholders, and the stack; never the bound parameters (customer emails, phones,
 * names) nor the driver's copy of the SQL with the values spliced in. Quoted literals in a
 * driver message ("Duplicate entry 'a@b.c' ...") are masked too.
 */
export function loggableError(exception: unknown): Record<string, unknown> {
  if (!(exception instanceof Error)) return { type: typeof exception };
  const e = exception as Error & { query?: unknown; parameters?: unknown; driverError?: Record<string, unknown>; code?: unknown; errno?: unknown };
  const mask = (text: string) => text.replace(/'(?:[^'\\]|\\.)*'/g, "'?'").replace(/"(?:[^"\\]|\\.)*"/g, '"?"');
  const driver = e.driverError ?? {};
  const out: Record<string, unknown> = {
    type: e.name,
    message: mask(e.message),
    stack: e.stack ? [`${e.name}: ${mask(e.message)}`, ...e.stack.split('\n').filter((l) => /^\s+at /.test(l))].join('\n') : undefined,
  };
  const code = driver.code ?? e.code;
  if (code !== undefined) out.code = code;
  const errno = driver.errno ?? e.errno;
  if (errno !== undefined) out.errno = errno;
  if (driver.sqlState !== undefined) out.sql_state = driver.sqlState;
  if (typeof e.query === 'string') out.query = e.query;
  if (Array.isArray(e.parameters)) out.parameter_count = e.parameters.length;
  return out;
}

export function toErrorResponse(exception: unknown): { status: number; body: ErrorBody; headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  if (exception instanceof ValidationFailedError) {
    return { status: 422, body: { success: false, message: exception.message, errors: capErrors(exception.fields) }, headers };
  }
  if (exception instanceof RuleViolationError) {
    return { status: 400, body: { success: false, message: exception.message, code: exception.code, errors: capErrors(exception.fields) }, headers };
  }
  if (exception instanceof DomainError) {
    const status = KIND_STATUS[exception.kind];
    if ((exception instanceof ConflictError || exception instanceof RateLimitedError) && exception.retryAfterSeconds)
      headers['Retry-After'] = String(exception.retryAfterSeconds);
    return { status, body: { success: false, message: exception.message, code: exception.code, ...(exception.details ?? {}) }, headers };
  }
  if (exception instanceof ThrottlerException) {
    return { status: 429, body: { success: false, message: DEFAULT_MESSAGES[429] }, headers };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    return { status, body: { success: false, message: messageFor(status, exception) }, headers };
  }
  // A write route's deadline passed before it committed (database/write-deadline.ts): rolled
  // back (bar a COMMIT already in flight), and the till may send it again with the same key.
  if (isWriteDeadlineExceeded(exception)) return deadlineExceeded();
  // The database is down, unreachable or past its configured time bounds (the transaction was
  // rolled back): try again later. Never 401 (a valid token) nor 500 (nothing is broken here).
  if (isDatabaseUnavailable(exception)) return serviceUnavailable();
  // A deadlock or lock wait that outlived the transaction's retries (withTransactionRetry): the
  // rows it writes are busy, everything was rolled back, and the same request can simply be sent
  // again (an idempotency key makes that safe for sales). Not a server defect to the client.
  if (isRetryableTransactionError(exception))
    return {
      status: 503,
      body: { success: false, message: 'The records this request writes are busy; nothing was changed. Try again shortly.', code: 'contention' },
      headers: { 'Retry-After': '1' },
    };
  // Safety net: a write that lost a race to a unique index is a conflict, not a server error.
  if (isUniqueViolation(exception))
    return { status: 409, body: { success: false, message: 'The request conflicts with an existing record.', code: 'duplicate' }, headers };
  // Safety nets (each use case checks its ids and ranges first; these keep a missed check a 4xx):
  // an id naming nothing, or a number beyond its column, is invalid data.
  if (isForeignKeyViolation(exception))
    return { status: 422, body: { success: false, message: DEFAULT_MESSAGES[422], errors: { request: ['A referenced record does not exist.'] } }, headers };
  if (isOutOfRange(exception))
    return { status: 422, body: { success: false, message: DEFAULT_MESSAGES[422], errors: { request: ['A number is out of the supported range.'] } }, headers };
  const status = httpStatusOfLowLevelError(exception);
  if (status) return { status, body: { success: false, message: DEFAULT_MESSAGES[status] ?? 'The request is invalid.' }, headers };
  return { status: 500, body: { success: false, message: DEFAULT_MESSAGES[500] }, headers };
}

/** Seconds a client should wait before retrying after a 503 (a short outage or a restart). */
export const SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

function serviceUnavailable(): { status: number; body: ErrorBody; headers: Record<string, string> } {
  return {
    status: 503,
    body: { success: false, message: 'The service is temporarily unavailable. Try again shortly.', code: 'service_unavailable' },
    headers: { 'Retry-After': String(SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS) },
  };
}

/** Seconds a till should wait before sending a write again after its deadline passed. */
export const DEADLINE_EXCEEDED_RETRY_AFTER_SECONDS = 2;

function deadlineExceeded(): { status: number; body: ErrorBody; headers: Record<string, string> } {
  return {
    status: 503,
    body: {
      success: false,
      message:
        'The request could not be completed in time and was rolled back. Send it again shortly: with the same idempotency key it is applied at most once.',
      code: 'deadline_exceeded',
    },
    headers: { 'Retry-After': String(DEADLINE_EXCEEDED_RETRY_AFTER_SECONDS) },
  };
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
