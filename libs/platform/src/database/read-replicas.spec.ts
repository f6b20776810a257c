import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config';
import { ReadOnReplica, readAsOf, ReadReplicas, replicaManager } from './read-replicas';

/**
 * ReadReplicas' choices against a stub pool cluster: the heartbeat's lag decides, a replica that
 * does not answer is skipped with a doubling back-off, a read that fails on it runs again on the
 * primary. (The e2e suite test/platform/read-replicas drives it through HTTP on MariaDB.)
 */
type Answer = { lagSeconds: number } | { error: string };

function setup(answer: () => Answer, checkIntervalMs = 1000) {
  let now = 1_000_000;
  jest.spyOn(Date, 'now').mockImplementation(() => now);
  const calls: string[] = [];
  const manager = { replica: true };
  const conn = {
    query(_sql: string, cb: (err: unknown, rows?: unknown) => void) {
      const a = answer();
      if ('error' in a) return cb(Object.assign(new Error(a.error), { code: a.error }));
      cb(null, [{ beat_at: new Date(now - a.lagSeconds * 1000), lag_us: a.lagSeconds * 1e6 }]);
    },
    release: () => undefined,
    destroy: () => undefined,
  };
  const db = {
    driver: {
      poolCluster: {
        getConnection(id: string, cb: (err: unknown, c?: unknown) => void) {
          calls.push(id);
          const a = answer();
          if ('error' in a && a.error === 'ECONNREFUSED') return cb(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }));
          cb(null, conn);
        },
      },
    },
    createQueryRunner: () => ({ manager, release: async () => undefined }),
  } as unknown as DataSource;
  const config = {
    db: { type: 'mysql', readReplicas: { endpoints: [{ host: 'r1', port: 3306 }], maxLagSeconds: 5, checkIntervalMs } },
  } as unknown as AppConfig;
  const replicas = new ReadReplicas(db, config);
  const where = () => replicas.run(async () => ((replicaManager() as unknown) === manager ? 'replica' : 'primary'));
  return { replicas, where, calls, manager, advance: (ms: number) => (now += ms) };
}

beforeAll(() => Logger.overrideLogger(false));
afterEach(() => jest.restoreAllMocks());

describe('ReadReplicas', () => {
  it('reads a replica within the lag bound, the primary beyond it, and checks again after the interval', async () => {
    let lag = 2;
    const r = setup(() => ({ lagSeconds: lag }));
    expect(await r.where()).toBe('replica');
    expect(await r.replicas.run(async () => readAsOf()?.getTime())).toBe(Date.now() - 2000); // as_of: the beat it read
    lag = 9;
    expect(await r.where()).toBe('replica'); // the last check (lag 2) is trusted for 1 s
    r.advance(1000);
    expect(await r.where()).toBe('primary');
    expect(r.replicas.snapshot()[0]).toMatchObject({ usable: false, lagSeconds: 9 });
    lag = 1;
    expect(await r.where()).toBe('primary'); // a lagging replica is checked every interval, not every read
    r.advance(1000);
    expect(await r.where()).toBe('replica');
  });

  it('skips a replica that refuses connections, backing off 1, 2, 4 s between checks', async () => {
    let down = true;
    const r = setup(() => (down ? { error: 'ECONNREFUSED' } : { lagSeconds: 0 }));
    const checksAt = (ms: number) => {
      r.advance(ms);
      return r.where().then(() => r.calls.length);
    };
    expect(await r.where()).toBe('primary');
    expect(r.calls).toHaveLength(1);
    expect(await checksAt(999)).toBe(1);
    expect(await checksAt(1)).toBe(2); // 1 s after the first failure
    expect(await checksAt(1999)).toBe(2);
    expect(await checksAt(1)).toBe(3); // 2 s after the second
    expect(await checksAt(3999)).toBe(3);
    down = false;
    expect(await checksAt(1)).toBe(4); // 4 s after the third: back
    expect(await r.where()).toBe('replica');
  });

  it('runs a read that fails on the replica (connection lost) again on the primary; other errors propagate', async () => {
    const r = setup(() => ({ lagSeconds: 0 }));
    let attempts = 0;
    const answer = await r.replicas.run(async () => {
      attempts++;
      if (replicaManager()) throw Object.assign(new Error('lost'), { code: 'PROTOCOL_CONNECTION_LOST' });
      return 'from the primary';
    });
    expect([answer, attempts]).toEqual(['from the primary', 2]);
    expect(r.replicas.snapshot()[0]).toMatchObject({ usable: false });

    r.advance(60_000);
    let runs = 0;
    await expect(
      r.replicas.run(async () => {
        runs++;
        throw new Error('a defect, not an outage');
      }),
    ).rejects.toThrow('a defect');
    expect(runs).toBe(1);
  });

  it('changes nothing without replicas', async () => {
    const db = {} as DataSource;
    const replicas = new ReadReplicas(db, {
      db: { type: 'mysql', readReplicas: { endpoints: [], maxLagSeconds: 5, checkIntervalMs: 1000 } },
    } as unknown as AppConfig);
    expect(replicas.enabled).toBe(false);
    expect(await replicas.run(async () => replicaManager())).toBeUndefined();
  });
});

describe('ReadOnReplica', () => {
  it('keeps each wrapped handler its name (the OpenAPI document finds its parameters by it)', () => {
    @ReadOnReplica()
    class Feed {
      sales(): string {
        return 'all';
      }
    }
    class One {
      @ReadOnReplica()
      sale(): string {
        return 'one';
      }
    }
    expect(Feed.prototype.sales.name).toBe('sales');
    expect(One.prototype.sale.name).toBe('sale');
    expect(new Feed().sales()).toBe('all');
  });
});
