import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { LessThan } from 'typeorm';
import { Clock, ConflictError, ValidationFailedError } from '@pos/kernel';
import { RequestContext } from '../audit/request-context';
import { isLockWaitTimeout, isUniqueViolation } from '../database/db-errors';
import { insertRows } from '../database/insert-rows';
import { withTransactionRetry } from '../database/transactional';
import { IdempotencyKeyEntity, IdempotencyRecord } from './idempotency-key.entity';

export interface IdempotentRequest {
  /** The operation (checkout, return, ...): the same key used for another operation is a different request. */
  scope: string;
  key: string;
  /** `requestFingerprint(body)` of the request as it arrived. */
  fingerprint: string;
  userId: number;
}

export interface IdempotentOutcome {
  replayed: boolean;
  status: number;
  body: unknown;
}

/**
 * How an answer is kept and given back: `store` turns the answer into what is written (e.g. a
 * secret shown once, sealed with APP_KEY), `restore` turns what was written back into the answer.
 * Without one the answer is stored as its JSON.
 */
export interface AnswerCodec {
  store(body: unknown): unknown;
  restore(stored: unknown): unknown;
}

/** A claim left in flight by a request that died is taken over after this long. */
const IN_FLIGHT_STALE_MS = 60_000;

/** SHA-256 of the body as canonical JSON (keys sorted at every level): the same request always has the same fingerprint. */
export function requestFingerprint(body: unknown): string {
  const canonical = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(canonical);
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.keys(v as object)
          .sort()
          .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
      );
    return v;
  };
  return createHash('sha256')
    .update(JSON.stringify(canonical(body)) ?? '')
    .digest('hex');
}

/**
 * Exactly-once requests by idempotency key (decisions.md), shared by every operation that takes
 * one (checkout, returns, offline upload, and every create through the Idempotency-Key header:
 * apps/api http/idempotency.interceptor.ts), so the rules live once:
 *  - the key is recorded inside the work's own transaction (one commit per request), as its last
 *    write: one INSERT of the row with the response, under a unique index. The work's writes and
 *    the key commit together or not at all;
 *  - a concurrent duplicate runs until it meets the first's uncommitted writes (the sale's own
 *    unique index on the key, the store's receipt counter, a sale line's return claim, or at the
 *    latest this key's index entry), waits there for the first to commit, then fails, rolls back
 *    everything it did, and finds the committed key: it replays it. If the first rolled back,
 *    the duplicate simply runs;
 *  - any failure of the work is first checked against a committed key: a retry of a request that
 *    succeeded replays it even when the work would now refuse (a closed session, a changed price,
 *    stock sold since), so the answer never depends on what happened in between;
 *  - so a key never outlives its work: a request that fails, or a process that dies mid-sale,
 *    leaves nothing behind and the retry with the same key runs at once;
 *  - the same key, body and user again: the stored response (same status and body), `replayed`;
 *    another body, another operation or another user: 422 on idempotency_key; 409 with
 *    Retry-After only while the first is still running past the lock wait timeout, or for a
 *    claim still marked in flight (rows left by earlier versions, which committed the claim on
 *    its own; taken over after a minute);
 *  - the work is retried as a whole on deadlocks.
 * The trade-off: a fresh request costs one INSERT for its key; a replay runs the work until it
 * is refused, then reads the key (retries are rare, fresh requests are not).
 * Completed keys and their responses are kept (never purged here: at least the 30 days asked).
 */
