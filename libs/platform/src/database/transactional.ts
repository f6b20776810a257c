import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { copyMethodMetadata } from 'nestjs-cls';
import { isRetryableTransactionError } from './db-errors';

const MAX_ATTEMPTS = 6;

/**
 * Runs `work` in one transaction; a deadlock or lock-wait timeout (MySQL) or a busy database
 * (SQLite) rolls everything back and runs it again, the whole transaction at once, with a short
 * jittered backoff. Inside an existing transaction it simply joins it (the outermost one retries).
 */
export async function withTransactionRetry<T>(txHost: TransactionHost<TransactionalAdapterTypeOrm>, work: () => Promise<T>): Promise<T> {
  if (txHost.isTransactionActive()) return work();
  for (let attempt = 1; ; attempt++) {
    try {
      return await txHost.withTransaction(work);
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !isRetryableTransactionError(error)) throw error;
      await new Promise((r) => setTimeout(r, 25 * 2 ** attempt + Math.floor(Math.random() * 50)));
    }
  }
}

/**
 * A use case in one ambient transaction (repositories pick it up through CLS), retried as a
 * whole on deadlocks: the project's replacement for @nestjs-cls/transactional's @Transactional().
 */
export function Transactional(): MethodDecorator {
  return (_target, _key, descriptor: PropertyDescriptor) => {
    const original = descriptor.value as (...args: unknown[]) => Promise<unknown>;
    descriptor.value = function (this: unknown, ...args: unknown[]) {
      return withTransactionRetry(TransactionHost.getInstance<TransactionalAdapterTypeOrm>(), () => original.apply(this, args));
    };
    copyMethodMetadata(original, descriptor.value as (...args: unknown[]) => unknown);
    return descriptor;
  };
}
