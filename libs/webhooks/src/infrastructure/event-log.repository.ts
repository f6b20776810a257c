import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { OutboxEventEntity, TxRepository } from '@pos/platform';
import { EventLogRepository, EventRange } from '../application/event-log.ports';
import { OutboxEventRecord } from '../application/webhook.ports';
import { WebhookDeliveryAttemptEntity, WebhookDeliveryEntity } from './webhook.entities';
import { OutboxRow, outboxRecord } from './webhook.repositories';

@Injectable()
export class TypeOrmEventLogRepository extends TxRepository implements EventLogRepository {
  private get repo() {
    return this.em.getRepository(OutboxEventEntity);
  }

  /**
   * The (created_at, id) index serves it: `created_at >= t` bounds the range, the OR only
   * decides the ties at t (spelled out rather than as a row comparison, which MariaDB does not
   * turn into an index range).
   */
  async range(r: EventRange): Promise<OutboxEventRecord[]> {
    if (!r.types.length) return [];
    const qb = this.repo
      .createQueryBuilder('o')
      .select(['o.id AS id', 'o.type AS type', 'o.store_id AS store_id', 'o.payload AS payload', 'o.created_at AS created_at'])
      .where('o.created_at >= :t AND (o.created_at > :t OR o.id > :i)', { t: r.after.t, i: r.after.id })
      .andWhere('o.type IN (:...types)', { types: [...r.types] });
    if (r.upTo) qb.andWhere('o.created_at <= :upTo', { upTo: r.upTo });
    if (r.stores !== 'all') {
      if (r.stores.length) qb.andWhere('(o.store_id IS NULL OR o.store_id IN (:...stores))', { stores: [...r.stores] });
      else qb.andWhere('o.store_id IS NULL');
    }
    const rows = await qb.orderBy('o.created_at', 'ASC').addOrderBy('o.id', 'ASC').limit(Math.trunc(r.limit)).getRawMany<OutboxRow>();
    return rows.map(outboxRecord);
  }

  async eventsWithDelivery(endpointId: number, eventIds: number[]): Promise<Set<number>> {
    if (!eventIds.length) return new Set();
    const rows = await this.em.getRepository(WebhookDeliveryEntity).find({ select: { eventId: true }, where: { endpointId, eventId: In(eventIds) } });
    return new Set(rows.map((r) => Number(r.eventId)));
  }

  async expired(before: Date, limit: number): Promise<number[]> {
    const rows = await this.repo
      .createQueryBuilder('o')
      .select('o.id', 'id')
      .where('o.created_at < :before AND o.published_at IS NOT NULL', { before })
      // the newest row stays, so ids are never handed out twice (SQLite reuses a deleted max id)
      .andWhere('o.id < (SELECT MAX(m.id) FROM outbox_events m)')
      .orderBy('o.created_at', 'ASC')
      .addOrderBy('o.id', 'ASC')
      .limit(Math.trunc(limit))
      .getRawMany<{ id: number | string }>();
    return rows.map((r) => Number(r.id));
  }

  async deleteWithDeliveries(ids: number[]): Promise<{ deliveries: number }> {
    if (!ids.length) return { deliveries: 0 };
    const deliveries = this.em.getRepository(WebhookDeliveryEntity);
    const doomed = (await deliveries.find({ select: { id: true }, where: { eventId: In(ids) } })).map((d) => d.id);
    for (let i = 0; i < doomed.length; i += 1000) {
      const chunk = doomed.slice(i, i + 1000);
      await this.em.getRepository(WebhookDeliveryAttemptEntity).delete({ deliveryId: In(chunk) });
      await deliveries.delete({ id: In(chunk) });
    }
    await this.repo.delete({ id: In(ids) });
    return { deliveries: doomed.length };
  }
}
