export * from './idempotency-key.entity';
export * from './idempotent-requests';
