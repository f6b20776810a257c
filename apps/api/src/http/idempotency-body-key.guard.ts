import { CanActivate, ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import { idempotencyKeyFromHeader, mergeIdempotencyKeys } from '@pos/platform';
import { stateRetention } from './idempotency.interceptor';

/**
 * The `Idempotency-Key` header on a route whose body carries its own key (checkout, returns):
 * the header becomes the body's `idempotency_key` before the body is validated, both given and
 * different is 422, and a keyed request states `Idempotency-Key-Retention`. The route's use case
 * then replays or records the request itself.
 *
 * A route guard, not an interceptor: it only acts before the handler, and a route with an
 * interceptor pays Nest's rxjs chain on every request (checkout is the busiest write). It runs
 * after the global access guard (an unauthenticated request is 401 first) and before the pipes,
 * where the interceptor ran too. It always lets the request through: a refusal is thrown.
 */
export class IdempotencyBodyKeyGuard implements CanActivate {
  constructor(private readonly field: string) {}

  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const header = idempotencyKeyFromHeader(req.headersDistinct['idempotency-key']);
    const body = req.body as Record<string, unknown> | undefined;
    const isObject = !!body && typeof body === 'object' && !Array.isArray(body);
    const key = mergeIdempotencyKeys(header, isObject ? body[this.field] : undefined);
    if (header !== undefined && isObject) body[this.field] = header;
    if (key !== undefined) stateRetention(http.getResponse<Response>());
    return true;
  }
}
