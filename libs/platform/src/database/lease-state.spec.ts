import { afterTry, isHeld, leaseTiming, nextStep, NOT_HELD } from './lease-state';

describe('lease arithmetic', () => {
  const t = leaseTiming(10_000);

  it('trusts a won lease for half the TTL, renews after a third, retries a stand-by at most once a second', () => {
    expect(t).toEqual({ ttlMs: 10_000, trustMs: 5000, renewAfterMs: 10_000 / 3, retryMs: 1000 });
    expect(leaseTiming(2000).retryMs).toBe(500); // TTL/4 when shorter than a second
    expect(() => leaseTiming(0)).toThrow(/positive/);
  });

  it('a process that never asked tries at once', () => {
    expect(nextStep(NOT_HELD, 0, t)).toBe('try');
    expect(isHeld(NOT_HELD, 0)).toBe(false);
  });

  it('a holder acts without asking until a third of the TTL, then renews; the renewal extends its trust', () => {
    const won = afterTry(NOT_HELD, 100, 'won', t);
    expect(won).toEqual({ heldUntil: 5100, lastTryAt: 100 });
    expect(nextStep(won, 101, t)).toBe('act');
    expect(nextStep(won, 3433, t)).toBe('act');
    expect(nextStep(won, 3434, t)).toBe('renew');
    const renewed = afterTry(won, 3434, 'won', t);
    expect(renewed.heldUntil).toBe(8434);
    // a holder that keeps renewing every third of the TTL is never without the lease
    let s = won;
    for (let now = 100; now < 100_000; now += 100) {
      expect(isHeld(s, now)).toBe(true);
      if (nextStep(s, now, t) === 'renew') s = afterTry(s, now, 'won', t);
    }
  });

  it('stops acting when its trust runs out, well before the row (a full TTL) expires for the others', () => {
    const won = afterTry(NOT_HELD, 0, 'won', t);
    expect(isHeld(won, 4999)).toBe(true);
    expect(isHeld(won, 5000)).toBe(false);
    expect(nextStep(won, 5000, t)).toBe('try'); // asks again, and wins if the row is still its own
    // the row written by that UPDATE lasts until (when the database ran it) + TTL >= 0 + 10000:
    // TTL/2 between this holder stopping and anyone else starting
    expect(0 + t.ttlMs - won.heldUntil).toBe(5000);
  });

  it('a lost try drops the lease at once; a stand-by waits retryMs between tries', () => {
    const won = afterTry(NOT_HELD, 0, 'won', t);
    const lost = afterTry(won, 4000, 'lost', t);
    expect(isHeld(lost, 4000)).toBe(false);
    expect(nextStep(lost, 4999, t)).toBe('stand-by');
    expect(nextStep(lost, 5000, t)).toBe('try');
  });

  it('a failed try (error, certification conflict) neither extends a held lease nor grants one', () => {
    const won = afterTry(NOT_HELD, 0, 'won', t);
    const failed = afterTry(won, 4000, 'failed', t);
    expect(failed).toEqual({ heldUntil: 5000, lastTryAt: 4000 });
    expect(nextStep(failed, 4500, t)).toBe('act');
    expect(isHeld(afterTry(NOT_HELD, 0, 'failed', t), 0)).toBe(false);
  });
});
