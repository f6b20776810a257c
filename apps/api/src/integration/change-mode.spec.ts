import type { AppConfig } from '@pos/platform';
import type { Clock } from '@pos/kernel';
import { ChangeMode } from './change-mode';

const NOW = new Date('2026-11-26T12:00:00.000Z');
const clock = { now: () => NOW } as Clock;

function mode(db: { type: string; replicas: number }): ChangeMode {
  const config = {
    changeFeed: { settleSeconds: 60 },
    db: {
      type: db.type,
      readReplicas: { endpoints: Array.from({ length: db.replicas }, (_, i) => ({ host: `r${i}`, port: 3306 })), maxLagSeconds: 5, checkIntervalMs: 1000 },
    },
  } as unknown as AppConfig;
  return new ChangeMode(config, clock);
}

const horizonOf = (m: ChangeMode) => m.read('sales', { updated_since: '2026-11-01T00:00:00Z' }, 50)!.horizon.toISOString();

describe('ChangeMode: the horizon', () => {
  it('is the settle window back on SQLite, a second more on MySQL (whole-second DATETIME)', () => {
    expect(horizonOf(mode({ type: 'sqlite', replicas: 0 }))).toBe('2026-11-26T11:59:00.000Z');
    expect(horizonOf(mode({ type: 'mysql', replicas: 0 }))).toBe('2026-11-26T11:58:59.000Z');
  });

  it('with read replicas, also their lag bound and its check interval (a replica may not hold what the primary committed)', () => {
    expect(horizonOf(mode({ type: 'mysql', replicas: 2 }))).toBe('2026-11-26T11:58:53.000Z');
  });

  it('is no change read without updated_since or cursor', () => {
    expect(mode({ type: 'sqlite', replicas: 0 }).read('sales', {}, 50)).toBeUndefined();
  });
});
