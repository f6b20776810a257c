/**
 * Retries (decisions.md): about 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h after each failed
 * attempt (WEBHOOK_RETRY_SCHEDULE, seconds), then the delivery is failed. With n delays a delivery
 * gets at most n + 1 attempts. No jitter: retries are already spread by when events happened.
 */
export function retryDelayMs(attemptsMade: number, scheduleSeconds: readonly number[]): number | null {
  if (attemptsMade < 1 || attemptsMade > scheduleSeconds.length) return null;
  return scheduleSeconds[attemptsMade - 1] * 1000;
}

export function maxAttempts(scheduleSeconds: readonly number[]): number {
  return scheduleSeconds.length + 1;
}
