import { Injectable } from '@nestjs/common';
import { Brackets, In } from 'typeorm';
import { changeWhere, Page, pageOffset, PageRequest, utcDayOf, utcMonthOf } from '@pos/kernel';
import { fillSaleCounts, TxRepository } from '@pos/platform';
import {
  InvoiceFilter,
  InvoicePaymentRecord,
  InvoiceRecord,
  ReceivableFilter,
  ReceivableGroup,
  SaleFilter,
  SaleItemRecord,
  SalePaymentRecord,
  SaleRecord,
  SaleRepository,
  SaleSummaryRecord,
} from '../application/sale.ports';
import { ITEM_COLUMNS, PAYMENT_COLUMNS, SALE_COLUMNS, fromRow } from './sale-rows.mapper';
import { SaleListQuery } from './sale-list.query';
import { InvoiceEntity, InvoicePaymentEntity, ReceiptCounterEntity, SaleEntity, SaleItemEntity, SalePaymentEntity } from './sale.entities';

@Injectable()
export class TypeOrmSaleRepository extends TxRepository implements SaleRepository {
  /**
   * Per-store receipt numbers without gaps from races: one UPDATE increments the store's counter
   * (holding its row lock until commit on MySQL; SQLite transactions take turns), then it is read.
   * The UPDATE comes first: an INSERT IGNORE on an existing row would take a shared lock that two
   * sellers then both try to upgrade (a deadlock). The row is created only the first time.
   */
  /**
   * The store's next receipt number in one statement: the counter row is bumped and its new value
   * read back by the same UPDATE (LAST_INSERT_ID(expr) on MySQL, whose OK packet carries it;
   * RETURNING on SQLite). The row is locked until the sale commits, so numbers never repeat.
   */
  async nextReceiptNumber(storeId: number): Promise<number> {
    const bump = async (): Promise<number | null> => {
      if (this.isSqlite) {
        const rows = (await this.em.query('UPDATE receipt_counters SET last_number = last_number + 1 WHERE store_id = ? RETURNING last_number', [storeId])) as {
          last_number: number;
        }[];
        return rows.length ? Number(rows[0].last_number) : null;
      }
      const ok = (await this.em.query('UPDATE receipt_counters SET last_number = LAST_INSERT_ID(last_number + 1) WHERE store_id = ?', [storeId])) as {
        affectedRows: number;
        insertId: number;
      };
      return ok.affectedRows ? Number(ok.insertId) : null;
    };
    const next = await bump();
    if (next !== null) return next;
    // The store's first sale: its counter row, then the bump.
    await this.em.getRepository(ReceiptCounterEntity).createQueryBuilder().insert().values({ storeId, lastNumber: 0 }).orIgnore().execute();
    return (await bump())!;
  }

  /**
   * Sales after an id with their lines and payments, read as raw rows over an id range (a rebuild
   * reads a million of them: three range scans per batch, no entity hydration).
   */
  async factsAfter(afterId: number, limit: number): Promise<{ sales: SaleRecord[]; items: SaleItemRecord[]; payments: SalePaymentRecord[] }> {
    const raw = (sql: string, params: unknown[]) => this.em.query(sql, params) as Promise<Record<string, unknown>[]>;
    const sales = (await raw('SELECT * FROM sales WHERE id > ? ORDER BY id LIMIT ?', [afterId, limit])).map((r) => fromRow<SaleRecord>(r, SALE_COLUMNS));
    if (!sales.length) return { sales, items: [], payments: [] };
    const range = [sales[0].id, sales[sales.length - 1].id];
    const [items, payments] = await Promise.all([
      raw('SELECT * FROM sale_items WHERE sale_id BETWEEN ? AND ? ORDER BY sale_id, line_no', range),
      raw('SELECT * FROM sale_payments WHERE sale_id BETWEEN ? AND ? ORDER BY id', range),
    ]);
    return {
      sales,
      items: items.map((r) => fromRow<SaleItemRecord>(r, ITEM_COLUMNS)),
      payments: payments.map((r) => fromRow<SalePaymentRecord>(r, PAYMENT_COLUMNS)),
    };
  }

  /** One grouped query over the open invoices (status issued / partially_paid: a small share of all). */
  async receivables(f: ReceivableFilter): Promise<ReceivableGroup[]> {
    if (!f.windows.length) return [];
    const qb = this.em.getRepository(InvoiceEntity).createQueryBuilder('i');
    const params: Record<string, unknown> = { now: f.now };
    const bucket = f.ageCutoffs.map((c, n) => ((params[`c${n}`] = c), `WHEN i.issued_at > :c${n} THEN ${n}`)).join(' ');
    qb.select('i.store_id', 'store_id')
      .addSelect(f.byCustomer ? 'i.customer_id' : 'NULL', 'customer_id')
      .addSelect('i.status', 'status')
      .addSelect(bucket ? `CASE ${bucket} ELSE ${f.ageCutoffs.length} END` : '0', 'bucket')
      .addSelect('CASE WHEN i.due_at < :now THEN 1 ELSE 0 END', 'overdue')
      .addSelect('COUNT(*)', 'n')
      .addSelect('SUM(i.amount)', 'amount')
      .addSelect('SUM(i.balance)', 'balance')
      .where("i.status IN ('issued', 'partially_paid') AND i.balance > 0")
      .andWhere(
        new Brackets((b) =>
          f.windows.forEach((w, n) => {
            params[`ws${n}`] = w.storeId;
            params[`wt${n}`] = w.to;
            if (w.from) params[`wf${n}`] = w.from;
            b.orWhere(`(i.store_id = :ws${n} AND i.issued_at < :wt${n}${w.from ? ` AND i.issued_at >= :wf${n}` : ''})`);
          }),
        ),
      );
    if (f.warehouseId !== undefined) {
      qb.innerJoin(SaleEntity, 's', 's.id = i.sale_id').andWhere('s.warehouse_id = :warehouseId');
      params.warehouseId = f.warehouseId;
    }
    qb.groupBy('i.store_id');
    if (f.byCustomer) qb.addGroupBy('i.customer_id');
    const rows = await qb.setParameters(params).addGroupBy('i.status').addGroupBy('bucket').addGroupBy('overdue').getRawMany<Record<string, unknown>>();
    return rows.map((r) => ({
      storeId: Number(r.store_id),
      customerId: r.customer_id === null ? null : Number(r.customer_id),
      status: String(r.status),
      bucket: Number(r.bucket),
      overdue: Number(r.overdue) === 1,
      count: Number(r.n),
      amount: Number(r.amount),
      balance: Number(r.balance),
    }));
  }

