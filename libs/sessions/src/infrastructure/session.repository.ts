import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { TxRepository, isUniqueViolation } from '@pos/platform';
import { Page, pageOffset, PageRequest } from '@pos/kernel';
import { CashMovementRecord, SessionRecord, SessionRepository, SessionSalesTotals } from '../application/session.ports';
import { SessionStatus } from '../domain/session';
import { CashMovementEntity, SessionEntity } from './session.entities';

@Injectable()
export class TypeOrmSessionRepository extends TxRepository implements SessionRepository {
  private get repo() {
    return this.em.getRepository(SessionEntity);
  }

  live(userId: number, storeId: number): Promise<SessionRecord | null> {
    return this.repo.findOneBy({ liveKey: `${userId}:${storeId}` });
  }

  async storeExists(storeId: number): Promise<boolean> {
    const rows: unknown[] = await this.em.query('SELECT id FROM stores WHERE id = ? AND deleted_at IS NULL', [storeId]);
    return rows.length > 0;
  }

  find(id: number): Promise<SessionRecord | null> {
    return this.repo.findOneBy({ id });
  }

  async open(session: Omit<SessionRecord, 'id'>): Promise<SessionRecord | null> {
    try {
      return await this.repo.save(this.repo.create(session));
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  async update(id: number, changes: Partial<SessionRecord>): Promise<void> {
    await this.repo.update({ id }, changes);
  }

  addMovement(m: Omit<CashMovementRecord, 'id'>): Promise<CashMovementRecord> {
    const repo = this.em.getRepository(CashMovementEntity);
    return repo.save(repo.create(m));
  }

  movements(sessionId: number): Promise<CashMovementRecord[]> {
    return this.em.getRepository(CashMovementEntity).find({ where: { sessionId }, order: { id: 'ASC' } });
  }

  async list(filter: { storeIds: readonly number[] | 'all'; userId?: number; status?: SessionStatus }, page: PageRequest): Promise<Page<SessionRecord>> {
    const [rows, total] = await this.repo.findAndCount({
      where: {
        ...(filter.storeIds === 'all' ? {} : { storeId: In([...filter.storeIds, 0]) }),
        ...(filter.userId ? { userId: filter.userId } : {}),
        ...(filter.status ? { status: filter.status } : {}),
      },
      order: { id: 'DESC' },
      skip: pageOffset(page),
      take: page.perPage,
    });
    return new Page(rows, total, page.page, page.perPage);
  }
}

/**
 * The sales figures a session summary uses. The sales context depends on sessions (checkout
 * needs an open session), so it plugs its implementation in here at start; without it (CLI,
 * worker) a session simply has no sales.
 */
@Injectable()
export class SessionSalesTotalsRegistry extends SessionSalesTotals {
  private impl: SessionSalesTotals | null = null;

  use(impl: SessionSalesTotals): void {
    this.impl = impl;
  }

  async totals(sessionId: number) {
    return this.impl ? this.impl.totals(sessionId) : { salesCount: 0, salesTotal: 0, byMethod: {}, cashSales: 0, cashRefunds: 0 };
  }
}
