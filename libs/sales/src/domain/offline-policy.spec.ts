import { offlineTimeProblem } from './offline-policy';

describe('offlineTimeProblem', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  const window = { maxAgeDays: 30, clockSkewSeconds: 300 };
  const at = (ms: number) => new Date(now.getTime() + ms);

  it('accepts anything from the maximum age up to the clock skew ahead', () => {
    for (const ms of [0, -1, -30 * 86_400_000, 300_000, -86_400_000]) expect(offlineTimeProblem(at(ms), now, window)).toBeNull();
  });

  it('refuses the future beyond the skew and the past beyond the maximum age', () => {
    expect(offlineTimeProblem(at(300_001), now, window)).toMatch(/future/);
    expect(offlineTimeProblem(at(-30 * 86_400_000 - 1), now, window)).toMatch(/30 days/);
    expect(offlineTimeProblem(at(1), now, { ...window, clockSkewSeconds: 0 })).toMatch(/future/);
  });
});
