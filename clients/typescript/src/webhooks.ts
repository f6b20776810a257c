import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Receiving the service's webhooks. Each delivery is a POST with a JSON body
 * `{id, type, created_at, data}` (a test send adds `"test": true`) and these headers:
 *
 *   X-Service-Event        the kind of event (`sale.completed`, `ping`, ...)
 *   X-Service-Timestamp    Unix seconds when this attempt was signed (each retry is signed anew)
 *   X-Service-Signature    lowercase hex HMAC-SHA256(secret, timestamp + "." + raw body); during
 *                          the 24 h after a secret rotation, two of them separated by a comma
 *   X-Service-Delivery-Id  the delivery's id: the same on every retry, so use it to deduplicate
 *
 * Verify on the raw bytes received, before parsing them (re-serialised JSON is not the same bytes).
 */
export const WEBHOOK_HEADERS = {
  event: 'x-service-event',
  timestamp: 'x-service-timestamp',
  signature: 'x-service-signature',
  deliveryId: 'x-service-delivery-id',
} as const;

export interface WebhookEvent<T = Record<string, unknown>> {
  id: number;
  type: string;
  created_at: string;
  data: T;
  test?: boolean;
}

export interface VerifiedWebhook<T = Record<string, unknown>> {
  event: WebhookEvent<T>;
  deliveryId: string;
  timestamp: number;
}

export type WebhookFailure = 'missing_header' | 'bad_timestamp' | 'stale_timestamp' | 'bad_signature' | 'bad_body';

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';

  constructor(
    readonly reason: WebhookFailure,
    message: string,
  ) {
    super(message);
  }
}

/** Node's `req.headers`, a fetch `Headers`, or a plain map of header names (any case) to values. */
export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const map = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(map).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : map[key];
  return Array.isArray(value) ? value.join(',') : value;
}

const bytes = (body: string | Uint8Array): Buffer => (typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body));

/** The signature the service computes: lowercase hex HMAC-SHA256 of `timestamp + "." + raw body`, keyed by the secret's UTF-8 bytes. */
export function webhookSignature(secret: string, timestamp: number | string, rawBody: string | Uint8Array): string {
  return createHmac('sha256', secret)
    .update(Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), bytes(rawBody)]))
    .digest('hex');
}

/**
 * Whether any of the comma-separated signatures in the header was made with one of the secrets
 * (compared in constant time: a mismatch takes as long wherever it is).
 */
export function verifyWebhookSignature(
  secrets: string | readonly string[],
  timestamp: number | string,
  rawBody: string | Uint8Array,
  signatureHeader: string,
): boolean {
  const candidates = signatureHeader
    .split(',')
    .map((s) => Buffer.from(s.trim(), 'utf8'))
    .filter((s) => s.length > 0);
  let matched = false;
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    const expected = Buffer.from(webhookSignature(secret, timestamp, rawBody), 'utf8');
    for (const given of candidates) if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
  }
  return matched;
}

export interface VerifyWebhookInput {
  /** The endpoint's signing secret (from createWebhook or rotateWebhookSecret); during a rotation, both. */
  secret: string | readonly string[];
  /** The body exactly as received. */
  rawBody: string | Uint8Array;
  headers: HeaderSource;
  /** Refuse a timestamp further than this from now (replays); default 300 s, null to skip the check. */
  toleranceSeconds?: number | null;
  /** The clock, in ms (Date.now by default). */
  now?: () => number;
}

/** Checks a delivery's signature and timestamp and parses its body; throws WebhookVerificationError otherwise. */
export function verifyWebhook<T = Record<string, unknown>>(input: VerifyWebhookInput): VerifiedWebhook<T> {
  const signature = header(input.headers, WEBHOOK_HEADERS.signature);
  const stamp = header(input.headers, WEBHOOK_HEADERS.timestamp);
  if (!signature || !stamp) throw new WebhookVerificationError('missing_header', 'X-Service-Signature and X-Service-Timestamp are required');
  if (!/^\d{1,12}$/.test(stamp)) throw new WebhookVerificationError('bad_timestamp', 'X-Service-Timestamp is not Unix seconds');
  const timestamp = Number(stamp);
  const tolerance = input.toleranceSeconds === undefined ? 300 : input.toleranceSeconds;
  const now = (input.now ?? Date.now)() / 1000;
  if (tolerance !== null && Math.abs(now - timestamp) > tolerance)
    throw new WebhookVerificationError('stale_timestamp', `X-Service-Timestamp is more than ${tolerance} s from now`);
  if (!verifyWebhookSignature(input.secret, stamp, input.rawBody, signature))
    throw new WebhookVerificationError('bad_signature', 'X-Service-Signature does not match the body and secret');
  let event: WebhookEvent<T>;
  try {
    event = JSON.parse(bytes(input.rawBody).toString('utf8')) as WebhookEvent<T>;
  } catch {
    throw new WebhookVerificationError('bad_body', 'The body is not JSON');
  }
  return { event, deliveryId: header(input.headers, WEBHOOK_HEADERS.deliveryId) ?? '', timestamp };
}