  async insertSale(sale: Omit<SaleRecord, 'id'>): Promise<SaleRecord> {
    const [id] = await this.insertRows(SaleEntity, [sale]);
    const saved: SaleRecord = { ...sale, id };
    await this.count(saved, [[saved.status, 1]]);
    return saved;
  }

  /**
   * sale_counts: sales per UTC day and per UTC month (grains 'd' and 'm'), store, warehouse and
   * status, changed in the transaction that inserts a sale or changes its status, by one upsert of
   * every row concerned (in key order, so concurrent writers take their row locks in one order).
   * The feeds read meta.total from it (exact, without counting a million rows: whole months from
   * the month rows) and find the day a deep page starts on.
   */
  private async count(sale: Pick<SaleRecord, 'createdAt' | 'storeId' | 'warehouseId'>, changes: [status: string, delta: 1 | -1][]): Promise<void> {
    const day = utcDayOf(sale.createdAt);
    const sorted = [...changes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const rows = [
      ...sorted.map(([status, delta]) => ['d', day, sale.storeId, sale.warehouseId ?? 0, status, delta]),
      ...sorted.map(([status, delta]) => ['m', utcMonthOf(day), sale.storeId, sale.warehouseId ?? 0, status, delta]),
    ];
    const upsert = this.isSqlite
      ? 'ON CONFLICT (grain, day, store_id, warehouse_id, status) DO UPDATE SET n = n + excluded.n'
      : 'ON DUPLICATE KEY UPDATE n = n + VALUES(n)';
    await this.em.query(
      `INSERT INTO sale_counts (grain, day, store_id, warehouse_id, status, n) VALUES ${rows.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')} ${upsert}`,
      rows.flat(),
    );
  }

  /** Recounts sale_counts from the sales (after a bulk load that wrote the sales table directly). */
  rebuildSaleCounts(): Promise<void> {
    return fillSaleCounts(this.em, !this.isSqlite);
  }

  async insertItems(items: Omit<SaleItemRecord, 'id'>[]): Promise<SaleItemRecord[]> {
    if (!items.length) return [];
    const ids = await this.insertRows(SaleItemEntity, items);
    return items.map((item, i) => ({ ...item, id: ids[i] }));
  }

  async insertPayments(payments: Omit<SalePaymentRecord, 'id'>[]): Promise<SalePaymentRecord[]> {
    if (!payments.length) return [];
    const ids = await this.insertRows(SalePaymentEntity, payments);
    return payments.map((payment, i) => ({ ...payment, id: ids[i] }));
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

  /** Newest first; the filters and the counted path are SaleListQuery's. */
  async list(f: SaleFilter, page: PageRequest): Promise<Page<SaleSummaryRecord>> {
    return new SaleListQuery(this.em, this.isSqlite).list(f, page);
  }

  async updateSale(id: number, changes: Partial<SaleRecord>): Promise<void> {
    const before = changes.status !== undefined ? await this.find(id) : null;
    await this.em.getRepository(SaleEntity).update({ id }, changes);
    if (before && changes.status !== undefined && changes.status !== before.status) {
      await this.count(before, [
        [before.status, -1],
        [changes.status, 1],
      ]);
    }
  }

  async insertInvoice(invoice: Omit<InvoiceRecord, 'id'>): Promise<InvoiceRecord> {
    const [id] = await this.insertRows(InvoiceEntity, [invoice]);
    return { ...invoice, id };
  }

  invoiceOfSale(saleId: number): Promise<InvoiceRecord | null> {
    return this.em.getRepository(InvoiceEntity).findOneBy({ saleId });
  }

  invoice(id: number): Promise<InvoiceRecord | null> {
    return this.em.getRepository(InvoiceEntity).findOneBy({ id });
  }

  async invoices(f: InvoiceFilter, page: PageRequest): Promise<Page<InvoiceRecord>> {
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
    if (f.change) {
      // Change mode (issue 26): (updated_at, id) order up to the horizon, no count (IDX_invoices_changes).
      const w = changeWhere('i', f.change);
      const rows = await qb.andWhere(w.sql, w.params).orderBy('i.updated_at', 'ASC').addOrderBy('i.id', 'ASC').take(f.change.limit).getMany();
      return new Page(rows, rows.length, 1, f.change.limit);
    }
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
