import { Injectable } from '@nestjs/common';
import { Brackets, In, MoreThan } from 'typeorm';
import { changeWhere, Page, pageOffset, PageRequest } from '@pos/kernel';
import { TxRepository } from '@pos/platform';
import type { ReturnStatus } from '../domain/return-status';
import {
  CreditNoteRecord,
  LineClaimRecord,
  ReturnFilter,
  ReturnItemRecord,
  ReturnReasonRecord,
  ReturnRefundRecord,
  ReturnRepository,
  SaleReturnRecord,
} from '../application/return.ports';
import {
  CreditNoteEntity,
  LineClaimEntity,
  ReturnCounterEntity,
  ReturnItemEntity,
  ReturnReasonEntity,
  ReturnRefundEntity,
  SaleReturnEntity,
} from './return.entities';

@Injectable()
export class TypeOrmReturnRepository extends TxRepository implements ReturnRepository {
  reasons(activeOnly: boolean): Promise<ReturnReasonRecord[]> {
    return this.em.getRepository(ReturnReasonEntity).find({ where: activeOnly ? { isActive: true } : {}, order: { sortOrder: 'ASC', id: 'ASC' } });
  }

  reasonsByIds(ids: number[]): Promise<ReturnReasonRecord[]> {
    return ids.length ? this.em.getRepository(ReturnReasonEntity).findBy({ id: In(ids) }) : Promise.resolve([]);
  }

  /**
   * Like receipt numbers: one UPDATE increments the store's counter (its row lock held until
   * commit on MySQL; SQLite transactions take turns), then it is read. The UPDATE comes first so
   * two writers never both hold a shared lock they then try to upgrade; the row is created once.
   */
  async nextNumber(storeId: number, kind: 'return' | 'credit_note'): Promise<number> {
    const counters = this.em.getRepository(ReturnCounterEntity);
    const bump = () =>
      counters
        .createQueryBuilder()
        .update()
        .set({ lastNumber: () => 'last_number + 1' })
        .where('store_id = :storeId AND kind = :kind', { storeId, kind })
        .execute();
    if (!(await bump()).affected) {
      await counters.createQueryBuilder().insert().values({ storeId, kind, lastNumber: 0 }).orIgnore().execute();
      await bump();
    }
    return (await counters.findOneByOrFail({ storeId, kind })).lastNumber;
  }

  insertReturn(r: Omit<SaleReturnRecord, 'id'>): Promise<SaleReturnRecord> {
    const repo = this.em.getRepository(SaleReturnEntity);
    return repo.save(repo.create(r));
  }

  async insertItems(items: Omit<ReturnItemRecord, 'id'>[]): Promise<void> {
    if (items.length) await this.em.getRepository(ReturnItemEntity).insert(items);
  }

  find(id: number): Promise<SaleReturnRecord | null> {
    return this.em.getRepository(SaleReturnEntity).findOneBy({ id });
  }

  items(returnIds: number[]): Promise<ReturnItemRecord[]> {
    return returnIds.length
      ? this.em.getRepository(ReturnItemEntity).find({ where: { returnId: In(returnIds) }, order: { returnId: 'ASC', lineNo: 'ASC' } })
      : Promise.resolve([]);
  }

  refunds(returnIds: number[]): Promise<ReturnRefundRecord[]> {
    return returnIds.length
      ? this.em.getRepository(ReturnRefundEntity).find({ where: { returnId: In(returnIds) }, order: { id: 'ASC' } })
      : Promise.resolve([]);
  }

  creditNotes(returnIds: number[]): Promise<CreditNoteRecord[]> {
    return returnIds.length ? this.em.getRepository(CreditNoteEntity).findBy({ returnId: In(returnIds) }) : Promise.resolve([]);
  }

  async update(id: number, from: readonly ReturnStatus[], changes: Partial<SaleReturnRecord>): Promise<boolean> {
    const result = await this.em.getRepository(SaleReturnEntity).update({ id, status: In([...from]) }, changes);
    return (result.affected ?? 0) > 0;
  }

  async insertRefunds(refunds: Omit<ReturnRefundRecord, 'id'>[]): Promise<void> {
    if (refunds.length) await this.em.getRepository(ReturnRefundEntity).insert(refunds);
  }

  insertCreditNote(note: Omit<CreditNoteRecord, 'id'>): Promise<CreditNoteRecord> {
    const repo = this.em.getRepository(CreditNoteEntity);
    return repo.save(repo.create(note));
  }

