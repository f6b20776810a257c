import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { LessThan } from 'typeorm';
import { Clock, ConflictError, ValidationFailedError } from '@pos/kernel';
import { isUniqueViolation } from '../database/db-errors';
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
 * one (checkout, returns, offline upload), so the rules live once:
 *  - the key is claimed inside the work's own transaction (one commit per request): a row under
 *    a unique index, inserted first, completed with the response last. A concurrent duplicate's
 *    INSERT waits on that index entry (MySQL) or its transaction waits its turn (SQLite), then
 *    finds the committed row and replays it; if the first rolled back, the duplicate runs;
 *  - so a claim never outlives its work: a request that fails, or a process that dies mid-sale,
 *    leaves nothing behind and the retry with the same key runs at once;
 *  - the same key, body and user again: the stored response (same status and body), `replayed`;
 *    another body, another operation or another user: 422 on idempotency_key; 409 with
 *    Retry-After only while the first is still running past the lock wait timeout, or for a
 *    claim still marked in flight (rows left by earlier versions, which committed the claim on
 *    its own; taken over after a minute);
 *  - the work is retried as a whole on deadlocks.
 * Completed keys and their responses are kept (never purged here: at least the 30 days asked).
 */
@Injectable()
export class IdempotentRequests {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly clock: Clock,
  ) {}

  private get repo() {
    return this.txHost.tx.getRepository(IdempotencyKeyEntity);
  }

  async run(request: IdempotentRequest, successStatus: number, work: () => Promise<unknown>): Promise<IdempotentOutcome> {
    for (let attempt = 1; ; attempt++) {
      try {
        const body = await withTransactionRetry(this.txHost, async () => {
          await this.claim({
            key: request.key,
            scope: request.scope,
            fingerprint: request.fingerprint,
            status: 'in_flight',
            responseStatus: null,
            responseBody: null,
            userId: request.userId,
            createdAt: this.clock.now(),
            completedAt: null,
          });
          const result = await work();
          await this.repo.update(
            { key: request.key },
            { status: 'completed', responseStatus: successStatus, responseBody: JSON.stringify(result), completedAt: this.clock.now() },
          );
          return result;
        });
        return { replayed: false, status: successStatus, body };
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        const existing = await this.repo.findOneBy({ key: request.key });
        // A unique index of the work's own (not this key) refused the write: not ours to answer.
        if (!existing) throw error;
        const outcome = await this.answer(existing, request, successStatus);
        if (outcome) return outcome;
        if (attempt >= 3) throw inFlight();
      }
    }
  }

  /**
   * Inserts the claim. On MySQL a concurrent duplicate's INSERT waits here for the first request
   * to commit or roll back; a wait that outlasts the lock timeout means the first is still
   * running: 409 (not retried as a deadlock would be).
   */
  private async claim(record: Omit<IdempotencyRecord, 'id'>): Promise<void> {
    try {
      await this.repo.insert(record);
    } catch (error) {
      const code = (error as { driverError?: { code?: string }; code?: string }).driverError?.code ?? (error as { code?: string }).code;
      if (code === 'ER_LOCK_WAIT_TIMEOUT') throw inFlight();
      throw error;
    }
  }

  /** The answer for a key someone already committed; null when a dead in-flight claim was removed (run again). */
  private async answer(existing: IdempotencyRecord, request: IdempotentRequest, successStatus: number): Promise<IdempotentOutcome | null> {
    if (existing.fingerprint !== request.fingerprint || existing.scope !== request.scope || existing.userId !== request.userId) {
      throw ValidationFailedError.field('idempotency_key', 'This idempotency key was already used for a different request.');
    }
    if (existing.status === 'completed')
      return { replayed: true, status: existing.responseStatus ?? successStatus, body: JSON.parse(existing.responseBody ?? 'null') as unknown };
    const stale = new Date(this.clock.now().getTime() - IN_FLIGHT_STALE_MS);
    const removed = await this.txHost.withTransaction(() => this.repo.delete({ key: request.key, status: 'in_flight', createdAt: LessThan(stale) }));
    if (!removed.affected) throw inFlight();
    return null;
  }
}

const inFlight = () => new ConflictError('idempotency_in_flight', 'A request with this idempotency key is still being processed; retry shortly.', 1);
