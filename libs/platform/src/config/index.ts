export * from './app-config';
export * from './edge-config';
export * from './redis-config';
export * from './read-replicas-config';
export * from './config.module';
export * from './ambient-clock';
export * from './env-file';
