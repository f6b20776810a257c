import type { components } from './generated/schema';

/** The error envelope every failure carries: `{success: false, message, errors?, code?}`. */
export type ErrorEnvelope = components['schemas']['ErrorEnvelope'];

/**
 * A response outside 2xx, as the service described it. `errors` maps each invalid field (dotted
 * for nested ones, `items.0.qty`) to messages on a 422; `code` is the stable machine code of a
 * domain error (`contention`, `idempotency_in_flight`, ...); `body` is the whole answer (some
 * errors carry more, e.g. a checkout total mismatch has `client_total` and `server_total`).
 */
export class PosApiError extends Error {
  override readonly name = 'PosApiError';

  constructor(
    readonly status: number,
    message: string,
    readonly errors: Record<string, string[]> | undefined,
    readonly code: string | undefined,
    readonly body: unknown,
    /** The X-Request-Id the service logged this request under: quote it when reporting a problem. */
    readonly requestId: string | null,
    /** Seconds to wait before retrying (Retry-After on 429 and 503), or null. */
    readonly retryAfterSeconds: number | null,
  ) {
    super(message);
  }

  /** 429 and 503 changed nothing: the same request (with the same idempotency key) may be sent again after `retryAfterSeconds`. */
  get retryable(): boolean {
    return this.status === 429 || this.status === 503 || this.code === 'idempotency_in_flight';
  }

  static fromResponse(response: Response, body: unknown): PosApiError {
    const envelope = (typeof body === 'object' && body !== null ? body : {}) as Partial<ErrorEnvelope>;
    const message = typeof envelope.message === 'string' ? envelope.message : `HTTP ${response.status}`;
    const retryAfter = Number(response.headers.get('retry-after'));
    return new PosApiError(
      response.status,
      message,
      envelope.errors,
      envelope.code,
      body,
      response.headers.get('x-request-id'),
      Number.isFinite(retryAfter) && retryAfter >= 0 && response.headers.has('retry-after') ? retryAfter : null,
    );
  }
}
