/**
 * When an offline transaction may have happened: not older than the configured maximum age (a
 * terminal that was offline for weeks has to be looked at by a person), and not in the future
 * beyond the clock skew terminals are allowed.
 */
export interface OfflineWindow {
  maxAgeDays: number;
  clockSkewSeconds: number;
}

export function offlineTimeProblem(at: Date, now: Date, window: OfflineWindow): string | null {
  if (at.getTime() > now.getTime() + window.clockSkewSeconds * 1000) {
    return 'The offline_created_at is in the future; check the terminal clock.';
  }
  if (at.getTime() < now.getTime() - window.maxAgeDays * 86_400_000) {
    return `The offline_created_at is more than ${window.maxAgeDays} days ago; such a transaction must be entered by hand.`;
  }
  return null;
}
