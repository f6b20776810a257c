import { applyDecorators, CanActivate, ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ApiExtension } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';
import type { Request } from 'express';
import { FieldErrors, ValidationFailedError } from '@pos/kernel';

/** OpenAPI extension marking the operations that refuse unknown query parameters (finishDocument documents the 422). */
export const UNKNOWN_QUERY_EXTENSION = 'x-unknown-query-parameters';
export const UNKNOWN_QUERY_MESSAGE = 'Unknown query parameter.';
export const UNKNOWN_QUERY_DOC = 'A query parameter the operation does not list is refused: `errors.<param>: ["Unknown query parameter."]`.';
/** At most this many unknown parameters are named in one 422. */
const MAX_NAMED = 20;

/**
 * Integration routes (every @IntegrationRead route: feeds, reports, the event log) refuse a query
 * parameter they do not know with 422 `errors.<param>: ["Unknown query parameter."]`: a partner's
 * misspelt `updated_sinse` must not silently become a full re-read, nor `store` an unfiltered one.
 * The known parameters are the fields of the route's `@Query()` DTO (and any `@Query('name')`),
 * worked out once per route. It runs as a route guard, after the access guard (401/403 first)
 * and before validation; other routes keep ignoring unknown parameters (forward compatibility).
 */
@Injectable()
export class UnknownQueryGuard implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    const query = ctx.switchToHttp().getRequest<Request>().query as Record<string, unknown> | undefined;
    if (!query) return true;
    const keys = Object.keys(query);
    if (keys.length === 0) return true;
    const known = knownQueryKeys(ctx.getClass(), ctx.getHandler());
    const errors: FieldErrors = {};
    let named = 0;
    for (const key of keys) {
      if (known.has(key) || named >= MAX_NAMED) continue;
      errors[key.slice(0, 100)] = [UNKNOWN_QUERY_MESSAGE];
      named++;
    }
    if (named > 0) throw new ValidationFailedError(errors);
    return true;
  }
}

/** Marks a route (or a controller) as refusing unknown query parameters. */
export const RejectUnknownQuery = () => applyDecorators(UseGuards(UnknownQueryGuard), ApiExtension(UNKNOWN_QUERY_EXTENSION, 'rejected (422)'));

const cache = new WeakMap<object, ReadonlySet<string>>();

type ArgMeta = { index: number; data?: unknown };

/** The query parameters a handler reads: its `@Query()` DTO's fields and its `@Query('name')` names. */
export function knownQueryKeys(controller: object, handler: object): ReadonlySet<string> {
  let known = cache.get(handler);
  if (known) return known;
  const name = (handler as { name: string }).name;
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, ArgMeta>;
  const types = (Reflect.getMetadata('design:paramtypes', (controller as { prototype: object }).prototype, name) ?? []) as unknown[];
  const keys = new Set<string>();
  for (const [key, arg] of Object.entries(args)) {
    if (Number(key.split(':')[0]) !== Number(RouteParamtypes.QUERY)) continue;
    if (typeof arg.data === 'string') {
      keys.add(arg.data);
      continue;
    }
    const dto = types[arg.index];
    if (typeof dto === 'function' && dto !== Object) {
      for (const m of getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false)) keys.add(m.propertyName);
    }
  }
  known = keys;
  cache.set(handler, known);
  return known;
}