  async list(f: ReturnFilter, page: PageRequest): Promise<Page<SaleReturnRecord>> {
    const qb = this.em.getRepository(SaleReturnEntity).createQueryBuilder('r').where('1 = 1');
    if (f.storeIds !== 'all') qb.andWhere('r.store_id IN (:...scope)', { scope: f.storeIds.length ? [...f.storeIds] : [0] });
    if (f.storeId !== undefined) qb.andWhere('r.store_id = :storeId', { storeId: f.storeId });
    // Returns whose goods (any line) come back to that warehouse.
    if (f.warehouseId !== undefined)
      qb.andWhere('r.id IN (SELECT ri.return_id FROM sale_return_items ri WHERE ri.warehouse_id = :warehouseId)', { warehouseId: f.warehouseId });
    if (f.status) qb.andWhere('r.status = :status', { status: f.status });
    if (f.saleId !== undefined) qb.andWhere('r.sale_id = :saleId', { saleId: f.saleId });
    if (f.from) qb.andWhere('r.created_at >= :from', { from: f.from });
    if (f.to) qb.andWhere('r.created_at < :to', { to: f.to });
    if (f.q) {
      const q = f.q;
      qb.andWhere(
        new Brackets((b) => {
          b.where('r.number = :q', { q }).orWhere('r.receipt_number = :q', { q });
          if (f.qCustomerIds?.length) b.orWhere('r.customer_id IN (:...qCustomerIds)', { qCustomerIds: f.qCustomerIds });
        }),
      );
    }
    if (f.change) {
      // Change mode (issue 26): (updated_at, id) order up to the horizon, no count (IDX_sale_returns_changes).
      const w = changeWhere('r', f.change);
      const rows = await qb.andWhere(w.sql, w.params).orderBy('r.updated_at', 'ASC').addOrderBy('r.id', 'ASC').take(f.change.limit).getMany();
      return new Page(rows, rows.length, 1, f.change.limit);
    }
    const [rows, total] = await qb.orderBy('r.id', 'DESC').skip(pageOffset(page)).take(page.perPage).getManyAndCount();
    return new Page(rows, total, page.page, page.perPage);
  }

  ofSales(saleIds: number[]): Promise<SaleReturnRecord[]> {
    return saleIds.length ? this.em.getRepository(SaleReturnEntity).find({ where: { saleId: In(saleIds) }, order: { id: 'ASC' } }) : Promise.resolve([]);
  }

  processedAfter(afterId: number, limit: number): Promise<SaleReturnRecord[]> {
    return this.em.getRepository(SaleReturnEntity).find({ where: { id: MoreThan(afterId), status: 'processed' }, order: { id: 'ASC' }, take: limit });
  }

  async saleRefunds(saleId: number): Promise<{ paymentMethodId: number; amount: number }[]> {
    const rows = (await this.em.query(
      "SELECT f.payment_method_id AS method, COALESCE(SUM(f.amount), 0) AS amount FROM return_refunds f JOIN sale_returns r ON r.id = f.return_id WHERE r.sale_id = ? AND r.status = 'processed' GROUP BY f.payment_method_id",
      [saleId],
    )) as { method: number | string; amount: number | string }[];
    return rows.map((r) => ({ paymentMethodId: Number(r.method), amount: Number(r.amount) }));
  }

  claims(saleId: number): Promise<LineClaimRecord[]> {
    return this.em.getRepository(LineClaimEntity).find({ where: { saleId }, order: { saleItemId: 'ASC' } });
  }

  async ensureClaims(rows: { saleItemId: number; saleId: number; soldQuantity: number }[]): Promise<void> {
    if (!rows.length) return;
    const repo = this.em.getRepository(LineClaimEntity);
    const existing = new Set((await repo.findBy({ saleItemId: In(rows.map((r) => r.saleItemId)) })).map((c) => c.saleItemId));
    const missing = rows.filter((r) => !existing.has(r.saleItemId));
    if (missing.length)
      await repo
        .createQueryBuilder()
        .insert()
        .values(missing.map((r) => ({ ...r, claimedQuantity: 0, claimedTotal: 0, claimedTax: 0 })))
        .orIgnore()
        .execute();
  }

  async claim(saleItemId: number, quantity: number, total: number, tax: number): Promise<boolean> {
    const result = await this.em
      .createQueryBuilder()
      .update(LineClaimEntity)
      .set({
        claimedQuantity: () => 'claimed_quantity + :quantity',
        claimedTotal: () => 'claimed_total + :total',
        claimedTax: () => 'claimed_tax + :tax',
      })
      .where('sale_item_id = :saleItemId AND claimed_quantity + :quantity <= sold_quantity', { saleItemId, quantity, total, tax })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  async release(saleItemId: number, quantity: number, total: number, tax: number): Promise<void> {
    await this.em
      .createQueryBuilder()
      .update(LineClaimEntity)
      .set({
        claimedQuantity: () => 'claimed_quantity - :quantity',
        claimedTotal: () => 'claimed_total - :total',
        claimedTax: () => 'claimed_tax - :tax',
      })
      .where('sale_item_id = :saleItemId AND claimed_quantity >= :quantity', { saleItemId, quantity, total, tax })
      .execute();
  }

  async sessionCashRefunds(sessionId: number): Promise<number> {
    const [row] = (await this.em.query(
      "SELECT COALESCE(SUM(f.amount), 0) AS amount FROM return_refunds f JOIN sale_returns r ON r.id = f.return_id WHERE r.session_id = ? AND r.status = 'processed' AND f.method_type = 'cash'",
      [sessionId],
    )) as { amount: number | string }[];
    return Number(row?.amount ?? 0);
  }
}
