import { ExpressAdapter } from '@nestjs/platform-express';
import { Page } from '@pos/kernel';

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

/**
 * The HTTP adapter puts every controller result in the envelope of contract part 2.1 as it
 * sends it (Express's adapter with `reply` wrapped). Doing it here rather than in an
 * interceptor keeps Nest's route pipeline free of interceptors, so no request pays for the
 * rxjs chain and the async-context binding each interceptor costs. Handlers that write their
 * own answer through `@Res()` (sync downloads, receipts) are not sent through `reply` at all.
 */
export class EnvelopeExpressAdapter extends ExpressAdapter {
  override reply(response: unknown, body: unknown, statusCode?: number): unknown {
    return super.reply(response, envelope(body), statusCode);
  }
}

export function envelope(result: unknown): Record<string, unknown> {
  if (result instanceof Page) return { success: true, data: result.items, meta: paginationMeta(result) };
  if (result instanceof MessageResult) return { success: true, message: result.message };
  if (result instanceof DataWithMeta) return { success: true, data: result.data, meta: result.meta };
  return { success: true, data: result ?? null };
}
