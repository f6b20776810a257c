import { CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Page } from '@pos/kernel';
import { map, Observable } from 'rxjs';

/** A success that carries only a message (deletes, revocations): `{success, message}`. */
export class MessageResult {
  constructor(readonly message: string) {}
}

/** A success that carries its own `meta` (reports: the filters used, generated_at): `{success, data, meta}`. */
export class DataWithMeta {
  constructor(
    readonly data: unknown,
    readonly meta: object,
  ) {}
}

export interface PaginationMeta {
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
}

export function paginationMeta(page: Page<unknown>): PaginationMeta {
  return { current_page: page.page, last_page: page.lastPage, per_page: page.perPage, total: page.total };
}

const RAW_RESPONSE = Symbol('RAW_RESPONSE');
/** Opt out of the envelope (plain-text receipts, OpenAPI). */
export const RawResponse = () => SetMetadata(RAW_RESPONSE, true);

/** Wraps every controller result in the envelope of contract part 2.1. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (this.reflector.get<boolean>(RAW_RESPONSE, context.getHandler())) return next.handle();
    return next.handle().pipe(map((result: unknown) => envelope(result)));
  }
}

export function envelope(result: unknown): Record<string, unknown> {
  if (result instanceof Page) return { success: true, data: result.items, meta: paginationMeta(result) };
  if (result instanceof MessageResult) return { success: true, message: result.message };
  if (result instanceof DataWithMeta) return { success: true, data: result.data, meta: result.meta };
  return { success: true, data: result ?? null };
}
