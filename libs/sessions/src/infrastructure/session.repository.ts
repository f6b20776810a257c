import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { TxRepository, isUniqueViolation } from '@pos/platform';
import { Page, pageOffset, PageRequest } from '@pos/kernel';
import { CashMovementRecord, SessionRecord, SessionRepository } from '../application/session.ports';
import { SessionStatus } from '../domain/session';
import { CashMovementEntity, SessionEntity } from './session.entities';

@Injectable()
export class TypeOrmSessionRepository extends TxRepository implements SessionRepository {
  private get repo() {
    return this.em.getRepository(SessionEntity);
  }

  /** The checkout's read: raw, by the unique live key. */
  async live(userId: number, storeId: number): Promise<SessionRecord | null> {
    return (await this.selectRaw(SessionEntity, 'live_key = ? LIMIT 1', [`${userId}:${storeId}`]))[0] ?? null;
  }

  find(id: number): Promise<SessionRecord | null> {
    return this.repo.findOneBy({ id });
  }

  async lock(id: number): Promise<void> {
    if (!this.isSqlite) await this.em.query('SELECT id FROM cashier_sessions WHERE id = ? FOR UPDATE', [id]);
  }

  liveAt(userId: number, storeId: number, at: Date): Promise<SessionRecord | null> {
    return this.repo
      .createQueryBuilder('s')
      .where('s.user_id = :userId AND s.store_id = :storeId', { userId, storeId })
      .andWhere('s.opened_at <= :at', { at })
      .andWhere('(s.closed_at IS NULL OR s.closed_at >= :at)', { at })
      .orderBy('s.opened_at', 'DESC')
      .addOrderBy('s.id', 'DESC')
      .getOne();
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

  async restateClosedCash(id: number, cash: number, at: Date): Promise<boolean> {
    const result = await this.repo
      .createQueryBuilder()
      .update()
      .set({ expectedCash: () => 'expected_cash + :cash', discrepancy: () => 'discrepancy - :cash', updatedAt: at })
      .where("id = :id AND status = 'closed'", { id, cash })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  addMovement(m: Omit<CashMovementRecord, 'id'>): Promise<CashMovementRecord> {
    const repo = this.em.getRepository(CashMovementEntity);
    return repo.save(repo.create(m));
  }

  movements(sessionId: number): Promise<CashMovementRecord[]> {
    return this.em.getRepository(CashMovementEntity).find({ where: { sessionId }, order: { id: 'ASC' } });
  }

  findMany(ids: number[]): Promise<SessionRecord[]> {
    return this.findByIdsRaw(SessionEntity, ids);
  }

  async cashTotals(ids: number[]): Promise<Map<number, { cashIn: number; cashOut: number }>> {
    const out = new Map<number, { cashIn: number; cashOut: number }>();
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += 1000) {
      const part = unique.slice(i, i + 1000);
      const rows = (await this.em.query(
        `SELECT session_id, type, SUM(amount) AS amount FROM cash_movements WHERE session_id IN (${part.map(() => '?').join(', ')}) GROUP BY session_id, type`,
        part,
      )) as { session_id: number; type: string; amount: number | string }[];
      for (const r of rows) {
        const t = out.get(Number(r.session_id)) ?? { cashIn: 0, cashOut: 0 };
        if (r.type === 'cash_in') t.cashIn += Number(r.amount);
        else if (r.type === 'cash_out') t.cashOut += Number(r.amount);
        out.set(Number(r.session_id), t);
      }
    }
    return out;
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