@Injectable()
export class IdempotentRequests {
  private readonly logger = new Logger('Idempotency');

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly clock: Clock,
  ) {}

  private get repo() {
    return this.txHost.tx.getRepository(IdempotencyKeyEntity);
  }

  async run(request: IdempotentRequest, successStatus: number, work: () => Promise<unknown>, codec?: AnswerCodec): Promise<IdempotentOutcome> {
    for (let attempt = 1; ; attempt++) {
      try {
        const body = await withTransactionRetry(this.txHost, async () => {
          const result = await work();
          const now = this.clock.now();
          // The key with its response, the work's last write. On MySQL a concurrent duplicate that
          // got this far waits on this index entry for the first request to commit or roll back.
          await insertRows(this.txHost.tx, IdempotencyKeyEntity, [
            {
              key: request.key,
              scope: request.scope,
              fingerprint: request.fingerprint,
              status: 'completed',
              responseStatus: successStatus,
              responseBody: JSON.stringify(codec ? codec.store(result) : result),
              userId: request.userId,
              createdAt: now,
              completedAt: now,
            },
          ]);
          return result;
        });
        return { replayed: false, status: successStatus, body };
      } catch (error) {
        // Whatever refused the work, a key someone committed answers first (a replay or a 422).
        const existing = await this.repo.findOneBy({ key: request.key }).catch(() => null);
        if (!existing) {
          // A wait that outlasted the lock timeout (and its retries): the first is still running.
          if (isLockWaitTimeout(error)) throw inFlight();
          throw error;
        }
        const outcome = await this.answer(existing, request, successStatus, codec);
        if (outcome) return outcome;
        if (attempt >= 3) throw inFlight();
      }
    }
  }

  /**
   * For work that cannot run inside one transaction with its key: it commits on its own, in several
   * transactions, or has effects after its commit (a queued job; the offline upload, each of whose
   * transactions is exactly once by its own key). Must be called outside any transaction. The key
   * is claimed first (`in_flight`, committed, under the unique index), so a concurrent duplicate
   * meets the claim and gets 409 with Retry-After, and a retry after it finished gets the stored
   * answer without running anything. The work then runs; its answer completes the claim, or its
   * failure removes the claim (nothing is kept for a request that failed, as with `run`). The one
   * gap, stated in the README: a process that dies between the work's commit and the completion
   * leaves the claim in flight; it is taken over after a minute and the work runs again.
   */
  async claimThenRun(request: IdempotentRequest, successStatus: number, work: () => Promise<unknown>, codec?: AnswerCodec): Promise<IdempotentOutcome> {
    const claim = await this.claim(request, successStatus, codec);
    if ('replayed' in claim) return claim;
    let result: unknown;
    try {
      result = await work();
    } catch (error) {
      await outsideWriteDeadline(() => this.txHost.withTransaction(() => this.repo.delete({ id: claim.id, status: 'in_flight' }))).catch(() => undefined);
      throw error;
    }
    const stored = JSON.stringify(codec ? codec.store(result) : result);
    await outsideWriteDeadline(() =>
      this.txHost.withTransaction(() =>
        this.repo.update({ id: claim.id }, { status: 'completed', responseStatus: successStatus, responseBody: stored, completedAt: this.clock.now() }),
      ),
    ).catch((error: Error) =>
      // The work is done and answered; its retries meet the claim in flight (409), then take it over after a minute.
      this.logger.warn(`idempotency key ${claim.id}: the answer could not be stored (${error.message}); the claim stays in flight`),
    );
    return { replayed: false, status: successStatus, body: result };
  }

  /** Claims the key (its row id), or the answer an earlier request with it already settles. */
  private async claim(request: IdempotentRequest, successStatus: number, codec?: AnswerCodec): Promise<{ id: number } | IdempotentOutcome> {
    for (let attempt = 1; ; attempt++) {
      const existing = await this.repo.findOneBy({ key: request.key });
      if (existing) {
        const outcome = await this.answer(existing, request, successStatus, codec);
        if (outcome) return outcome;
      }
      try {
        const now = this.clock.now();
        const [id] = await this.txHost.withTransaction(() =>
          insertRows(this.txHost.tx, IdempotencyKeyEntity, [
            { ...request, status: 'in_flight', responseStatus: null, responseBody: null, createdAt: now, completedAt: null },
          ]),
        );
        return { id };
      } catch (error) {
        // Another request claimed it between the read and the insert: answer from its row.
        if (!isUniqueViolation(error) && !isLockWaitTimeout(error)) throw error;
        if (attempt >= 3) throw inFlight();
      }
    }
  }

  /** The answer for a key someone already committed; null when a dead in-flight claim was removed (run again). */
  private async answer(existing: IdempotencyRecord, request: IdempotentRequest, successStatus: number, codec?: AnswerCodec): Promise<IdempotentOutcome | null> {
    if (existing.fingerprint !== request.fingerprint || existing.scope !== request.scope || existing.userId !== request.userId) {
      throw ValidationFailedError.field('idempotency_key', 'This idempotency key was already used for a different request.');
    }
    if (existing.status === 'completed') {
      const stored = JSON.parse(existing.responseBody ?? 'null') as unknown;
      return { replayed: true, status: existing.responseStatus ?? successStatus, body: codec ? codec.restore(stored) : stored };
    }
    const stale = new Date(this.clock.now().getTime() - IN_FLIGHT_STALE_MS);
    const removed = await this.txHost.withTransaction(() => this.repo.delete({ key: request.key, status: 'in_flight', createdAt: LessThan(stale) }));
    if (!removed.affected) throw inFlight();
    return null;
  }
}

/**
 * A claim's bookkeeping after its work (completing or removing it) is not the request's write: the
 * write deadline, which keeps a sale from committing after the till gave up, does not bind it.
 * Without this a request past its deadline would leave its claim in flight (409 for a minute).
 */
function outsideWriteDeadline<T>(fn: () => Promise<T>): Promise<T> {
  const facts = RequestContext.get();
  return facts?.writeDeadline ? RequestContext.run({ ...facts, writeDeadline: undefined }, fn) : fn();
}

const inFlight = () => new ConflictError('idempotency_in_flight', 'A request with this idempotency key is still being processed; retry shortly.', 1);
