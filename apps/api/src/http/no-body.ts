import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { Request } from 'express';
import { FieldErrors, ValidationFailedError } from '@pos/kernel';
import { UNKNOWN_FIELD_MESSAGE } from './body-names';

/** At most this many fields are named in one 422 (as the validation pipe caps its report). */
const MAX_NAMED = 100;
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A write that takes no body (approve, suspend, toggle...) names what it was sent instead of
 * ignoring it: `{"notes": "..."}` on `POST /returns/{id}/approve` is 422
 * `errors.notes: ["Unknown field."]`, as any body field no route knows (the validation pipe does
 * it for routes with a body DTO). An empty object is fine. Handlers reading the raw request
 * (`@Req()`) are left to themselves. Runs after the access guard (401/403 first).
 */
@Injectable()
export class NoBodyGuard implements CanActivate {
  private readonly takesBody = new WeakMap<object, boolean>();

  canActivate(ctx: ExecutionContext): boolean {
    const req = ctx.switchToHttp().getRequest<Request>();
    if (!WRITES.has(req.method)) return true;
    const body = req.body as unknown;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return true;
    const keys = Object.keys(body);
    if (keys.length === 0 || this.readsBody(ctx.getClass(), ctx.getHandler())) return true;
    const errors: FieldErrors = {};
    for (const key of keys.slice(0, MAX_NAMED)) errors[key.slice(0, 100)] = [UNKNOWN_FIELD_MESSAGE];
    throw new ValidationFailedError(errors);
  }

  private readsBody(controller: object, handler: object): boolean {
    let known = this.takesBody.get(handler);
    if (known === undefined) {
      const name = (handler as { name: string }).name;
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, unknown>;
      const kinds = Object.keys(args).map((k) => Number(k.split(':')[0]));
      known = kinds.includes(Number(RouteParamtypes.BODY)) || kinds.includes(Number(RouteParamtypes.REQUEST));
      this.takesBody.set(handler, known);
    }
    return known;
  }
}
