import { Injectable } from '@nestjs/common';
import { Propagation } from '@nestjs-cls/transactional';
import { TxRepository } from '@pos/platform';
import { ApprovalAttemptKey, ApprovalAttemptRepository } from '../application/ports';
import { ApprovalAttemptEntity } from './identity.entities';

/** A window that has ended (or never opened): the next failure starts a new one. */
const ENDED = '(window_end_ms IS NULL OR window_end_ms <= :now)';

/**
 * Each method is one statement in a transaction of its own: a failure stays counted when the
 * caller's work rolls back, and a row lock is held only for the statement that counts (creating a
 * key's row and bumping it in one transaction would deadlock on MySQL, where two first failures
 * of one key each hold a gap lock the other's INSERT waits for).
 */
@Injectable()
export class TypeOrmApprovalAttemptRepository extends TxRepository implements ApprovalAttemptRepository {
  async take(key: ApprovalAttemptKey, max: number, windowMs: number, nowMs: number): Promise<boolean> {
    if (await this.bump(key, max, windowMs, nowMs)) return true;
    // No slot, or no row yet (the key's first failure): create it at zero if absent, then again.
    await this.alone(() =>
      this.em
        .getRepository(ApprovalAttemptEntity)
        .createQueryBuilder()
        .insert()
        .values({ ...key, failures: 0, windowEndMs: null })
        .orIgnore()
        .execute(),
    );
    return this.bump(key, max, windowMs, nowMs);
  }

  /**
   * One conditional UPDATE takes the slot: the row lock orders concurrent requests, each sees the
   * count the previous one left, and the affected-row count says whether this one got a slot.
   * `failures` is assigned first: MySQL evaluates SET left to right with the values already
   * assigned, SQLite with the old ones, and both then read the window as it was.
   */
  private async bump(key: ApprovalAttemptKey, max: number, windowMs: number, nowMs: number): Promise<boolean> {
    const result = await this.alone(() =>
      this.em
        .getRepository(ApprovalAttemptEntity)
        .createQueryBuilder()
        .update(ApprovalAttemptEntity)
        .set({
          failures: () => `CASE WHEN ${ENDED} THEN 1 ELSE failures + 1 END`,
          windowEndMs: () => `CASE WHEN ${ENDED} THEN :end ELSE window_end_ms END`,
        })
        .where('cashier_id = :cashierId AND approver_id = :approverId', key)
        .andWhere(`(${ENDED} OR failures < :max)`)
        .setParameters({ now: nowMs, end: nowMs + windowMs, max })
        .execute(),
    );
    return (result.affected ?? 0) > 0;
  }

  async giveBack(key: ApprovalAttemptKey): Promise<void> {
    await this.alone(() =>
      this.em
        .getRepository(ApprovalAttemptEntity)
        .createQueryBuilder()
        .update(ApprovalAttemptEntity)
        .set({ failures: () => 'failures - 1' })
        .where('cashier_id = :cashierId AND approver_id = :approverId AND failures > 0', key)
        .execute(),
    );
  }

  async clear(key: ApprovalAttemptKey): Promise<void> {
    await this.alone(() =>
      this.em
        .getRepository(ApprovalAttemptEntity)
        .createQueryBuilder()
        .update(ApprovalAttemptEntity)
        .set({ failures: 0, windowEndMs: null })
        .where('cashier_id = :cashierId AND approver_id = :approverId AND failures > 0', key)
        .execute(),
    );
  }

  async windowEnd(key: ApprovalAttemptKey): Promise<number | null> {
    const row = await this.em.getRepository(ApprovalAttemptEntity).findOneBy(key);
    return row?.windowEndMs ?? null;
  }

  private alone<T>(work: () => Promise<T>): Promise<T> {
    return this.txHost.withTransaction(Propagation.RequiresNew, work);
  }
}
