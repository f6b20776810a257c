import { Cluster, ClusterOptions, Redis, RedisOptions } from 'ioredis';
import { RedisConfig, redisDb } from '../config/redis-config';
import { failFastRedisOptions } from './redis-outage';

/** A connection to Redis: one endpoint or a Sentinel-managed master (Redis), or a Redis Cluster. */
export type RedisClient = Redis | Cluster;

/**
 * What a connection is for, which decides how it waits:
 *   shared     the process's general connection (health checks): waits for Redis, queues commands meanwhile
 *   fail-fast  callers on the request path that must never wait (rate-limit counters, queue
 *              producers, the broadcast publisher): no offline queue, one retry, a short command timeout
 *   subscriber the broadcast's pub/sub connection (resubscribes after every reconnection)
 *   consumer   a BullMQ worker's connection: must wait (maxRetriesPerRequest null, as BullMQ requires)
 */
export type RedisUse = 'shared' | 'fail-fast' | 'subscriber' | 'consumer';

/** How a connection is made: the arguments of `new Redis(...)` or `new Cluster(...)` (pure, so unit-tested). */
export type RedisConnectionPlan =
  { kind: 'redis'; url?: string; options: RedisOptions } | { kind: 'cluster'; nodes: { host: string; port: number }[]; options: ClusterOptions };

/**
 * The one place that builds ioredis connections, all from the same RedisConfig: whatever the
 * topology, every connection of the process (shared, fail-fast, subscriber, BullMQ's) finds the
 * current master the same way, so all of them follow a Sentinel failover or a Cluster's slot
 * moves without a restart.
 */
export class RedisConnections {
  constructor(
    readonly config: RedisConfig,
    private readonly commandTimeoutMs: number,
  ) {}

  /** The database number (0 with Cluster). */
  get db(): number {
    return redisDb(this.config);
  }

  create(use: RedisUse): RedisClient {
    const plan = planRedisConnection(this.config, use, this.commandTimeoutMs);
    if (plan.kind === 'cluster') return new Cluster(plan.nodes, plan.options);
    return plan.url ? new Redis(plan.url, plan.options) : new Redis(plan.options);
  }
}

/** Per use, the options that decide whether a caller waits for Redis (see RedisUse). */
function waitingOptions(use: RedisUse, commandTimeoutMs: number): RedisOptions {
  return use === 'fail-fast' ? failFastRedisOptions(commandTimeoutMs) : { maxRetriesPerRequest: null, enableOfflineQueue: true };
}

/**
 * A master demoted to a replica (a failover the connection did not see: Sentinel closes client
 * connections when it reconfigures a server, but a partition can hide that) answers writes with
 * READONLY: reconnect, which asks the Sentinels (or DNS, for a managed endpoint) again. The
 * failed command is not replayed: its caller's own retry or fallback decides.
 */
export function reconnectOnReadonly(error: Error): boolean {
  return /^READONLY\b/.test(error.message);
}

export function planRedisConnection(config: RedisConfig, use: RedisUse, commandTimeoutMs: number): RedisConnectionPlan {
  const { enableOfflineQueue, ...waiting } = waitingOptions(use, commandTimeoutMs);
  const common: RedisOptions = { enableReadyCheck: true, reconnectOnError: reconnectOnReadonly, ...waiting };
  switch (config.mode) {
    case 'standalone':
      return { kind: 'redis', url: config.url, options: { ...common, enableOfflineQueue } };
    case 'sentinel':
      return {
        kind: 'redis',
        options: {
          ...common,
          enableOfflineQueue,
          sentinels: config.sentinels,
          name: config.masterName,
          role: 'master',
          sentinelPassword: config.sentinelPassword,
          username: config.username,
          password: config.password,
          db: config.db,
          ...(config.tls ? { tls: {}, sentinelTLS: {}, enableTLSForSentinelMode: true } : {}),
        },
      };
    case 'cluster':
      // The offline queue and the ready check are the Cluster's; retries and timeouts go to each node's connection.
      return {
        kind: 'cluster',
        nodes: config.nodes,
        options: {
          enableOfflineQueue,
          enableReadyCheck: true,
          redisOptions: { ...common, username: config.username, password: config.password, ...(config.tls ? { tls: {} } : {}) },
        },
      };
  }
}
