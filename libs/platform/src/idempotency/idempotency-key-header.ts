import { ValidationFailedError } from '@pos/kernel';

/** The request header (IETF draft "The Idempotency-Key HTTP Header Field", Stripe, Square). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Set on an answer that is the stored answer of an earlier request with the same key. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
/**
 * On every answer to a keyed request: how long, in seconds from its first use, the key and its
 * answer are kept at least (delta-seconds, like Retry-After and max-age). Keys are never purged
 * sooner; a retry within this window replays or is refused, never applied twice.
 */
export const IDEMPOTENCY_RETENTION_HEADER = 'Idempotency-Key-Retention';
export const IDEMPOTENCY_RETENTION_DAYS = 30;
export const IDEMPOTENCY_RETENTION_SECONDS = IDEMPOTENCY_RETENTION_DAYS * 86_400;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** Printable ASCII (space to tilde): what a header carries safely and the key column stores as is. */
const KEY_FORMAT = /^[\x20-\x7e]+$/;

const invalid = (message: string) => ValidationFailedError.field('idempotency_key', message);

/**
 * The `Idempotency-Key` header of a request: undefined when absent, the key otherwise; 422 on
 * `idempotency_key` when it is empty, longer than 255 characters, not printable ASCII, or sent twice.
 * Pass Node's `req.headersDistinct` value (one entry per header line): `req.headers` joins repeated
 * lines with ", ", which would silently make another key.
 */
export function idempotencyKeyFromHeader(values: string | string[] | undefined): string | undefined {
  if (values === undefined) return undefined;
  if (Array.isArray(values) && values.length > 1) throw invalid('Send one Idempotency-Key header.');
  const raw = Array.isArray(values) ? values[0] : values;
  if (raw === undefined) return undefined;
  if (raw.length === 0) throw invalid('The Idempotency-Key header must not be empty.');
  if (raw.length > IDEMPOTENCY_KEY_MAX_LENGTH) throw invalid(`The Idempotency-Key header must be at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters.`);
  if (!KEY_FORMAT.test(raw)) throw invalid('The Idempotency-Key header must be printable ASCII characters only.');
  return raw;
}

/**
 * On a route whose body has its own `idempotency_key` (checkout, returns): the header and the body
 * field are the same thing. Returns the key to use (undefined: neither given); 422 when both are
 * given and differ. A body value that is not a string is left to the route's own validation.
 */
export function mergeIdempotencyKeys(header: string | undefined, body: unknown): string | undefined {
  const fromBody = typeof body === 'string' ? body : undefined;
  if (header === undefined) return fromBody;
  if (body !== undefined && body !== null && body !== header)
    throw invalid('The Idempotency-Key header and the body idempotency_key differ: send one of them, or the same key in both.');
  return header;
}
