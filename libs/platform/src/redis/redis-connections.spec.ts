import { RedisConfig } from '../config/redis-config';
import { planRedisConnection, reconnectOnReadonly } from './redis-connections';
import { broadcastNamespace } from './replica-broadcast';

const sentinel: RedisConfig = {
  mode: 'sentinel',
  sentinels: [
    { host: '127.0.0.1', port: 26379 },
    { host: '127.0.0.1', port: 26380 },
  ],
  masterName: 'pos-master',
  sentinelPassword: 's',
  password: 'p',
  db: 3,
  tls: false,
};
const cluster: RedisConfig = { mode: 'cluster', nodes: [{ host: 'a', port: 7000 }], password: 'p', tls: true };

describe('RedisConnections: every connection from one configuration (issue 24 item 4)', () => {
  it('asks the Sentinels for the master, for every use, with the same credentials and database', () => {
    for (const use of ['shared', 'fail-fast', 'subscriber', 'consumer'] as const) {
      const plan = planRedisConnection(sentinel, use, 500);
      expect(plan.kind).toBe('redis');
      expect(plan.options).toMatchObject({
        sentinels: sentinel.sentinels,
        name: 'pos-master',
        role: 'master',
        sentinelPassword: 's',
        password: 'p',
        db: 3,
        reconnectOnError: reconnectOnReadonly,
      });
      expect(plan.options).not.toHaveProperty('tls');
    }
  });

  it('keeps each use waiting or failing fast as before: producers, counters and the publisher never queue; BullMQ workers wait', () => {
    expect(planRedisConnection(sentinel, 'fail-fast', 500).options).toMatchObject({ enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 500 });
    for (const use of ['shared', 'subscriber', 'consumer'] as const) {
      const options = planRedisConnection(sentinel, use, 500).options;
      expect(options).toMatchObject({ enableOfflineQueue: true, maxRetriesPerRequest: null });
      expect(options).not.toHaveProperty('commandTimeout');
    }
    const standalone = planRedisConnection({ mode: 'standalone', url: 'redis://a:6379/2', db: 2 }, 'fail-fast', 250);
    expect(standalone).toMatchObject({ kind: 'redis', url: 'redis://a:6379/2', options: { enableOfflineQueue: false, commandTimeout: 250 } });
  });

  it('builds a Cluster with the offline queue at the Cluster and retries, timeouts and TLS on each node (BullMQ reads maxRetriesPerRequest there)', () => {
    const failFast = planRedisConnection(cluster, 'fail-fast', 500);
    expect(failFast).toMatchObject({
      kind: 'cluster',
      nodes: [{ host: 'a', port: 7000 }],
      options: { enableOfflineQueue: false, redisOptions: { maxRetriesPerRequest: 1, commandTimeout: 500, password: 'p', tls: {} } },
    });
    const consumer = planRedisConnection(cluster, 'consumer', 500);
    expect(consumer).toMatchObject({ kind: 'cluster', options: { enableOfflineQueue: true, redisOptions: { maxRetriesPerRequest: null } } });
  });

  it('turns TLS on for the Sentinels and the master together', () => {
    expect(planRedisConnection({ ...sentinel, tls: true }, 'shared', 500).options).toMatchObject({ tls: {}, sentinelTLS: {}, enableTLSForSentinelMode: true });
  });

  it('reconnects when a demoted master refuses a write, and only then', () => {
    expect(reconnectOnReadonly(new Error("READONLY You can't write against a read only replica."))).toBe(true);
    expect(reconnectOnReadonly(new Error('ERR unknown command'))).toBe(false);
  });
});

describe('Replica broadcast channels are per deployment (pub/sub ignores the database number)', () => {
  it('puts a non-zero database number in the namespace and keeps database 0 as it was', () => {
    expect(broadcastNamespace('pos', 0)).toBe('pos');
    expect(broadcastNamespace('pos', 1)).toBe('pos:db1');
    expect(broadcastNamespace('pos', 2)).not.toBe(broadcastNamespace('pos', 1));
    expect(broadcastNamespace('{pos}', 0)).toBe('{pos}');
  });
});
