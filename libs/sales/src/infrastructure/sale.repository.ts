import { Injectable } from '@nestjs/common';
import { Brackets, In } from 'typeorm';
import { DAY_MS, nextUtcMonth, Page, pageOffset, PageRequest, utcDayOf, utcMonthOf } from '@pos/kernel';
import { fillSaleCounts, TxRepository, utcDate } from '@pos/platform';
import {
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
import { InvoiceEntity, InvoicePaymentEntity, ReceiptCounterEntity, SaleEntity, SaleItemEntity, SalePaymentEntity } from './sale.entities';

type Kind = 'int' | 'money' | 'text' | 'bool' | 'date';
type Columns = Record<string, [string, Kind]>;
const SALE_COLUMNS: Columns = {
  id: ['id', 'int'],
  store_id: ['storeId', 'int'],
  warehouse_id: ['warehouseId', 'int'],
  session_id: ['sessionId', 'int'],
  user_id: ['userId', 'int'],
  customer_id: ['customerId', 'int'],
  receipt_number: ['receiptNumber', 'text'],
  status: ['status', 'text'],
  subtotal: ['subtotal', 'money'],
  discount_total: ['discountTotal', 'money'],
  tax_total: ['taxTotal', 'money'],
  total_amount: ['totalAmount', 'money'],
  paid_amount: ['paidAmount', 'money'],
  change_amount: ['changeAmount', 'money'],
  balance_due: ['balanceDue', 'money'],
  currency_code: ['currencyCode', 'text'],
  reference: ['reference', 'text'],
  idempotency_key: ['idempotencyKey', 'text'],
  tax_exempt: ['taxExempt', 'bool'],
  tax_exempt_reason: ['taxExemptReason', 'text'],
  offline_created_at: ['offlineCreatedAt', 'date'],
  voided_at: ['voidedAt', 'date'],
  voided_by: ['voidedBy', 'int'],
  void_reason: ['voidReason', 'text'],
  created_at: ['createdAt', 'date'],
  updated_at: ['updatedAt', 'date'],
};
const ITEM_COLUMNS: Columns = {
  id: ['id', 'int'],
  sale_id: ['saleId', 'int'],
  line_no: ['lineNo', 'int'],
  item_id: ['itemId', 'int'],
  sku: ['sku', 'text'],
  name: ['name', 'text'],
  unit_id: ['unitId', 'int'],
  unit_name: ['unitName', 'text'],
  factor: ['factor', 'int'],
  quantity: ['quantity', 'int'],
  base_quantity: ['baseQuantity', 'int'],
  base_price: ['basePrice', 'money'],
  unit_price: ['unitPrice', 'money'],
  unit_cost: ['unitCost', 'money'],
  price_source: ['priceSource', 'text'],
  gross: ['gross', 'money'],
  rule_discount: ['ruleDiscount', 'money'],
  bundle_discount: ['bundleDiscount', 'money'],
  manual_discount: ['manualDiscount', 'money'],
  cart_discount: ['cartDiscount', 'money'],
  discount_reason: ['discountReason', 'text'],
  discount_approved_by: ['discountApprovedBy', 'int'],
  net: ['net', 'money'],
  tax_rate_bp: ['taxRateBp', 'int'],
  tax: ['tax', 'money'],
  total: ['total', 'money'],
  warehouse_id: ['warehouseId', 'int'],
  serial_number: ['serialNumber', 'text'],
  returned_quantity: ['returnedQuantity', 'int'],
  steps: ['steps', 'text'],
};
const PAYMENT_COLUMNS: Columns = {
  id: ['id', 'int'],
  sale_id: ['saleId', 'int'],
  payment_method_id: ['paymentMethodId', 'int'],
  method_code: ['methodCode', 'text'],
  method_type: ['methodType', 'text'],
  amount: ['amount', 'money'],
  tendered: ['tendered', 'money'],
  change_amount: ['changeAmount', 'money'],
  reference: ['reference', 'text'],
  created_at: ['createdAt', 'date'],
};

/** A raw row (either driver) as a record: numbers from bigint strings, booleans from 0/1, UTC dates. */
function fromRow<T>(row: Record<string, unknown>, columns: Columns): T {
  const out: Record<string, unknown> = {};
  for (const [column, [field, kind]] of Object.entries(columns)) {
    const v = row[column];
    out[field] =
      v === null || v === undefined
        ? null
        : kind === 'int' || kind === 'money'
          ? Number(v)
          : kind === 'bool'
            ? Boolean(Number(v))
            : kind === 'date'
              ? utcDate.from(v as string | Date)
              : String(v);
  }
  return out as T;
}

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

  /**
   * Newest first (created_at, then id). Filters the counts can answer (store, warehouse, status,
   * whole UTC days) take the counted path: meta.total from sale_counts, and the page read from the
   * day it starts on, so page 1,000 costs about what page 1 does; other filters (q, cashier,
   * customer, session, times within a day) count the matching rows.
   */
  async list(f: SaleFilter, page: PageRequest): Promise<Page<SaleSummaryRecord>> {
    const wholeDay = (d?: Date) => d === undefined || d.getTime() % DAY_MS === 0;
    if (!f.q && f.userId === undefined && f.customerId === undefined && f.sessionId === undefined && wholeDay(f.from) && wholeDay(f.to))
      return this.countedList(f, page);
    const ids = this.filtered(f)
      .select('s.id', 'id')
      .orderBy('s.created_at', 'DESC')
      .addOrderBy('s.id', 'DESC')
      .offset(pageOffset(page))
      .limit(page.perPage)
      .getQueryAndParameters();
    const [rows, total] = await Promise.all([this.summaryPage(ids), this.filtered(f).getCount()]);
    return new Page(rows, total, page.page, page.perPage);
  }

  /**
   * The counted path in one or two small reads and the page: the counts of the range by period
   * (the whole UTC months inside it from the month rows, but for the newest, and the days outside
   * those from the day rows), then, when the page starts in an older month, that month's days; the
   * page is then read from the day it starts on, skipping only the sales of that day before it.
   */
  private async countedList(f: SaleFilter, page: PageRequest): Promise<Page<SaleSummaryRecord>> {
    const dims: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, ...values: unknown[]) => (dims.push(sql), params.push(...values));
    if (f.storeIds !== 'all')
      add(`store_id IN (${(f.storeIds.length ? f.storeIds : [0]).map(() => '?').join(', ')})`, ...(f.storeIds.length ? f.storeIds : [0]));
    if (f.storeId !== undefined) add('store_id = ?', f.storeId);
    if (f.warehouseId !== undefined) add('warehouse_id = ?', f.warehouseId);
    if (f.status) add('status = ?', f.status);
    const from = f.from ? utcDayOf(f.from) : undefined;
    const to = f.to ? utcDayOf(f.to) : undefined;
    // Whole months: those starting at or after `first` and ending at or before `end`.
    const first = from === undefined ? undefined : utcMonthOf(from) === from ? from : nextUtcMonth(from);
    const end = to === undefined ? undefined : utcMonthOf(to);
    const spans: string[] = [];
    const spanParams: unknown[] = [];
    const span = (grain: 'd' | 'm', lo?: number, hi?: number) => {
      const where = ['grain = ?'];
      spanParams.push(grain);
      if (lo !== undefined) {
        where.push('day >= ?');
        spanParams.push(lo);
      }
      if (hi !== undefined) {
        where.push('day < ?');
        spanParams.push(hi);
      }
      spans.push(`(${where.join(' AND ')})`);
    };
    if (first === undefined || end === undefined || first < end) {
      // The newest whole month is read by its days, with the partial days after it: a page among
      // the latest month's sales (page 1 and the next thousand or so) then needs no second read.
      const split = Math.max(end === undefined ? utcMonthOf(utcDayOf(new Date())) : utcMonthOf(end - 1), first ?? -Infinity);
      if (first === undefined || first < split) span('m', first, split);
      span('d', split, to);
      if (from !== undefined && first !== undefined && from < first) span('d', from, first);
    } else span('d', from, to);
    const read = async (where: string, whereParams: unknown[], groupBy: string) =>
      (
        (await this.em.query(`SELECT ${groupBy}, SUM(n) AS n FROM sale_counts WHERE ${[where, ...dims].join(' AND ')} GROUP BY ${groupBy}`, [
          ...whereParams,
          ...params,
        ])) as { grain?: string; day: number | string; n: number | string }[]
      ).map((r) => ({ month: r.grain === 'm', day: Number(r.day), n: Number(r.n) }));
    const periods = (await read(`(${spans.join(' OR ')})`, spanParams, 'grain, day')).sort((a, b) => b.day - a.day);
    const total = periods.reduce((a, p) => a + p.n, 0);
    const offset = pageOffset(page);
    if (offset >= total) return new Page([], total, page.page, page.perPage);
    // The page starts in the newest period whose sales, with those of the newer periods, reach past the offset.
    const reach = (list: typeof periods, before: number) => {
      for (const p of list) {
        if (before + p.n > offset) return { start: p, before };
        before += p.n;
      }
      return null;
    };
    let { start, before } = reach(periods, 0) ?? { start: periods[periods.length - 1], before: 0 };
    let until = start.month ? nextUtcMonth(start.day) : start.day + 1;
    if (start.month) {
      const days = await read("grain = 'd' AND day >= ? AND day < ?", [start.day, until], 'day');
      // (Were a month's days ever to disagree with its month row, the page is read from the month's end: slower, still right.)
      const inMonth = reach(
        days.sort((a, b) => b.day - a.day),
        before,
      );
      if (inMonth) {
        ({ start, before } = inMonth);
        until = start.day + 1;
      }
    }
    // The page's ids, on the same filters (written here: a query builder costs more than this read).
    const at = (day: number) => (this.isSqlite ? new Date(day * DAY_MS).toISOString().replace('T', ' ').replace('Z', '') : new Date(day * DAY_MS));
    const bounds = [...(from === undefined ? [] : [['created_at >= ?', at(from)]]), ['created_at < ?', at(until)]] as [string, unknown][];
    const rows = await this.summaryPage([
      `SELECT id FROM sales WHERE ${[...dims, ...bounds.map(([sql]) => sql)].join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ${Number(page.perPage)} OFFSET ${offset - before}`,
      [...params, ...bounds.map(([, v]) => v)],
    ]);
    return new Page(rows, total, page.page, page.perPage);
  }

  /**
   * One page of summary rows, newest first, in one statement read raw (no entity hydration): the
   * page's ids are found on the (filter, created_at) index alone, skipping `offset` entries there,
   * and only those rows are then read (a deferred join: a deep page reads 50 rows, not offset + 50).
   * `page` is the statement selecting the page's ids (newest first, offset and limit applied).
   */
  private async summaryPage([pageSql, params]: [sql: string, params: unknown[]]): Promise<SaleSummaryRecord[]> {
    const raw = (await this.em.query(
      'SELECT s.id AS id, s.receipt_number AS receipt_number, s.status AS status, s.store_id AS store_id, s.warehouse_id AS warehouse_id, ' +
        's.currency_code AS currency_code, s.total_amount AS total_amount, s.created_at AS created_at, s.customer_id AS customer_id, ' +
        `s.user_id AS user_id, s.session_id AS session_id, s.reference AS reference FROM sales s INNER JOIN (${pageSql}) page_ids ON page_ids.id = s.id ` +
        'ORDER BY s.created_at DESC, s.id DESC',
      params,
    )) as Record<string, unknown>[];
    const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    return raw.map((r) => ({
      id: Number(r.id),
      receiptNumber: String(r.receipt_number),
      status: String(r.status),
      storeId: Number(r.store_id),
      warehouseId: num(r.warehouse_id),
      currencyCode: String(r.currency_code),
      totalAmount: Number(r.total_amount),
      createdAt: utcDate.from(r.created_at as Date | string) as Date,
      customerId: num(r.customer_id),
      userId: Number(r.user_id),
      sessionId: num(r.session_id),
      reference: r.reference === null || r.reference === undefined ? null : String(r.reference),
    }));
  }

  private filtered(f: SaleFilter) {
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
    return qb;
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
