import { retryDelayMs } from './retry-schedule';

/**
 * A delivery is one event for one endpoint. Its id (`X-Service-Delivery-Id`) never changes:
 * retries and manual re-sends reuse it, so a receiver can discard what it already processed.
 *   pending  -> delivered   any 2xx within the timeout
 *   pending  -> pending     a failure with retries left (next_attempt_at set by the schedule)
 *   pending  -> failed      a failure after the last retry, or the endpoint no longer takes deliveries
 *   delivered|failed -> pending   redeliver (an operator's explicit re-send)
 * A re-send starts the retry schedule over (attempts keep counting: the log shows every one).
 */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed';
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'delivered', 'failed'];

export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
}

export function attemptSucceeded(o: AttemptOutcome): boolean {
  return o.error === null && o.statusCode !== null && o.statusCode >= 200 && o.statusCode < 300;
}

export interface DeliveryProgress {
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
}

/** State after the `attemptsInRound`-th attempt since the delivery was (re)queued ended with `outcome` at `now`. */
export function progressAfterAttempt(attemptsInRound: number, outcome: AttemptOutcome, now: Date, scheduleSeconds: readonly number[]): DeliveryProgress {
  if (attemptSucceeded(outcome)) return { status: 'delivered', nextAttemptAt: null, deliveredAt: now };
  const delay = retryDelayMs(attemptsInRound, scheduleSeconds);
  return delay === null
    ? { status: 'failed', nextAttemptAt: null, deliveredAt: null }
    : { status: 'pending', nextAttemptAt: new Date(now.getTime() + delay), deliveredAt: null };
}
