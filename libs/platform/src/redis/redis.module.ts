import { Global, Inject, Injectable, Module, OnApplicationShutdown, Optional } from '@nestjs/common';
import { AppConfig } from '../config';
import { APP_CONFIG } from '../config/config.module';
import { ResilientRateLimitStorage } from './rate-limit.storage';
import { RedisClient, RedisConnections } from './redis-connections';
import { broadcastNamespace, ReplicaBroadcast } from './replica-broadcast';
import { readyOrNot, RedisOutageLog } from './redis-outage';

/** The shared ioredis connection, provided only when Redis is configured (else undefined). */
export const REDIS = Symbol('REDIS');
/** Rate-limit counters in Redis with the fail-open policy (rate-limit.storage.ts); undefined without Redis. */
export const RATE_LIMIT_STORAGE = Symbol('RATE_LIMIT_STORAGE');
export { ReplicaBroadcast, RedisConnections };
export type { RedisClient };

@Injectable()
class RedisCloser implements OnApplicationShutdown {
  constructor(
    @Optional() @Inject(REDIS) private readonly redis?: RedisClient,
    @Optional() @Inject(RATE_LIMIT_STORAGE) private readonly counters?: ResilientRateLimitStorage,
    @Optional() private readonly broadcast?: ReplicaBroadcast,
  ) {}
  async onApplicationShutdown(): Promise<void> {
    await this.counters?.close();
    await this.broadcast?.close();
    if (this.redis && this.redis.status !== 'end') await this.redis.quit().catch(() => undefined);
  }
}

/** Every connection below comes from RedisConnections (one configuration: REDIS_URL, Sentinels or Cluster). */
@Global()
@Module({
  providers: [
    {
      provide: RedisConnections,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => (config.redis ? new RedisConnections(config.redis, config.redisCommandTimeoutMs) : undefined),
    },
    {
      provide: REDIS,
      inject: [{ token: RedisConnections, optional: true }],
      useFactory: (connections?: RedisConnections) => {
        if (!connections) return undefined;
        const redis = connections.create('shared');
        new RedisOutageLog('Shared connection').watch(redis);
        return redis;
      },
    },
    {
      provide: RATE_LIMIT_STORAGE,
      inject: [{ token: RedisConnections, optional: true }],
      useFactory: async (connections?: RedisConnections) =>
        connections ? new ResilientRateLimitStorage(await readyOrNot(connections.create('fail-fast'), 2000)) : undefined,
    },
    {
      provide: ReplicaBroadcast,
      inject: [APP_CONFIG, { token: RedisConnections, optional: true }],
      useFactory: async (config: AppConfig, connections?: RedisConnections) =>
        connections
          ? new ReplicaBroadcast(
              broadcastNamespace(config.queuePrefix, connections.db),
              await readyOrNot(connections.create('fail-fast')),
              connections.create('subscriber'),
            )
          : new ReplicaBroadcast(config.queuePrefix),
    },
    RedisCloser,
  ],
  exports: [RedisConnections, REDIS, RATE_LIMIT_STORAGE, ReplicaBroadcast],
})
export class RedisModule {}
