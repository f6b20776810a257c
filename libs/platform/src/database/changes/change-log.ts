import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { LessThan } from 'typeorm';
import { ambientNow } from '../../config/ambient-clock';
import { EventDefinition } from '../../events/event-definition';
import { insertRows } from '../insert-rows';
import { OutboxEventEntity, TombstoneEntity } from './change.entities';

/** A deleted record as offline devices learn of it. */
export interface TombstoneRecord {
  id: number;
  entity: string;
  entityId: number;
  storeId: number | null;
  deletedAt: Date;
}

/**
 * Writes, in the caller's ambient transaction, the two change records other parts rely on:
 *  - outbox events (delivered later by the worker: webhooks), so an event exists if and only if
 *    the change that caused it committed;
 *  - tombstones of deleted records, so offline devices can be told "deleted since".
 */
@Injectable()
export class ChangeLog {
  constructor(private readonly tx: TransactionHost<TransactionalAdapterTypeOrm>) {}

  async event<P extends object>(def: EventDefinition<P>, payload: P, storeId: number | null = null): Promise<void> {
    await insertRows(this.tx.tx, OutboxEventEntity, [
      { type: def.type, storeId, payload: JSON.stringify(payload), createdAt: ambientNow(), publishedAt: null },
    ]);
  }

  async tombstone(entity: string, entityId: number, storeId: number | null = null): Promise<void> {
    await this.tx.tx.getRepository(TombstoneEntity).insert({ entity, entityId, storeId, deletedAt: ambientNow() });
  }

  /** Tombstones of some entities written at or after `since`, after an id, in id order (offline sync's delta). */
  tombstonesSince(entities: string[], since: Date, afterId: number, limit: number): Promise<TombstoneRecord[]> {
    if (!entities.length || limit <= 0) return Promise.resolve([]);
    return this.tx.tx
      .getRepository(TombstoneEntity)
      .createQueryBuilder('t')
      .where('t.entity IN (:...entities)', { entities })
      .andWhere('t.deleted_at >= :since', { since })
      .andWhere('t.id > :afterId', { afterId })
      .orderBy('t.id', 'ASC')
      .limit(limit)
      .getMany();
  }

  /** Forgets deletions older than `before` (devices holding an older sync token must download everything again). */
  async purgeTombstones(before: Date): Promise<number> {
    const result = await this.tx.tx.getRepository(TombstoneEntity).delete({ deletedAt: LessThan(before) });
    return result.affected ?? 0;
  }
}
