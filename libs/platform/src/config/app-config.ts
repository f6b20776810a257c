import { availableParallelism } from 'node:os';
import { HttpServerConfig, MetricsConfig, readHttpServer, readMetrics, readTrustProxy, TrustProxy } from './edge-config';
import { clusterQueuePrefix, readRedis, RedisConfig } from './redis-config';
import { readReadReplicas, ReadReplicasConfig } from './read-replicas-config';

/**
 * The only place that reads process.env. `loadConfig` validates every variable once at boot and
 * throws a ConfigError naming each bad or missing one; the rest of the code receives AppConfig.
 */
export type DbType = 'sqlite' | 'mysql';

export interface DatabaseConfig {
  type: DbType;
  sqlitePath: string;
  url?: string;
  host: string;
  port: number;
  username: string;
  password: string;
  database: string;
  migrateOnStart: boolean;
  logging: boolean;
  /** MySQL: longest wait to open a connection (handshake included). */
  connectTimeoutMs: number;
  /** MySQL: longest wait for a pooled connection (0: unbounded). */
  acquireTimeoutMs: number;
  /** MySQL: longest wait for one statement's answer; the connection is closed and the transaction rolled back (0: unbounded). */
  statementTimeoutMs: number;
  /** MySQL: pooled connections per process. */
  poolSize: number;
  /** MySQL: read replicas for read-only use cases (DB_READ_HOSTS or DB_READ_URLS; read-replicas-config.ts). */
  readReplicas: ReadReplicasConfig;
}

export interface RateLimitConfig {
  /** Namespace of the counters in Redis (deployments sharing one Redis use different ones). */
  keyPrefix: string;
  login: number;
  /** Login attempts per minute from one IP, whatever the email (password spraying ceiling). */
  loginPerIp: number;
  standard: number;
  pos: number;
  bulk: number;
  /**
   * Failed authentications per minute from one IP (unknown, expired or revoked tokens, missing
   * ones on protected routes); past it those get 429 while valid tokens keep being served.
   */
  authFailures: number;
}

/** Password and PIN verifications (argon2id) of one process. */
export interface PasswordVerifyConfig {
  /** Verifications running at once. */
  concurrency: number;
  /** Verifications waiting for a slot; past it a request is answered 429 with Retry-After at once. */
  queue: number;
}

/** Offline sync for POS terminals (libs/sync). */
export interface SyncConfig {
  /** How far back a delta looks before its token's time, so a change committed late is never missed. */
  overlapSeconds: number;
  /** Tombstones are kept this long; an older sync token is refused (409: run the initial sync again). */
  tombstoneRetentionDays: number;
  /** An offline transaction older than this (offline_created_at) is rejected. */
  offlineMaxAgeDays: number;
  /** How far in the future offline_created_at may be (terminal clocks drift). */
  offlineClockSkewSeconds: number;
  /** Transactions per POST /sync/upload (422 above). */
  uploadMaxTransactions: number;
  /** Body size limit of POST /sync/upload (other routes keep BODY_LIMIT). */
  uploadBodyLimit: string;
}

/** Outbound webhooks (libs/webhooks): delivery policy, relay cadence and retention. */
export interface WebhookConfig {
  /** Delay before each retry, in seconds; after the last one the delivery is marked failed. */
  retryScheduleSeconds: number[];
  /** A delivery succeeds on a 2xx within this time. */
  timeoutMs: number;
  /** An endpoint failing continuously for this long is disabled. */
  disableAfterHours: number;
  /** Delivery logs untouched for this long are purged. */
  retentionDays: number;
  /** Events (the event log, replay_from) are kept this long; older ones are purged with their deliveries. */
  eventRetentionDays: number;
  /** How often the outbox relay looks for new events (it drains every batch it finds at once). */
  relayIntervalMs: number;
  /** How often due deliveries whose queue job was lost are queued again. */
  sweepIntervalMs: number;
  /** Deliveries sent at once by one process. */
  concurrency: number;
  /**
   * Of those, at most this many to one endpoint: a slow or silent receiver holds no more slots
   * than this, and its other due deliveries wait their turn without holding one.
   */
  endpointConcurrency: number;
}

