export * from './config';
export * from './database';
export * from './events';
export * from './idempotency';
export * from './queue';
export * from './ports/require-port';
export * from './logging/logging.module';
export * from './redis/redis.module';
