import { ConfigError, loadConfig } from './app-config';

/** The problems loadConfig reports for an environment ([] when it loads). */
function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe('Redis configuration (issue 24 item 4): one endpoint, Sentinels or Cluster', () => {
  it('reads REDIS_URL as one endpoint, with its database number from the path (or ?db=), 0 by default', () => {
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).redis).toEqual({ mode: 'standalone', url: 'redis://127.0.0.1:6379', db: 0 });
    expect(loadConfig({ REDIS_URL: 'rediss://u:p@cache.internal:6380/3' }).redis).toMatchObject({ mode: 'standalone', db: 3 });
    expect(loadConfig({ REDIS_URL: 'redis://cache.internal:6379?db=2' }).redis).toMatchObject({ db: 2 });
    expect(loadConfig({}).redis).toBeUndefined();
    expect(loadConfig({ REDIS_URL: 'redis://cache.internal' }).queuePrefix).toBe('pos');
  });

  it('reads Sentinels, the master name and the credentials', () => {
    const c = loadConfig({
      REDIS_SENTINELS: '10.0.0.1:26379, 10.0.0.2:26379,[::1]:26380',
      REDIS_SENTINEL_NAME: 'pos-master',
      REDIS_SENTINEL_PASSWORD: 'sentinel-secret',
      REDIS_PASSWORD: 'data-secret',
      REDIS_USERNAME: 'pos',
      REDIS_DB: '4',
      REDIS_TLS: 'true',
    });
    expect(c.redis).toEqual({
      mode: 'sentinel',
      sentinels: [
        { host: '10.0.0.1', port: 26379 },
        { host: '10.0.0.2', port: 26379 },
        { host: '::1', port: 26380 },
      ],
      masterName: 'pos-master',
      sentinelPassword: 'sentinel-secret',
      username: 'pos',
      password: 'data-secret',
      db: 4,
      tls: true,
    });
    expect(c.queuePrefix).toBe('pos');
  });

  it('reads Cluster nodes and wraps QUEUE_PREFIX in a hash tag, so each queue keeps its keys in one slot', () => {
    const c = loadConfig({ REDIS_CLUSTER_NODES: 'node-a:7000,node-b:7001', QUEUE_PREFIX: 'shop1' });
    expect(c.redis).toEqual({
      mode: 'cluster',
      nodes: [
        { host: 'node-a', port: 7000 },
        { host: 'node-b', port: 7001 },
      ],
      username: undefined,
      password: undefined,
      tls: false,
    });
    expect(c.queuePrefix).toBe('{shop1}');
    expect(loadConfig({ REDIS_CLUSTER_NODES: 'node-a:7000' }).queuePrefix).toBe('{pos}');
    // A prefix that already has a hash tag is the operator's choice: kept as it is.
    expect(loadConfig({ REDIS_CLUSTER_NODES: 'node-a:7000', QUEUE_PREFIX: 'pos-{eu}' }).queuePrefix).toBe('pos-{eu}');
    // Without Cluster the prefix is never changed (keys of a running deployment stay where they are).
    expect(loadConfig({ REDIS_URL: 'redis://a', QUEUE_PREFIX: 'shop1' }).queuePrefix).toBe('shop1');
  });

  it.each([
    [
      { REDIS_URL: 'redis://a', REDIS_SENTINELS: 'a:26379', REDIS_SENTINEL_NAME: 'm' },
      /only one of REDIS_URL, REDIS_SENTINELS and REDIS_CLUSTER_NODES \(got REDIS_URL and REDIS_SENTINELS\)/,
    ],
    [{ REDIS_SENTINELS: 'a:26379', REDIS_CLUSTER_NODES: 'b:7000' }, /only one of/],
    [{ REDIS_SENTINELS: 'a:26379' }, /REDIS_SENTINEL_NAME .* is required with REDIS_SENTINELS/],
    [{ REDIS_SENTINEL_NAME: 'm' }, /REDIS_SENTINEL_NAME is only read with REDIS_SENTINELS/],
    [{ REDIS_URL: 'redis://a', REDIS_SENTINEL_PASSWORD: 'x' }, /REDIS_SENTINEL_PASSWORD is only read with REDIS_SENTINELS/],
    [{ REDIS_SENTINELS: 'a', REDIS_SENTINEL_NAME: 'm' }, /REDIS_SENTINELS must be comma-separated host:port pairs.*got "a"/],
    [{ REDIS_SENTINELS: 'a:99999', REDIS_SENTINEL_NAME: 'm' }, /REDIS_SENTINELS must be comma-separated host:port/],
    [{ REDIS_SENTINELS: ' , ', REDIS_SENTINEL_NAME: 'm' }, /REDIS_SENTINELS must be comma-separated host:port/],
    [{ REDIS_CLUSTER_NODES: 'redis://a:7000' }, /REDIS_CLUSTER_NODES must be comma-separated host:port/],
    [{ REDIS_CLUSTER_NODES: 'a:7000', REDIS_DB: '2' }, /REDIS_DB must be 0 .* Redis Cluster has database 0 only/],
    [{ REDIS_URL: 'redis://a', REDIS_PASSWORD: 'x' }, /REDIS_PASSWORD cannot be combined with REDIS_URL: put them in the URL/],
    [{ REDIS_URL: 'redis://a/1', REDIS_DB: '2' }, /REDIS_DB cannot be combined with REDIS_URL/],
    [{ REDIS_PASSWORD: 'x' }, /REDIS_PASSWORD set, but no Redis is configured/],
    [
      { REDIS_URL: 'redis+sentinel://a:26379/m' },
      /REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL \(for Sentinel or Cluster use REDIS_SENTINELS or REDIS_CLUSTER_NODES\)/,
    ],
    [{ REDIS_URL: 'redis://a/cache' }, /REDIS_URL's database number .* must be an integer \(got "cache"\)/],
    [{ REDIS_SENTINELS: 'a:26379', REDIS_SENTINEL_NAME: 'm', REDIS_DB: '-1' }, /REDIS_DB must be an integer/],
    [{ REDIS_CLUSTER_NODES: 'a:7000', REDIS_TLS: 'maybe' }, /REDIS_TLS must be true or false/],
  ])('refuses a bad combination at boot with a message naming it: %j', (env, message) => {
    const found = problems(env as Record<string, string>);
    expect(found.some((p) => message.test(p))).toBe(true);
  });
});