export interface AppConfig {
  env: 'development' | 'test' | 'production';
  port: number;
  logLevel: string;
  /** pretty: one readable line per entry (pino-pretty); json: one JSON object per line; auto: pretty on a development terminal. */
  logFormat: 'auto' | 'pretty' | 'json';
  /**
   * The request log at info writes one in this many successful (< 400) requests answered within a
   * second (1: every request). Errors, 4xx and slow requests are always written, every request at
   * debug; the X-Request-Id header and the request id of every other line are unaffected.
   */
  logSample: number;
  db: DatabaseConfig;
  /** Unset: no Redis (in-process queue, per-process counters). REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES (redis-config.ts). */
  redis?: RedisConfig;
  /** Longest wait for Redis on the request path (rate-limit counters, queue producers); past it the request goes on without Redis. */
  redisCommandTimeoutMs: number;
  /** BullMQ key prefix: deployments (or test runs) sharing one Redis use different ones. With Redis Cluster it carries a hash tag (`{pos}`). */
  queuePrefix: string;
  rateLimit: RateLimitConfig;
  passwordVerify: PasswordVerifyConfig;
  tokenTtlMinutes: number;
  /** API application (partner) tokens: default lifetime in minutes (0: never expire) and how many days before expiry responses warn. */
  appTokens: { ttlMinutes: number; expiryWarningDays: number };
  authCacheTtlMs: number;
  /** Per-process cache of stores, warehouses and payment methods (read on every sale and lookup). */
  referenceCacheTtlMs: number;
  /** Per-process cache of active rules, bundles, tax rates and price books (read by every price). */
  pricingCacheTtlMs: number;
  appKey: string;
  bodyLimit: string;
  openapi: boolean;
  seedDemoOnFirstStart: boolean;
  /** Days of back-dated trading the demo data adds before today (DEMO_HISTORY_DAYS; 0: the bare demo set). */
  demoHistoryDays: number;
  webhookAllowPrivateTargets: boolean;
  webhooks: WebhookConfig;
  trustProxy: TrustProxy;
  http: HttpServerConfig;
  shutdownTimeoutMs: number;
  /**
   * Write deadlines, counted from a request's arrival (0: none): past it nothing of the request
   * commits and it answers 503 deadline_exceeded. `pos`: checkout, returns, session and cash
   * movements; `syncUpload`: POST /sync/upload (up to hundreds of sales in one request).
   */
  writeDeadlines: { posMs: number; syncUploadMs: number };
  /** Days after a sale during which its goods can be returned. */
  returnWindowDays: number;
  /** Change feeds and the event log (issue 26): nothing stamped within `settleSeconds` of now is served (a transaction may still commit it). */
  changeFeed: { settleSeconds: number };
  sync: SyncConfig;
  /** Bulk price jobs: how often unfinished rows are queued again, and when a `running` one without progress counts as lost. */
  bulkJobs: { sweepIntervalMs: number; staleMs: number };
  /** How long a process reuses its list of stores and warehouses for reports (0: read it every time). */
  reportsDirectoryTtlMs: number;
  /** How often the rollup applier adds the report journal's pending facts to the rollups (the reports' freshness). */
  rollupApplyIntervalMs: number;
  /** Rollup rows `reports:rebuild` writes per transaction (it commits in chunks: a cluster's write-set limits). */
  reportsRebuildChunkRows: number;
  /** How long a worker lease (rollup applier, outbox relay) lasts without renewal: a crashed holder's work resumes elsewhere within about this. */
  workerLeaseTtlMs: number;
  metrics: MetricsConfig;
  /** Browser origins allowed to call the API (CORS); empty: CORS off. */
  corsOrigins: string[];
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const DEV_APP_KEY = 'dev-only-insecure-app-key-change-me-0123456789';

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const problems: string[] = [];
  const read = new EnvReader(env, problems);

