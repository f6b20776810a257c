import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { Brackets } from 'typeorm';
import { Page, pageOffset, PageRequest } from '@pos/kernel';
import { AuditEntryEntity } from './audit.entities';
import { ambientNow } from '../config/ambient-clock';
import { RequestContext } from './request-context';

/** Who did it: a user (the CLI operator is user 0), or nobody (a job). */
export interface AuditActor {
  userId: number;
  name?: string;
}

export interface AuditEntry {
  /** What was done, `<thing>.<verb>` (e.g. `sale.voided`, `pricing_rule.updated`, `token.revoked`). */
  action: string;
  target: { type: string; id: string | number };
  storeId?: number | null;
  /** The record before and after the change, where it applies (JSON; never secrets). */
  before?: unknown;
  after?: unknown;
}

export interface AuditRecord {
  id: number;
  action: string;
  actorId: number | null;
  actorName: string | null;
  storeId: number | null;
  targetType: string;
  targetId: string;
  before: unknown;
  after: unknown;
  requestId: string | null;
  createdAt: Date;
}

export interface AuditFilter {
  /** Stores the reader may see: entries of other stores are hidden; store-less ones only with 'all'. */
  scope: readonly number[] | 'all';
  storeId?: number;
  actorId?: number;
  action?: string;
  targetType?: string;
  targetId?: string;
  from?: Date;
  to?: Date;
}

/**
 * The audit trail of sensitive actions: who, when, in which store, what, on which record, before
 * and after. Written like the outbox, in the caller's ambient transaction, so an action that
 * rolls back leaves no entry and one that commits always has one. Append only: nothing in the
 * service updates or deletes entries.
 */
@Injectable()
export class AuditLog {
  constructor(private readonly tx: TransactionHost<TransactionalAdapterTypeOrm>) {}

  /** `actor` defaults to the authenticated caller of the request; jobs and the CLI name theirs. */
  async record(entry: AuditEntry, actor?: AuditActor | null): Promise<void> {
    const request = RequestContext.get();
    const requestId = request?.requestId ?? null;
    actor ??= request?.actor ?? null;
    await this.tx.tx.getRepository(AuditEntryEntity).insert({
      action: entry.action,
      actorId: actor?.userId ?? null,
      actorName: actor?.name ?? null,
      storeId: entry.storeId ?? null,
      targetType: entry.target.type,
      targetId: String(entry.target.id),
      before: entry.before === undefined ? null : JSON.stringify(entry.before),
      after: entry.after === undefined ? null : JSON.stringify(entry.after),
      requestId,
      createdAt: ambientNow(),
    });
  }

  async list(filter: AuditFilter, page: PageRequest): Promise<Page<AuditRecord>> {
    const qb = this.tx.tx.getRepository(AuditEntryEntity).createQueryBuilder('a').where('1 = 1');
    if (filter.scope !== 'all') qb.andWhere('a.store_id IN (:...scope)', { scope: filter.scope.length ? [...filter.scope] : [0] });
    if (filter.storeId !== undefined) qb.andWhere('a.store_id = :storeId', { storeId: filter.storeId });
    if (filter.actorId !== undefined) qb.andWhere('a.actor_id = :actorId', { actorId: filter.actorId });
    if (filter.action) {
      const action = filter.action;
      // `sale.voided` exactly, or a family: `sale.` / `sale.*`.
      qb.andWhere(
        new Brackets((b) =>
          action.endsWith('.') || action.endsWith('.*')
            ? b.where(`a.action LIKE :prefix${this.tx.tx.connection.options.type === 'better-sqlite3' ? " ESCAPE '\\'" : ''}`, {
                prefix: action.replace(/\*$/, '').replace(/[\\%_]/g, (c) => '\\' + c) + '%',
              })
            : b.where('a.action = :action', { action }),
        ),
      );
    }
    if (filter.targetType) qb.andWhere('a.target_type = :targetType', { targetType: filter.targetType });
    if (filter.targetId) qb.andWhere('a.target_id = :targetId', { targetId: filter.targetId });
    if (filter.from) qb.andWhere('a.created_at >= :from', { from: filter.from });
    if (filter.to) qb.andWhere('a.created_at < :to', { to: filter.to });
    const [rows, total] = await qb.orderBy('a.id', 'DESC').skip(pageOffset(page)).take(page.perPage).getManyAndCount();
    const parse = (v: string | null) => (v === null ? null : (JSON.parse(v) as unknown));
    return new Page(
      rows.map((r) => ({ ...r, before: parse(r.before), after: parse(r.after) })),
      total,
      page.page,
      page.perPage,
    );
  }
}
