import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';
import { ChangePage, Page } from '@pos/kernel';
import { setTokenExpiryHeaders } from '../identity/token-expiry';
import { sendConditional } from './conditional';

/** A success that carries only a message (deletes, revocations): `{success, message}`. */
export class MessageResult {
  constructor(readonly message: string) {}
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
    setTokenExpiryHeaders((response as Response).req, response as Response);
    const res = response as Response;
    if (body instanceof SerializedJson) {
      if (sendConditional(res, statusCode ?? res.statusCode, null, body.bytes)) return res;
      if (statusCode) res.status(statusCode);
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      return res.send(body.bytes);
    }
    const answer = envelope(body);
    if (sendConditional(res, statusCode ?? res.statusCode, answer)) return res;
    if (res.hasHeader('Content-Type')) return super.reply(response, answer, statusCode);
    // What Express's res.json ends in for this answer, without its per-call settings lookups,
    // content-type parsing and freshness check: no ETag is set on this path (conditional answers
    // went through sendConditional above), the body is never empty, and Node drops it on a HEAD.
    const json = JSON.stringify(answer);
    if (statusCode) res.statusCode = statusCode;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(json));
    res.end(json);
    return res;
  }
}

/**
 * A whole answer (envelope included) already serialised: sent as it is. Several responses can
 * share one (coalesced report requests), so a large answer is stringified once.
 */
export class SerializedJson {
  private constructor(readonly bytes: Buffer) {}

  static of(answer: Record<string, unknown>): SerializedJson {
    return new SerializedJson(Buffer.from(JSON.stringify(answer)));
  }
}

export function envelope(result: unknown): Record<string, unknown> {
  if (result instanceof Page) return { success: true, data: result.items, meta: paginationMeta(result) };
  if (result instanceof ChangePage)
    return { success: true, data: result.items, meta: { per_page: result.perPage, next_cursor: result.nextCursor, has_more: result.hasMore } };
  if (result instanceof MessageResult) return { success: true, message: result.message };
  return { success: true, data: result ?? null };
}
