import { ValidationFailedError } from './errors';

/**
 * Change cursors (issue 26): a partner reading a feed or the event log in change order keeps an
 * opaque position, base64url of `{k: kind, t: ms of the last row's stamp, i: its id}`. Order is
 * always (stamp ASC, id ASC); the next page is the rows with (stamp, id) > (t, i) and
 * stamp <= the horizon. The kind makes a sales cursor given to the returns feed a 422.
 */

const CURSOR_MAX_LENGTH = 512;
/** Stamps a cursor may carry: 1970 up to year 9999 (anything else was not written by us). */
const MAX_STAMP_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export interface ChangePosition {
  t: Date;
  id: number;
}

/** The opaque cursor naming the row (t, id) of the feed or log `kind`. */
export function encodeCursor(kind: string, t: Date, id: number): string {
  return Buffer.from(JSON.stringify({ k: kind, t: t.getTime(), i: id }), 'utf8').toString('base64url');
}

/** Reads a cursor of `kind`; anything else (malformed, tampered, another kind's) is 422 on `field`. */
export function decodeCursor(kind: string, raw: string, field = 'cursor'): ChangePosition {
  const invalid = () => ValidationFailedError.field(field, `The ${field} is not a valid cursor of this feed.`);
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > CURSOR_MAX_LENGTH || !/^[A-Za-z0-9_-]+$/.test(raw)) {
    throw invalid();
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalid();
  const { k, t, i } = parsed as Record<string, unknown>;
  if (k !== kind) throw invalid();
  if (typeof t !== 'number' || !Number.isSafeInteger(t) || t < 0 || t > MAX_STAMP_MS) throw invalid();
  if (typeof i !== 'number' || !Number.isSafeInteger(i) || i < 0) throw invalid();
  return { t: new Date(t), id: i };
}

/** The newest stamp a change reader may serve: anything later may still belong to an uncommitted transaction. */
export function changeHorizon(now: Date, settleSeconds: number): Date {
  return new Date(now.getTime() - settleSeconds * 1000);
}
