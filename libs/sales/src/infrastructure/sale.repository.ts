import { Injectable } from '@nestjs/common';
import { Brackets, In } from 'typeorm';
import { Page, pageOffset, PageRequest } from '@pos/kernel';
import { TxRepository } from '@pos/platform';
import { InvoicePaymentRecord, InvoiceRecord, SaleFilter, SaleItemRecord, SalePaymentRecord, SaleRecord, SaleRepository } from '../application/sale.ports';
import { InvoiceEntity, InvoicePaymentEntity, ReceiptCounterEntity, SaleEntity, SaleItemEntity, SalePaymentEntity } from './sale.entities';

@Injectable()
export class TypeOrmSaleRepository extends TxRepository implements SaleRepository {
  /**
   * Per-store receipt numbers without gaps from races: one UPDATE increments the store's counter
   * (holding its row lock until commit on MySQL; SQLite transactions take turns), then it is read.
   * The UPDATE comes first: an INSERT IGNORE on an existing row would take a shared lock that two
   * sellers then both try to upgrade (a deadlock). The row is created only the first time.
   */
  async nextReceiptNumber(storeId: number): Promise<number> {
    const counters = this.em.getRepository(ReceiptCounterEntity);
    const bump = () =>
      counters
        .createQueryBuilder()
        .update()
        .set({ lastNumber: () => 'last_number + 1' })
        .where('store_id = :storeId', { storeId })
        .execute();
    if (!(await bump()).affected) {
      await counters.createQueryBuilder().insert().values({ storeId, lastNumber: 0 }).orIgnore().execute();
      await bump();
    }
    return (await counters.findOneByOrFail({ storeId })).lastNumber;
  }

  insertSale(sale: Omit<SaleRecord, 'id'>): Promise<SaleRecord> {
    const repo = this.em.getRepository(SaleEntity);
    return repo.save(repo.create(sale));
  }

  async insertItems(items: Omit<SaleItemRecord, 'id'>[]): Promise<void> {
    if (items.length) await this.em.getRepository(SaleItemEntity).insert(items);
  }

  async insertPayments(payments: Omit<SalePaymentRecord, 'id'>[]): Promise<void> {
    if (payments.length) await this.em.getRepository(SalePaymentEntity).insert(payments);
  }

  find(id: number): Promise<SaleRecord | null> {
    return this.em.getRepository(SaleEntity).findOneBy({ id });
  }

  findByIdempotencyKey(key: string): Promise<SaleRecord | null> {
    return this.em.getRepository(SaleEntity).findOneBy({ idempotencyKey: key });
  }

  items(saleIds: number[]): Promise<SaleItemRecord[]> {
    return saleIds.length
      ? this.em.getRepository(SaleItemEntity).find({ where: { saleId: In(saleIds) }, order: { saleId: 'ASC', lineNo: 'ASC' } })
      : Promise.resolve([]);
  }

  payments(saleIds: number[]): Promise<SalePaymentRecord[]> {
    return saleIds.length ? this.em.getRepository(SalePaymentEntity).find({ where: { saleId: In(saleIds) }, order: { id: 'ASC' } }) : Promise.resolve([]);
  }

  async list(f: SaleFilter, page: PageRequest): Promise<Page<SaleRecord>> {
    const qb = this.em.getRepository(SaleEntity).createQueryBuilder('s').where('1 = 1');
    if (f.storeIds !== 'all') qb.andWhere('s.store_id IN (:...scope)', { scope: f.storeIds.length ? [...f.storeIds] : [0] });
    if (f.storeId !== undefined) qb.andWhere('s.store_id = :storeId', { storeId: f.storeId });
    if (f.warehouseId !== undefined) qb.andWhere('s.warehouse_id = :warehouseId', { warehouseId: f.warehouseId });
    if (f.status) qb.andWhere('s.status = :status', { status: f.status });
    if (f.from) qb.andWhere('s.created_at >= :from', { from: f.from });
    if (f.to) qb.andWhere('s.created_at < :to', { to: f.to });
    if (f.userId !== undefined) qb.andWhere('s.user_id = :userId', { userId: f.userId });
    if (f.customerId !== undefined) qb.andWhere('s.customer_id = :customerId', { customerId: f.customerId });
    if (f.sessionId !== undefined) qb.andWhere('s.session_id = :sessionId', { sessionId: f.sessionId });
    if (f.q) {
      const q = f.q;
      qb.andWhere(
        new Brackets((b) => {
          b.where('s.receipt_number = :q', { q }).orWhere('s.reference = :q', { q });
          if (f.qItemIds?.length) b.orWhere('s.id IN (SELECT si.sale_id FROM sale_items si WHERE si.item_id IN (:...qItemIds))', { qItemIds: f.qItemIds });
          if (f.qCustomerIds?.length) b.orWhere('s.customer_id IN (:...qCustomerIds)', { qCustomerIds: f.qCustomerIds });
        }),
      );
    }
    const [rows, total] = await qb.orderBy('s.id', 'DESC').skip(pageOffset(page)).take(page.perPage).getManyAndCount();
    return new Page(rows, total, page.page, page.perPage);
  }

