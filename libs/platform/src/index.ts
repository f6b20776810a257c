export * from './config';
export * from './crypto';
export * from './database';
export * from './queue';
export * from './logging/logging.module';
export * from './redis/redis.module';
