import { Global, Inject, Injectable, Module, OnApplicationShutdown, Optional } from '@nestjs/common';
import { Redis } from 'ioredis';
import { AppConfig } from '../config';
import { APP_CONFIG } from '../config/config.module';

/** The shared ioredis connection, provided only when REDIS_URL is set (else undefined). */
export const REDIS = Symbol('REDIS');

@Injectable()
class RedisCloser implements OnApplicationShutdown {
  constructor(@Optional() @Inject(REDIS) private readonly redis?: Redis) {}
  async onApplicationShutdown(): Promise<void> {
    if (this.redis && this.redis.status !== 'end') await this.redis.quit().catch(() => undefined);
  }
}

@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => (config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: null, enableReadyCheck: true }) : undefined),
    },
    RedisCloser,
  ],
  exports: [REDIS],
})
export class RedisModule {}
