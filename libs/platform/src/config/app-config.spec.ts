import { availableParallelism } from 'node:os';
import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('uses the embedded defaults with an empty environment', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.db.type).toBe('sqlite');
    expect(c.db.sqlitePath).toBe('data/pos.sqlite');
    expect(c.db.migrateOnStart).toBe(true);
    expect(c.rateLimit).toMatchObject({ login: 5, standard: 60, pos: 120, bulk: 10 });
    expect(c.tokenTtlMinutes).toBe(43200);
    expect(c.redis).toBeUndefined();
    expect(c.webhookAllowPrivateTargets).toBe(false);
    expect(c.webhooks).toEqual({
      retryScheduleSeconds: [60, 300, 1800, 7200, 21600, 43200, 86400],
      timeoutMs: 10000,
      disableAfterHours: 72,
      retentionDays: 30,
      eventRetentionDays: 30,
      relayIntervalMs: 250,
      sweepIntervalMs: 30000,
      concurrency: 20,
      endpointConcurrency: 4,
    });
    expect(c.changeFeed).toEqual({ settleSeconds: 60 });
  });

  it('keeps CORS off and metrics on by default; reads CORS_ORIGINS as an allow-list of origins and refuses paths or wildcards', () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({}).metrics).toEqual({ enabled: true, token: undefined, port: 0, host: '127.0.0.1', workerPort: 9464 });
    expect(loadConfig({ CORS_ORIGINS: 'https://Shop.example.com, http://localhost:5173' }).corsOrigins).toEqual([
      'https://shop.example.com',
      'http://localhost:5173',
    ]);
    expect(() => loadConfig({ CORS_ORIGINS: '*' })).toThrow(/CORS_ORIGINS/);
    expect(() => loadConfig({ CORS_ORIGINS: 'https://shop.example.com/app' })).toThrow(/CORS_ORIGINS/);
  });

  it('reads the webhook retry schedule as seconds and refuses a bad one', () => {
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '1, 2,3' }).webhooks.retryScheduleSeconds).toEqual([1, 2, 3]);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '60,soon' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '0' })).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
  });

  it('counts failed authentications per IP (RATE_LIMIT_AUTH_FAILURES, 30/min by default)', () => {
    expect(loadConfig({}).rateLimit.authFailures).toBe(30);
    expect(loadConfig({ RATE_LIMIT_AUTH_FAILURES: '12' }).rateLimit.authFailures).toBe(12);
    expect(() => loadConfig({ RATE_LIMIT_AUTH_FAILURES: '0' })).toThrow(/RATE_LIMIT_AUTH_FAILURES/);
  });

  it('bounds password verifications: one per CPU, leaving a libuv pool thread free, and 16 waiting per slot by default', () => {
    const { concurrency, queue } = loadConfig({}).passwordVerify;
    expect(concurrency).toBe(Math.max(1, Math.min(availableParallelism(), 3)));
    expect(queue).toBe(16 * concurrency);
    expect(loadConfig({ UV_THREADPOOL_SIZE: '1' }).passwordVerify.concurrency).toBe(1);
    expect(loadConfig({ PASSWORD_VERIFY_CONCURRENCY: '6', PASSWORD_VERIFY_QUEUE: '0' }).passwordVerify).toEqual({ concurrency: 6, queue: 0 });
    expect(loadConfig({ PASSWORD_VERIFY_CONCURRENCY: '2' }).passwordVerify.queue).toBe(32);
    expect(() => loadConfig({ PASSWORD_VERIFY_CONCURRENCY: '0' })).toThrow(/PASSWORD_VERIFY_CONCURRENCY/);
    expect(() => loadConfig({ PASSWORD_VERIFY_QUEUE: '-1' })).toThrow(/PASSWORD_VERIFY_QUEUE/);
  });

  it('names every bad variable at once', () => {
    try {
      loadConfig({ PORT: 'eighty', DB_TYPE: 'postgres', RATE_LIMIT_LOGIN: '0', REDIS_URL: 'http://x', OPENAPI: 'maybe' });
      throw new Error('expected a ConfigError');
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      const message = (e as Error).message;
      for (const name of ['PORT', 'DB_TYPE', 'RATE_LIMIT_LOGIN', 'REDIS_URL', 'OPENAPI']) expect(message).toContain(name);
    }
  });

  it('requires APP_KEY in production and defaults MySQL to explicit migrations', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/APP_KEY/);
    const c = loadConfig({
      NODE_ENV: 'production',
      APP_KEY: 'k'.repeat(40),
      METRICS_TOKEN: 'm'.repeat(32),
      DB_TYPE: 'mysql',
      DATABASE_URL: 'mysql://u:p@db:3306/pos',
    });
    expect(c.db.migrateOnStart).toBe(false);
    expect(c.seedDemoOnFirstStart).toBe(false);
    expect(c.db.url).toBe('mysql://u:p@db:3306/pos');
  });

  it('reads the days of demo trading history (DEMO_HISTORY_DAYS, default 90, 0 to 366)', () => {
    expect(loadConfig({}).demoHistoryDays).toBe(90);
    expect(loadConfig({ DEMO_HISTORY_DAYS: '0' }).demoHistoryDays).toBe(0);
    expect(loadConfig({ DEMO_HISTORY_DAYS: '14' }).demoHistoryDays).toBe(14);
    expect(() => loadConfig({ DEMO_HISTORY_DAYS: 'a quarter' })).toThrow(/DEMO_HISTORY_DAYS/);
    expect(() => loadConfig({ DEMO_HISTORY_DAYS: '-1' })).toThrow(/DEMO_HISTORY_DAYS/);
    expect(() => loadConfig({ DEMO_HISTORY_DAYS: '400' })).toThrow(/DEMO_HISTORY_DAYS/);
  });

  it('reads the return window (RETURN_WINDOW_DAYS, default 30 days)', () => {
    expect(loadConfig({}).returnWindowDays).toBe(30);
    expect(loadConfig({ RETURN_WINDOW_DAYS: '14' }).returnWindowDays).toBe(14);
    expect(() => loadConfig({ RETURN_WINDOW_DAYS: 'a month' })).toThrow(/RETURN_WINDOW_DAYS/);
    expect(() => loadConfig({ RETURN_WINDOW_DAYS: '-1' })).toThrow(/RETURN_WINDOW_DAYS/);
  });

  describe('the edge (issue 25)', () => {
    const production = { NODE_ENV: 'production', APP_KEY: 'k'.repeat(40) };
    const refusal = (env: Record<string, string>): string => {
      try {
        loadConfig(env);
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        return (e as ConfigError).problems.join('\n');
      }
      throw new Error('expected a ConfigError');
    };

    it('refuses to boot in production with /metrics public and no METRICS_TOKEN, naming it on one line', () => {
      const problems = refusal(production);
      expect(problems).toMatch(/^METRICS_TOKEN is required when NODE_ENV=production[^\n]*$/);
      expect(loadConfig({ ...production, METRICS_TOKEN: 't'.repeat(32) }).metrics.token).toBe('t'.repeat(32));
      expect(loadConfig({ ...production, METRICS_ENABLED: 'false' }).metrics.enabled).toBe(false);
      // Served only on an internal listener bound to loopback (the default host): no token needed.
      expect(loadConfig({ ...production, METRICS_PORT: '9465' }).metrics).toMatchObject({ port: 9465, host: '127.0.0.1' });
      expect(refusal({ ...production, METRICS_PORT: '9465', METRICS_HOST: '0.0.0.0' })).toMatch(/METRICS_TOKEN/);
      expect(loadConfig({ ...production, METRICS_PORT: '9465', METRICS_HOST: '0.0.0.0', METRICS_TOKEN: 'x'.repeat(32) }).metrics.host).toBe('0.0.0.0');
      expect(refusal({ METRICS_HOST: 'metrics.internal' })).toMatch(/METRICS_HOST/);
      expect(refusal({ METRICS_PORT: '3000' })).toMatch(/METRICS_PORT must differ from PORT/);
    });

    it('trusts no proxy by default, reads a list of proxy addresses, and refuses TRUST_PROXY=true in production', () => {
      expect(loadConfig({}).trustProxy).toBe(false);
      expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
      expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,fd00::/8,loopback' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1', 'fd00::/8', 'loopback']);
      expect(loadConfig({ ...production, METRICS_ENABLED: 'false', TRUST_PROXY: '10.1.2.3' }).trustProxy).toEqual(['10.1.2.3']);
      expect(refusal({ ...production, METRICS_ENABLED: 'false', TRUST_PROXY: 'true' })).toMatch(/^TRUST_PROXY=true lets any client set its own address/);
      expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true); // development only
      expect(refusal({ TRUST_PROXY: '10.0.0.0/33' })).toMatch(/TRUST_PROXY must be/);
      expect(refusal({ TRUST_PROXY: 'proxy.internal' })).toMatch(/TRUST_PROXY must be/);
    });

    it('bounds the HTTP server by default and refuses a headers timeout longer than the request timeout', () => {
      expect(loadConfig({}).http).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 60_000, keepAliveTimeoutMs: 5_000, maxConnections: 1_000 });
      expect(loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '2000', HTTP_MAX_CONNECTIONS: '5' }).http).toMatchObject({
        headersTimeoutMs: 1000,
        requestTimeoutMs: 2000,
        maxConnections: 5,
      });
      expect(refusal({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '2000' })).toMatch(/HTTP_HEADERS_TIMEOUT_MS must not exceed/);
      expect(refusal({ HTTP_MAX_CONNECTIONS: '0' })).toMatch(/HTTP_MAX_CONNECTIONS/);
    });
  });
});
