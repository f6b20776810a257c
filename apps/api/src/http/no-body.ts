import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { Request } from 'express';
import { FieldErrors, ValidationFailedError } from '@pos/kernel';
import { UNKNOWN_FIELD_MESSAGE } from './body-names';

/** At most this many fields are named in one 422 (as the validation pipe caps its report). */
const MAX_NAMED = 100;
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A write that takes no body (approve, suspend, toggle, logout...) names what it was sent instead
 * of ignoring it: `{"notes": "..."}` on `POST /returns/{id}/approve` is 422
 * `errors.notes: ["Unknown field."]`, as any body field no route knows (the validation pipe does
 * it for routes with a body DTO). An empty object is fine. The access guard runs it (after its
 * 401/403), so the pipeline keeps its one global guard (test/platform/lean-pipeline).
 */
export function refuseUnexpectedBody(req: Request): void {
  if (!WRITES.has(req.method)) return;
  const body = req.body as unknown;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  const keys = Object.keys(body);
  if (keys.length === 0) return;
  const errors: FieldErrors = {};
  for (const key of keys.slice(0, MAX_NAMED)) errors[key.slice(0, 100)] = [UNKNOWN_FIELD_MESSAGE];
  throw new ValidationFailedError(errors);
}

/** Whether a handler reads the body (`@Body()`) or the raw request (`@Req()`, left to itself). Worked out once per route by the caller. */
export function readsBody(controller: object, handler: { name: string }): boolean {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler.name) ?? {}) as Record<string, unknown>;
  const kinds = Object.keys(args).map((k) => Number(k.split(':')[0]));
  return kinds.includes(Number(RouteParamtypes.BODY)) || kinds.includes(Number(RouteParamtypes.REQUEST));
}
