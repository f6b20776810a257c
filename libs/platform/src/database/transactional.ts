import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { copyMethodMetadata } from 'nestjs-cls';
import { AsyncFacet } from '../context/async-facet';
import { isRetryableTransactionError } from './db-errors';
import { assertWithinWriteDeadline, WRITE_DEADLINE_EXCEEDED } from './write-deadline';

const MAX_ATTEMPTS = 6;

/**
 * The change feeds and the event log (issue 26) never serve a row stamped later than
 * `now - CHANGE_FEED_SETTLE_SECONDS` (the horizon), so a reader never walks past a row that is
 * stamped but not yet committed, provided no transaction commits more than that long after it
 * stamped. This bound makes the proviso a rule rather than a hope: an attempt older than the
 * limit when it is about to commit rolls back instead (503 `deadline_exceeded`, nothing written;
 * the caller retries). Set at boot from the settle window less a margin (0: no bound).
 */
let transactionAgeLimitMs = 0;
export function limitTransactionAge(ms: number): void {
  transactionAgeLimitMs = Math.max(0, ms);
}

export class TransactionTooOldError extends Error {
  readonly code = WRITE_DEADLINE_EXCEEDED;

  constructor(
    readonly ageMs: number,
    readonly limitMs: number,
  ) {
    super(`The transaction ran ${Math.round(ageMs)} ms, past the ${limitMs} ms a change may take to commit (CHANGE_FEED_SETTLE_SECONDS); rolled back.`);
    this.name = 'TransactionTooOldError';
  }
}

/** Transactions run again after a deadlock, lock wait or certification conflict, since start (pos_db_transaction_retries_total). */
let retried = 0;
export const transactionRetries = (): number => retried;

/** What one attempt of a transaction opened by withTransactionRetry collects for its end. */
class CommitScope {
  readonly values = new Map<object, unknown>();
  readonly hooks: (() => Promise<void>)[] = [];
  readonly committed: (() => void)[] = [];

  async run<T>(work: () => Promise<T>): Promise<T> {
    const startedAt = performance.now();
    assertWithinWriteDeadline(); // a request past its write deadline (write-deadline.ts) starts nothing...
    const result = await work();
    // Hooks may register more hooks (or values) while they run: index, not iterator.
    for (let i = 0; i < this.hooks.length; i++) await this.hooks[i]();
    assertWithinWriteDeadline(); // ...and commits nothing: thrown here, the transaction rolls back
    const ageMs = performance.now() - startedAt;
    if (transactionAgeLimitMs > 0 && ageMs > transactionAgeLimitMs) throw new TransactionTooOldError(ageMs, transactionAgeLimitMs);
    return result;
  }
}
const commitScopes = new AsyncFacet<CommitScope>('commit scope');

/**
 * A value kept for the rest of the ambient transaction (one per `key`), and `flush(value)` run
 * once just before it commits, inside it: a context that writes one row per transaction however
 * many facts it hears (the report journal) collects them here. A failure in `flush` rolls the
 * transaction back like any statement. Outside a transaction opened by withTransactionRetry
 * (or @Transactional) there is nowhere to keep it: undefined, and the caller writes at once.
 */
export function perTransaction<T>(key: object, create: () => T, flush: (value: T) => Promise<void>): T | undefined {
  const scope = commitScopes.get();
  if (!scope) return undefined;
  if (scope.values.has(key)) return scope.values.get(key) as T;
  const value = create();
  scope.values.set(key, value);
  scope.hooks.push(() => flush(value));
  return value;
}

/**
 * Runs `done` once the ambient transaction (opened by withTransactionRetry) has committed, or now
 * when there is none; never when it rolls back. For what must not happen before others can see
 * the change: forgetting a cached copy (a reader between the forgetting and the commit would cache
 * the old row again). `done` must not throw.
 */
export function afterCommit(done: () => void): void {
  const scope = commitScopes.get();
  if (scope) scope.committed.push(done);
  else done();
}

/**
 * Runs `work` in one transaction; a deadlock or lock-wait timeout (MySQL) or a busy database
 * (SQLite) rolls everything back and runs it again, the whole transaction at once, with a short
 * jittered backoff. Inside an existing transaction it simply joins it (the outermost one retries).
 */
export async function withTransactionRetry<T>(txHost: TransactionHost<TransactionalAdapterTypeOrm>, work: () => Promise<T>): Promise<T> {
  if (txHost.isTransactionActive()) return work();
  for (let attempt = 1; ; attempt++) {
    try {
      const scope = new CommitScope();
      const result = await txHost.withTransaction(() => commitScopes.run(scope, () => scope.run(work)));
      for (const done of scope.committed) done();
      return result;
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !isRetryableTransactionError(error)) throw error;
      retried++;
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
