import { attemptSucceeded, progressAfterAttempt } from './delivery';
import { healthAfterFailure, healthAfterSuccess, receivesDeliveries } from './endpoint-health';
import { maxAttempts, retryDelayMs } from './retry-schedule';

const SCHEDULE = [60, 300, 1800, 7200, 21600, 43200, 86400];
const now = new Date('2025-03-01T12:00:00.000Z');

describe('retry schedule', () => {
  it('waits about 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h, then gives up', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelayMs(n, SCHEDULE))).toEqual(SCHEDULE.map((s) => s * 1000));
    expect(retryDelayMs(8, SCHEDULE)).toBeNull();
    expect(retryDelayMs(0, SCHEDULE)).toBeNull();
    expect(maxAttempts(SCHEDULE)).toBe(8);
  });
});

describe('delivery progress', () => {
  it('any 2xx without error succeeds; everything else fails', () => {
    expect(attemptSucceeded({ statusCode: 200, error: null })).toBe(true);
    expect(attemptSucceeded({ statusCode: 299, error: null })).toBe(true);
    for (const statusCode of [100, 301, 302, 304, 400, 410, 500, 503]) expect(attemptSucceeded({ statusCode, error: null })).toBe(false);
    expect(attemptSucceeded({ statusCode: null, error: 'timeout' })).toBe(false);
    expect(attemptSucceeded({ statusCode: 200, error: 'refused: loopback' })).toBe(false);
  });

  it('schedules the next retry, then fails after the last', () => {
    expect(progressAfterAttempt(1, { statusCode: 500, error: null }, now, SCHEDULE)).toEqual({
      status: 'pending',
      nextAttemptAt: new Date(now.getTime() + 60_000),
      deliveredAt: null,
    });
    expect(progressAfterAttempt(7, { statusCode: null, error: 'timeout' }, now, SCHEDULE).nextAttemptAt).toEqual(new Date(now.getTime() + 86_400_000));
    expect(progressAfterAttempt(8, { statusCode: 500, error: null }, now, SCHEDULE)).toEqual({ status: 'failed', nextAttemptAt: null, deliveredAt: null });
    expect(progressAfterAttempt(3, { statusCode: 204, error: null }, now, SCHEDULE)).toEqual({ status: 'delivered', nextAttemptAt: null, deliveredAt: now });
  });
});

describe('endpoint health', () => {
  const healthy = { active: true, failingSince: null, disabledAt: null };
  const hours = (h: number) => new Date(now.getTime() - h * 3_600_000);

  it('starts a failing streak at the first failure and clears it on success', () => {
    expect(healthAfterFailure(healthy, now, 72)).toEqual({ failingSince: now });
    expect(healthAfterSuccess(healthy)).toBeNull();
    expect(healthAfterSuccess({ ...healthy, failingSince: hours(5) })).toEqual({ failingSince: null });
    expect(healthAfterFailure({ ...healthy, failingSince: hours(71.9) }, now, 72)).toBeNull();
  });

  it('disables an endpoint failing continuously for the configured hours, saying so', () => {
    const change = healthAfterFailure({ ...healthy, failingSince: hours(72) }, now, 72);
    expect(change).toMatchObject({ active: false, disabledAt: now });
    expect(change?.disabledReason).toMatch(/failed for 72 hours \(since 2025-02-26T12:00:00.000Z\)/);
    expect(receivesDeliveries({ ...healthy, active: false, disabledAt: now })).toBe(false);
    expect(receivesDeliveries({ ...healthy, active: false })).toBe(false);
    expect(receivesDeliveries(healthy)).toBe(true);
    // already disabled: nothing more to say
    expect(healthAfterFailure({ active: false, failingSince: hours(100), disabledAt: hours(1) }, now, 72)).toBeNull();
    // 0 hours: the first failure disables
    expect(healthAfterFailure(healthy, now, 0)).toMatchObject({ failingSince: now, active: false, disabledAt: now });
  });
});
