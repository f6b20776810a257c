/**
 * The arithmetic of a worker lease as one process sees it, on its own monotonic clock (ms). The
 * database decides who holds a lease (one conditional UPDATE, compared with the database's clock,
 * see worker-leases.ts); this decides when a process asks it, and how long it trusts an answer:
 *
 * - a holder trusts a won lease for half the TTL after it SENT the UPDATE (the row it wrote lasts a
 *   full TTL after the database ran it, which is later), so it stops acting well before another
 *   process may take over, even when database clocks differ by a little (up to TTL/2);
 * - it renews once a third of the TTL has passed since its last try, so a live holder always
 *   renews before its trust runs out, and at most three UPDATEs per TTL whatever the task interval;
 * - a stand-by tries at most once a second (or every TTL/4 when shorter): after a graceful release
 *   it takes over within that, after a crash within the TTL plus that.
 */
export interface LeaseTiming {
  ttlMs: number;
  /** How long after the UPDATE was sent a won lease is trusted. */
  trustMs: number;
  /** A holder renews when its last try is this old. */
  renewAfterMs: number;
  /** A stand-by tries again when its last try is this old. */
  retryMs: number;
}

export function leaseTiming(ttlMs: number): LeaseTiming {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new Error(`A lease TTL must be positive (got ${ttlMs})`);
  return { ttlMs, trustMs: ttlMs / 2, renewAfterMs: ttlMs / 3, retryMs: Math.min(1000, ttlMs / 4) };
}

/** What this process knows about one named lease. */
export interface LeaseState {
  /** This process may act as the holder while now < heldUntil (0: not held). */
  readonly heldUntil: number;
  /** When this process last sent an acquire or renew (-Infinity: never). */
  readonly lastTryAt: number;
}

export const NOT_HELD: LeaseState = { heldUntil: 0, lastTryAt: -Infinity };

/** act: hold it, no query; renew / try: send the UPDATE; stand-by: not ours, no query. */
export type LeaseStep = 'act' | 'renew' | 'try' | 'stand-by';

export function isHeld(state: LeaseState, now: number): boolean {
  return now < state.heldUntil;
}

export function nextStep(state: LeaseState, now: number, timing: LeaseTiming): LeaseStep {
  const sinceTry = now - state.lastTryAt;
  if (isHeld(state, now)) return sinceTry >= timing.renewAfterMs ? 'renew' : 'act';
  return sinceTry >= timing.retryMs ? 'try' : 'stand-by';
}

/**
 * The state after an UPDATE sent at `sentAt`: won (one row changed), lost (none: another process
 * holds it), or failed (an error: the database may or may not have applied it, so a lease already
 * held is trusted no longer than before, and one not held is not assumed).
 */
export function afterTry(state: LeaseState, sentAt: number, outcome: 'won' | 'lost' | 'failed', timing: LeaseTiming): LeaseState {
  if (outcome === 'won') return { heldUntil: sentAt + timing.trustMs, lastTryAt: sentAt };
  if (outcome === 'lost') return { heldUntil: 0, lastTryAt: sentAt };
  return { heldUntil: state.heldUntil, lastTryAt: sentAt };
}
