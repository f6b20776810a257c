export * from './idempotency-key.entity';
export * from './idempotent-requests';
export * from './idempotency-key-header';