  const nodeEnv = read.oneOf('NODE_ENV', ['development', 'test', 'production'] as const, 'development');
  const dbType = read.oneOf('DB_TYPE', ['sqlite', 'mysql'] as const, 'sqlite');
  const url = read.string('DATABASE_URL');
  if (url !== undefined && !/^mysql:\/\//.test(url)) problems.push('DATABASE_URL must be a mysql:// URL');
  const redis = readRedis(read, problems);
  const queuePrefix = read.string('QUEUE_PREFIX') ?? 'pos';

  const appKey = read.string('APP_KEY') ?? (nodeEnv === 'production' ? undefined : DEV_APP_KEY);
  if (appKey === undefined) problems.push('APP_KEY is required when NODE_ENV=production (32+ random characters)');
  else if (appKey.length < 32) problems.push('APP_KEY must be at least 32 characters');

  // argon2 runs on libuv's thread pool (UV_THREADPOOL_SIZE, 4 by default), which file and DNS
  // work share: by default one verification per CPU, leaving at least one pool thread free.
  const threadPool = read.int('UV_THREADPOOL_SIZE', 4, 1, 1024);
  const passwordVerifyConcurrency = read.int('PASSWORD_VERIFY_CONCURRENCY', Math.max(1, Math.min(availableParallelism(), threadPool - 1)), 1, 1024);

  const port = read.int('PORT', 3000, 1, 65535);
  const config: AppConfig = {
    env: nodeEnv,
    port,
    logLevel: read.oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, nodeEnv === 'test' ? 'silent' : 'info'),
    logFormat: read.oneOf('LOG_FORMAT', ['auto', 'pretty', 'json'] as const, 'auto'),
    logSample: read.int('LOG_SAMPLE', 1, 1, 1_000_000),
    db: {
      type: dbType,
      sqlitePath: read.string('DB_SQLITE_PATH') ?? 'data/pos.sqlite',
      url,
      host: read.string('DB_HOST') ?? '127.0.0.1',
      port: read.int('DB_PORT', 3306, 1, 65535),
      username: read.string('DB_USERNAME') ?? 'root',
      password: read.string('DB_PASSWORD', true) ?? '',
      database: read.string('DB_DATABASE') ?? 'pos',
      migrateOnStart: read.bool('DB_MIGRATE_ON_START', dbType === 'sqlite'),
      logging: read.bool('DB_LOGGING', false),
      connectTimeoutMs: read.int('DB_CONNECT_TIMEOUT_MS', 5000, 100, 600_000),
      acquireTimeoutMs: read.int('DB_ACQUIRE_TIMEOUT_MS', 5000, 0, 600_000),
      statementTimeoutMs: read.int('DB_STATEMENT_TIMEOUT_MS', 30000, 0, 3_600_000),
      poolSize: read.int('DB_POOL_SIZE', 20, 1, 1000),
      readReplicas: readReadReplicas(read, dbType, Number(env.DB_PORT) || 3306, problems),
    },
    redis,
    redisCommandTimeoutMs: read.int('REDIS_COMMAND_TIMEOUT_MS', 500, 10, 60_000),
    queuePrefix: redis?.mode === 'cluster' ? clusterQueuePrefix(queuePrefix) : queuePrefix,
    rateLimit: {
      keyPrefix: read.string('RATE_LIMIT_KEY_PREFIX') ?? 'pos-rl',
      login: read.int('RATE_LIMIT_LOGIN', 5, 1, 1_000_000),
      loginPerIp: read.int('RATE_LIMIT_LOGIN_IP', 20, 1, 1_000_000),
      standard: read.int('RATE_LIMIT_STANDARD', 60, 1, 1_000_000),
      pos: read.int('RATE_LIMIT_POS', 120, 1, 1_000_000),
      bulk: read.int('RATE_LIMIT_BULK', 10, 1, 1_000_000),
      authFailures: read.int('RATE_LIMIT_AUTH_FAILURES', 30, 1, 1_000_000),
    },
    passwordVerify: {
      concurrency: passwordVerifyConcurrency,
      queue: read.int('PASSWORD_VERIFY_QUEUE', 16 * passwordVerifyConcurrency, 0, 100_000),
    },
    tokenTtlMinutes: read.int('TOKEN_TTL_MINUTES', 43200, 1, 5_256_000),
    appTokens: {
      ttlMinutes: read.int('APP_TOKEN_TTL_MINUTES', 525_600, 0, 5_256_000),
      expiryWarningDays: read.int('APP_TOKEN_EXPIRY_WARNING_DAYS', 30, 0, 3650),
    },
    authCacheTtlMs: read.int('AUTH_CACHE_TTL_MS', 5000, 0, 600_000),
    referenceCacheTtlMs: read.int('REFERENCE_CACHE_TTL_MS', 5000, 0, 600_000),
    pricingCacheTtlMs: read.int('PRICING_CACHE_TTL_MS', 5000, 0, 600_000),
    appKey: appKey ?? '',
    bodyLimit: read.string('BODY_LIMIT') ?? '1mb',
    openapi: read.bool('OPENAPI', true),
    seedDemoOnFirstStart: read.bool('SEED_DEMO_ON_FIRST_START', dbType === 'sqlite' && nodeEnv !== 'production'),
    demoHistoryDays: read.int('DEMO_HISTORY_DAYS', 90, 0, 366),
    webhookAllowPrivateTargets: read.bool('WEBHOOK_ALLOW_PRIVATE_TARGETS', false),
    webhooks: {
      retryScheduleSeconds: read.intList('WEBHOOK_RETRY_SCHEDULE', [60, 300, 1800, 7200, 21600, 43200, 86400], 1, 7 * 86400, 20),
      timeoutMs: read.int('WEBHOOK_TIMEOUT_MS', 10000, 100, 60000),
      disableAfterHours: read.int('WEBHOOK_DISABLE_AFTER_HOURS', 72, 0, 8760),
      retentionDays: read.int('WEBHOOK_RETENTION_DAYS', 30, 1, 3650),
      eventRetentionDays: read.int('EVENT_RETENTION_DAYS', 30, 1, 3650),
      relayIntervalMs: read.int('WEBHOOK_RELAY_INTERVAL_MS', 250, 10, 600_000),
      sweepIntervalMs: read.int('WEBHOOK_SWEEP_INTERVAL_MS', 30000, 100, 3_600_000),
      concurrency: read.int('WEBHOOK_CONCURRENCY', 20, 1, 500),
      endpointConcurrency: read.int('WEBHOOK_ENDPOINT_CONCURRENCY', 4, 1, 500),
    },
    trustProxy: readTrustProxy(read, nodeEnv === 'production', problems),
    http: readHttpServer(read, problems),
    shutdownTimeoutMs: read.int('SHUTDOWN_TIMEOUT_MS', 10000, 0, 600_000),
    writeDeadlines: {
      posMs: read.int('POS_WRITE_DEADLINE_MS', 8000, 0, 600_000),
      syncUploadMs: read.int('SYNC_UPLOAD_DEADLINE_MS', 25000, 0, 3_600_000),
    },
    returnWindowDays: read.int('RETURN_WINDOW_DAYS', 30, 0, 3650),
    changeFeed: { settleSeconds: read.int('CHANGE_FEED_SETTLE_SECONDS', 60, 0, 3600) },
    sync: {
      overlapSeconds: read.int('SYNC_OVERLAP_SECONDS', 300, 0, 86_400),
      tombstoneRetentionDays: read.int('SYNC_TOMBSTONE_RETENTION_DAYS', 90, 1, 3650),
      offlineMaxAgeDays: read.int('OFFLINE_MAX_AGE_DAYS', 30, 1, 365),
      offlineClockSkewSeconds: read.int('OFFLINE_CLOCK_SKEW_SECONDS', 300, 0, 86_400),
      uploadMaxTransactions: read.int('SYNC_UPLOAD_MAX_TRANSACTIONS', 500, 1, 10_000),
      uploadBodyLimit: read.string('SYNC_UPLOAD_BODY_LIMIT') ?? '10mb',
    },
    bulkJobs: {
      sweepIntervalMs: read.int('BULK_JOB_SWEEP_INTERVAL_MS', 30000, 100, 3_600_000),
      staleMs: read.int('BULK_JOB_STALE_MS', 300000, 1000, 86_400_000),
    },
    reportsDirectoryTtlMs: read.int('REPORTS_DIRECTORY_TTL_MS', 30000, 0, 3_600_000),
    rollupApplyIntervalMs: read.int('ROLLUP_APPLY_INTERVAL_MS', 1000, 50, 3_600_000),
    reportsRebuildChunkRows: read.int('REPORTS_REBUILD_CHUNK_ROWS', 5000, 1, 1_000_000),
    workerLeaseTtlMs: read.int('WORKER_LEASE_TTL_MS', 10_000, 1000, 600_000),
    metrics: readMetrics(read, nodeEnv === 'production', port, problems),
    corsOrigins: read.origins('CORS_ORIGINS'),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

class EnvReader {
  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly problems: string[],
  ) {}

  string(name: string, allowEmpty = false): string | undefined {
    const value = this.env[name];
    if (value === undefined) return undefined;
    if (value === '' && !allowEmpty) return undefined;
    return value;
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const raw = this.string(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || Number(raw) > max) {
      this.problems.push(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
      return fallback;
    }
    return Number(raw);
  }

  /** Comma-separated integers, e.g. WEBHOOK_RETRY_SCHEDULE=60,300,1800. */
  intList(name: string, fallback: number[], min: number, max: number, maxItems: number): number[] {
    const raw = this.string(name);
    if (raw === undefined) return fallback;
    const parts = raw.split(',').map((p) => p.trim());
    if (parts.length > maxItems || parts.some((p) => !/^\d+$/.test(p) || Number(p) < min || Number(p) > max)) {
      this.problems.push(`${name} must be up to ${maxItems} comma-separated integers between ${min} and ${max} (got "${raw}")`);
      return fallback;
    }
    return parts.map(Number);
  }

  /** Comma-separated origins (scheme://host[:port], no path), e.g. CORS_ORIGINS=https://shop.example.com. */
  origins(name: string): string[] {
    const raw = this.string(name);
    if (raw === undefined) return [];
    const list = raw
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== '');
    const bad = list.filter((o) => !/^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/i.test(o));
    if (bad.length) this.problems.push(`${name} must be comma-separated origins like https://shop.example.com (got "${bad.join('", "')}")`);
    return list.filter((o) => !bad.includes(o)).map((o) => o.toLowerCase());
  }

  bool(name: string, fallback: boolean): boolean {
    const raw = this.string(name);
    if (raw === undefined) return fallback;
    const v = raw.trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(v)) return true;
    if (['0', 'false', 'no', 'off'].includes(v)) return false;
    this.problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.string(name);
    if (raw === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
      return fallback;
    }
    return raw as T;
  }
}
