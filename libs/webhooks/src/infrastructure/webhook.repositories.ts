import { Injectable } from '@nestjs/common';
import { In, IsNull } from 'typeorm';
import { Page, pageOffset, PageRequest } from '@pos/kernel';
import { OutboxEventEntity, TxRepository, utcDate } from '@pos/platform';
import {
  AttemptRecord,
  DeliveryFilter,
  DeliveryRecord,
  EndpointRecord,
  OutboxEventRecord,
  OutboxRelayRepository,
  WebhookDeliveryRepository,
  WebhookEndpointRepository,
} from '../application/webhook.ports';
import { WebhookDeliveryAttemptEntity, WebhookDeliveryEntity, WebhookEndpointEntity } from './webhook.entities';

@Injectable()
export class TypeOrmWebhookEndpointRepository extends TxRepository implements WebhookEndpointRepository {
  private get repo() {
    return this.em.getRepository(WebhookEndpointEntity);
  }

  create(endpoint: Omit<EndpointRecord, 'id'>): Promise<EndpointRecord> {
    return this.repo.save(this.repo.create(endpoint));
  }

  find(id: number): Promise<EndpointRecord | null> {
    return this.repo.findOneBy({ id });
  }

  async list(page: PageRequest): Promise<Page<EndpointRecord>> {
    const [rows, total] = await this.repo.findAndCount({ order: { id: 'ASC' }, skip: pageOffset(page), take: page.perPage });
    return new Page(rows, total, page.page, page.perPage);
  }

  async update(id: number, changes: Partial<Omit<EndpointRecord, 'id'>>): Promise<void> {
    await this.repo.update({ id }, changes);
  }

  async delete(id: number): Promise<void> {
    // Attempts and deliveries go with it (explicitly, not only by the foreign keys' cascade).
    await this.em.query('DELETE FROM webhook_delivery_attempts WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE endpoint_id = ?)', [id]);
    await this.em.getRepository(WebhookDeliveryEntity).delete({ endpointId: id });
    await this.repo.delete({ id });
  }

  receiving(): Promise<Pick<EndpointRecord, 'id' | 'events'>[]> {
    return this.repo.find({ select: { id: true, events: true }, where: { active: true, disabledAt: IsNull() }, order: { id: 'ASC' } });
  }
}

/** An outbox row as the drivers answer it (ids as strings on MySQL) and the record made of it: the relay and the event log read the same. */
export interface OutboxRow {
  id: number | string;
  type: string;
  store_id: number | string | null;
  payload: string;
  created_at: Date | string;
}

export function outboxRecord(r: OutboxRow): OutboxEventRecord {
  return {
    id: Number(r.id),
    type: r.type,
    storeId: r.store_id === null ? null : Number(r.store_id),
    payload: r.payload,
    createdAt: utcDate.from(r.created_at) as Date,
  };
}

@Injectable()
export class TypeOrmOutboxRelayRepository extends TxRepository implements OutboxRelayRepository {
  private get repo() {
    return this.em.getRepository(OutboxEventEntity);
  }

  async hasUnpublished(): Promise<boolean> {
    const rows = (await this.em.query('SELECT id FROM outbox_events WHERE published_at IS NULL ORDER BY id LIMIT 1')) as unknown[];
    return rows.length > 0;
  }

  /**
   * MySQL/MariaDB: the rows stay locked by this transaction and concurrent relays skip them
   * (SKIP LOCKED), so each event is claimed by exactly one relay. SQLite has no row locks and
   * needs none: one process, transactions taking turns.
   */
  async claimUnpublished(limit: number): Promise<OutboxEventRecord[]> {
    const lock = this.isSqlite ? '' : ' FOR UPDATE SKIP LOCKED';
    const rows = (await this.em.query(
      `SELECT id, type, store_id, payload, created_at FROM outbox_events WHERE published_at IS NULL ORDER BY id LIMIT ${Math.trunc(limit)}${lock}`,
    )) as OutboxRow[];
    return rows.map(outboxRecord);
  }

  async markPublished(ids: number[], at: Date): Promise<void> {
    if (ids.length)
      await this.repo
        .createQueryBuilder()
        .update()
        .set({ publishedAt: at })
        .where({ id: In(ids) })
        .execute();
  }

  async insertPublished(type: string, payload: Record<string, unknown>, at: Date): Promise<OutboxEventRecord> {
    const row = await this.repo.save(this.repo.create({ type, storeId: null, payload: JSON.stringify(payload), createdAt: at, publishedAt: at }));
    return { id: row.id, type: row.type, storeId: row.storeId, payload: row.payload, createdAt: row.createdAt };
  }