  async updateSale(id: number, changes: Partial<SaleRecord>): Promise<void> {
    await this.em.getRepository(SaleEntity).update({ id }, changes);
  }

  insertInvoice(invoice: Omit<InvoiceRecord, 'id'>): Promise<InvoiceRecord> {
    const repo = this.em.getRepository(InvoiceEntity);
    return repo.save(repo.create(invoice));
  }

  invoiceOfSale(saleId: number): Promise<InvoiceRecord | null> {
    return this.em.getRepository(InvoiceEntity).findOneBy({ saleId });
  }

  invoice(id: number): Promise<InvoiceRecord | null> {
    return this.em.getRepository(InvoiceEntity).findOneBy({ id });
  }

  async invoices(
    f: { storeIds: readonly number[] | 'all'; storeId?: number; warehouseId?: number; status?: string; from?: Date; to?: Date; q?: string; now: Date },
    page: PageRequest,
  ): Promise<Page<InvoiceRecord>> {
    const qb = this.em.getRepository(InvoiceEntity).createQueryBuilder('i').where('1 = 1');
    if (f.storeIds !== 'all') qb.andWhere('i.store_id IN (:...scope)', { scope: f.storeIds.length ? [...f.storeIds] : [0] });
    if (f.storeId !== undefined) qb.andWhere('i.store_id = :storeId', { storeId: f.storeId });
    if (f.warehouseId !== undefined)
      qb.andWhere('i.sale_id IN (SELECT ws.id FROM sales ws WHERE ws.warehouse_id = :warehouseId)', { warehouseId: f.warehouseId });
    if (f.status === 'overdue') qb.andWhere('i.balance > 0 AND i.due_at < :now', { now: f.now });
    else if (f.status) qb.andWhere('i.status = :status', { status: f.status });
    if (f.from) qb.andWhere('i.issued_at >= :from', { from: f.from });
    if (f.to) qb.andWhere('i.issued_at < :to', { to: f.to });
    if (f.q) qb.andWhere('i.number = :q', { q: f.q });
    const [rows, total] = await qb.orderBy('i.id', 'DESC').skip(pageOffset(page)).take(page.perPage).getManyAndCount();
    return new Page(rows, total, page.page, page.perPage);
  }

  async updateInvoice(id: number, changes: Partial<InvoiceRecord>): Promise<void> {
    await this.em.getRepository(InvoiceEntity).update({ id }, changes);
  }

  insertInvoicePayment(p: Omit<InvoicePaymentRecord, 'id'>): Promise<InvoicePaymentRecord> {
    const repo = this.em.getRepository(InvoicePaymentEntity);
    return repo.save(repo.create(p));
  }

  invoicePayments(invoiceId: number): Promise<InvoicePaymentRecord[]> {
    return this.em.getRepository(InvoicePaymentEntity).find({ where: { invoiceId }, order: { id: 'ASC' } });
  }

  /** `SELECT ... FOR UPDATE` on MySQL: concurrent writers of the same sale queue here, and read what the previous one committed. */
  async lockSale(id: number): Promise<boolean> {
    if (this.isSqlite) return (await this.find(id)) !== null;
    const rows = (await this.em.query('SELECT id FROM sales WHERE id = ? FOR UPDATE', [id])) as unknown[];
    return rows.length > 0;
  }

  async addReturnedQuantity(saleId: number, saleItemId: number, quantity: number): Promise<boolean> {
    const result = await this.em
      .createQueryBuilder()
      .update(SaleItemEntity)
      .set({ returnedQuantity: () => 'returned_quantity + :quantity' })
      .where('id = :saleItemId AND sale_id = :saleId AND returned_quantity + :quantity <= quantity', { saleItemId, saleId, quantity })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  async sessionTotals(sessionId: number): Promise<{ salesCount: number; salesTotal: number; byMethod: Record<string, number> }> {
    const [count] = (await this.em.query(
      "SELECT COUNT(*) AS n, COALESCE(SUM(total_amount), 0) AS total FROM sales WHERE session_id = ? AND status <> 'voided'",
      [sessionId],
    )) as { n: number | string; total: number | string }[];
    const methods = (await this.em.query(
      "SELECT p.method_code AS code, COALESCE(SUM(p.amount), 0) AS amount FROM sale_payments p JOIN sales s ON s.id = p.sale_id WHERE s.session_id = ? AND s.status <> 'voided' GROUP BY p.method_code",
      [sessionId],
    )) as { code: string; amount: number | string }[];
    return { salesCount: Number(count.n), salesTotal: Number(count.total), byMethod: Object.fromEntries(methods.map((m) => [m.code, Number(m.amount)])) };
  }
}
