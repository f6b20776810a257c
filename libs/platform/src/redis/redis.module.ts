import { Global, Inject, Injectable, Module, OnApplicationShutdown, Optional } from '@nestjs/common';
import { Redis } from 'ioredis';
import { AppConfig } from '../config';
import { APP_CONFIG } from '../config/config.module';
import { ResilientRateLimitStorage } from './rate-limit.storage';
import { ReplicaBroadcast } from './replica-broadcast';
import { failFastRedisOptions, readyOrNot, RedisOutageLog } from './redis-outage';

/** The shared ioredis connection, provided only when REDIS_URL is set (else undefined). */
export const REDIS = Symbol('REDIS');
/** Rate-limit counters in Redis with the fail-open policy (rate-limit.storage.ts); undefined without REDIS_URL. */
export const RATE_LIMIT_STORAGE = Symbol('RATE_LIMIT_STORAGE');
export { ReplicaBroadcast };

@Injectable()
class RedisCloser implements OnApplicationShutdown {
  constructor(
    @Optional() @Inject(REDIS) private readonly redis?: Redis,
    @Optional() @Inject(RATE_LIMIT_STORAGE) private readonly counters?: ResilientRateLimitStorage,
    @Optional() private readonly broadcast?: ReplicaBroadcast,
  ) {}
  async onApplicationShutdown(): Promise<void> {
    await this.counters?.close();
    await this.broadcast?.close();
    if (this.redis && this.redis.status !== 'end') await this.redis.quit().catch(() => undefined);
  }
}

@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => {
        if (!config.redisUrl) return undefined;
        const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: null, enableReadyCheck: true });
        new RedisOutageLog('Shared connection').watch(redis);
        return redis;
      },
    },
    {
      provide: RATE_LIMIT_STORAGE,
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig) => {
        if (!config.redisUrl) return undefined;
        const redis = new Redis(config.redisUrl, failFastRedisOptions(config.redisCommandTimeoutMs));
        await readyOrNot(redis, 2000);
        return new ResilientRateLimitStorage(redis);
      },
    },
    {
      provide: ReplicaBroadcast,
      inject: [APP_CONFIG, { token: REDIS, optional: true }],
      useFactory: async (config: AppConfig, redis?: Redis) =>
        redis
          ? new ReplicaBroadcast(config.queuePrefix, await readyOrNot(redis.duplicate(failFastRedisOptions(config.redisCommandTimeoutMs))), redis.duplicate())
          : new ReplicaBroadcast(config.queuePrefix),
    },
    RedisCloser,
  ],
  exports: [REDIS, RATE_LIMIT_STORAGE, ReplicaBroadcast],
})
export class RedisModule {}
