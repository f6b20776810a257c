import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { EventDefinition } from '../../events/event-definition';
import { OutboxEventEntity, TombstoneEntity } from './change.entities';

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
    await this.tx.tx
      .getRepository(OutboxEventEntity)
      .insert({ type: def.type, storeId, payload: JSON.stringify(payload), createdAt: new Date(), publishedAt: null });
  }

  async tombstone(entity: string, entityId: number, storeId: number | null = null): Promise<void> {
    await this.tx.tx.getRepository(TombstoneEntity).insert({ entity, entityId, storeId, deletedAt: new Date() });
  }
}