  async find(id: number): Promise<OutboxEventRecord | null> {
    const row = await this.repo.findOneBy({ id });
    return row && { id: row.id, type: row.type, storeId: row.storeId, payload: row.payload, createdAt: row.createdAt };
  }
}

@Injectable()
export class TypeOrmWebhookDeliveryRepository extends TxRepository implements WebhookDeliveryRepository {
  private get repo() {
    return this.em.getRepository(WebhookDeliveryEntity);
  }

  async insertMany(deliveries: Omit<DeliveryRecord, 'id'>[]): Promise<void> {
    for (let i = 0; i < deliveries.length; i += 500) {
      await this.repo
        .createQueryBuilder()
        .insert()
        .values(deliveries.slice(i, i + 500))
        .orIgnore()
        .updateEntity(false)
        .execute();
    }
  }

  findByUuid(uuid: string): Promise<DeliveryRecord | null> {
    return this.repo.findOneBy({ uuid });
  }

  async list(endpointId: number, filter: DeliveryFilter, page: PageRequest): Promise<Page<DeliveryRecord>> {
    const qb = this.repo.createQueryBuilder('d').where('d.endpoint_id = :endpointId', { endpointId });
    if (filter.status) qb.andWhere('d.status = :status', { status: filter.status });
    if (filter.eventType) qb.andWhere('d.event_type = :eventType', { eventType: filter.eventType });
    const [rows, total] = await qb.orderBy('d.id', 'DESC').skip(pageOffset(page)).take(page.perPage).getManyAndCount();
    return new Page(rows, total, page.page, page.perPage);
  }

  attempts(deliveryId: number): Promise<AttemptRecord[]> {
    return this.em.getRepository(WebhookDeliveryAttemptEntity).find({ where: { deliveryId }, order: { attempt: 'ASC', id: 'ASC' } });
  }

  async claim(uuid: string, owner: string, now: Date, leaseUntil: Date): Promise<boolean> {
    const result = await this.repo
      .createQueryBuilder()
      .update()
      .set({ lockedBy: owner, lockedUntil: leaseUntil })
      .where("uuid = :uuid AND status = 'pending' AND next_attempt_at <= :now AND (locked_until IS NULL OR locked_until < :now)", { uuid, now })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  async loadForSend(uuid: string): Promise<{ delivery: DeliveryRecord; endpoint: EndpointRecord; event: OutboxEventRecord } | null> {
    const row = await this.repo
      .createQueryBuilder('d')
      .innerJoinAndMapOne('d.endpoint', WebhookEndpointEntity, 'e', 'e.id = d.endpoint_id')
      .innerJoinAndMapOne('d.event', OutboxEventEntity, 'o', 'o.id = d.event_id')
      .where('d.uuid = :uuid', { uuid })
      .getOne();
    if (!row?.endpoint || !row.event) return null;
    const { endpoint, event, ...delivery } = row;
    return { delivery, endpoint, event: { id: event.id, type: event.type, storeId: event.storeId, payload: event.payload, createdAt: event.createdAt } };
  }

  async settle(uuid: string, owner: string, changes: Partial<DeliveryRecord>): Promise<boolean> {
    const result = await this.repo
      .createQueryBuilder()
      .update()
      .set({ ...changes, lockedBy: null, lockedUntil: null })
      .where('uuid = :uuid AND locked_by = :owner', { uuid, owner })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  async addAttempt(attempt: Omit<AttemptRecord, 'id'>): Promise<void> {
    await this.em.getRepository(WebhookDeliveryAttemptEntity).insert(attempt);
  }

  async update(id: number, changes: Partial<DeliveryRecord>): Promise<void> {
    await this.repo.update({ id }, changes);
  }

  dueUnleased(dueBefore: Date, now: Date, limit: number): Promise<DeliveryRecord[]> {
    return this.repo
      .createQueryBuilder('d')
      .where("d.status = 'pending' AND d.next_attempt_at <= :dueBefore AND (d.locked_until IS NULL OR d.locked_until < :now)", { dueBefore, now })
      .orderBy('d.next_attempt_at', 'ASC')
      .limit(limit)
      .getMany();
  }

  async purgeable(before: Date, now: Date, limit: number): Promise<number[]> {
    const rows = await this.repo
      .createQueryBuilder('d')
      .select('d.id', 'id')
      .where('d.updated_at < :before AND (d.locked_until IS NULL OR d.locked_until < :now)', { before, now })
      .orderBy('d.id', 'ASC')
      .limit(limit)
      .getRawMany<{ id: number | string }>();
    return rows.map((r) => Number(r.id));
  }

  async delete(ids: number[]): Promise<void> {
    if (!ids.length) return;
    await this.em.getRepository(WebhookDeliveryAttemptEntity).delete({ deliveryId: In(ids) });
    await this.repo.delete({ id: In(ids) });
  }
}
