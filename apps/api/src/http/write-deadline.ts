import { applyDecorators, SetMetadata } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import type { AppConfig } from '@pos/platform';
import { ApiErrors } from './openapi';

export const WRITE_DEADLINE = 'pos:write-deadline';

/** Which deadline a route keeps: `pos` (POS_WRITE_DEADLINE_MS) or `sync_upload` (SYNC_UPLOAD_DEADLINE_MS). */
export type WriteDeadlineKind = 'pos' | 'sync_upload';

const DESCRIPTION =
  'The database is unavailable or too slow (code `service_unavailable`), the rows it writes stayed locked (code `contention`), or the ' +
  'request did not finish its writes within its deadline from arrival (code `deadline_exceeded`; POS_WRITE_DEADLINE_MS, default 8 s; ' +
  "for /sync/upload SYNC_UPLOAD_DEADLINE_MS, default 25 s), which is meant to be shorter than the till's own timeout: nothing was committed " +
  '(or, at worst, a commit already sent at the deadline lands). Send the same request again after Retry-After: with the same idempotency ' +
  'key it is applied at most once.';

/**
 * A write a till waits for: it must commit within a deadline counted from its arrival, or not at
 * all (libs/platform database/write-deadline.ts). The access guard arms it first thing, so even a
 * token lookup on a frozen database is cut at the deadline. Documents the 503 it then answers.
 */
export const WriteDeadline = (kind: WriteDeadlineKind = 'pos') => applyDecorators(SetMetadata(WRITE_DEADLINE, kind), ApiErrors([503, DESCRIPTION]));

/** The deadline of a route in ms (0: none), from its metadata and the configuration. */
export function writeDeadlineMsOf(reflector: Reflector, targets: Parameters<Reflector['getAllAndOverride']>[1], config: AppConfig): number {
  const kind = reflector.getAllAndOverride<WriteDeadlineKind | undefined>(WRITE_DEADLINE, targets);
  if (kind === 'pos') return config.writeDeadlines.posMs;
  if (kind === 'sync_upload') return config.writeDeadlines.syncUploadMs;
  return 0;
}
