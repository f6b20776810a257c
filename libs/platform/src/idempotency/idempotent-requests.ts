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
 *  - the key is claimed first, in its own committed row under a unique index, so however
 *    requests race only one runs the work;
 *  - the work runs in one transaction (retried as a whole on deadlocks) that also stores the
 *    response, so a response is stored if and only if the work committed;
 *  - the same key and body again: the stored response (same status and body), `replayed`;
 *    another body, or another operation: 422 on idempotency_key; while the first still runs:
 *    409 with Retry-After (a claim older than a minute, left by a request that died, is taken over);
 *  - a request that fails frees its key, so the corrected request can use it.
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
    const now = this.clock.now();
    const existing = await this.txHost.withTransaction(() =>
      this.claim({
        key: request.key,
        scope: request.scope,
        fingerprint: request.fingerprint,
        status: 'in_flight',
        responseStatus: null,
        responseBody: null,
        userId: request.userId,
        createdAt: now,
        completedAt: null,
      }),
    );
    if (existing) {
      if (existing.fingerprint !== request.fingerprint || existing.scope !== request.scope) {
        throw ValidationFailedError.field('idempotency_key', 'This idempotency key was already used for a different request.');
      }
      if (existing.status === 'completed')
        return { replayed: true, status: existing.responseStatus ?? successStatus, body: JSON.parse(existing.responseBody ?? 'null') as unknown };
      const stale = new Date(now.getTime() - IN_FLIGHT_STALE_MS);
      if (!(await this.txHost.withTransaction(() => this.takeOver(request.key, stale, now)))) {
        throw new ConflictError('idempotency_in_flight', 'A request with this idempotency key is still being processed; retry shortly.', 1);
      }
    }
    try {
      const body = await withTransactionRetry(this.txHost, async () => {
        const result = await work();
        await this.repo.update(
          { key: request.key },
          { status: 'completed', responseStatus: successStatus, responseBody: JSON.stringify(result), completedAt: this.clock.now() },
        );
        return result;
      });
      return { replayed: false, status: successStatus, body };
    } catch (error) {
      // Nothing was written: free the key so the client can correct the request and retry it.
      await this.txHost.withTransaction(() => this.repo.delete({ key: request.key, status: 'in_flight' })).catch(() => undefined);
      throw error;
    }
  }

  /** Claims the key; returns the existing record when it was already claimed. */
  private async claim(record: Omit<IdempotencyRecord, 'id'>): Promise<IdempotencyRecord | null> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.repo.insert(record);
        return null;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
      // Taken: the holder's record, unless it was released in between (then claim it again).
      const existing = await this.repo.findOneBy({ key: record.key });
      if (existing || attempt >= 3) return existing ?? null;
    }
  }

  private async takeOver(key: string, staleBefore: Date, at: Date): Promise<boolean> {
    const result = await this.repo.update({ key, status: 'in_flight', createdAt: LessThan(staleBefore) }, { createdAt: at });
    return (result.affected ?? 0) > 0;
  }
}
