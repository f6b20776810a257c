import { Brackets, EntityManager } from 'typeorm';
import { ChangeRead, changeWhere, DAY_MS, nextUtcMonth, Page, pageOffset, PageRequest, utcDayOf, utcMonthOf } from '@pos/kernel';
import { utcDate } from '@pos/platform';
import { SaleFilter } from '../application/sale-queries.ports';
import { SaleSummaryRecord } from '../application/sale.ports';
import { SaleEntity } from './sale.entities';

/**
 * The sales list behind SaleQueries.list: built per call by SqlSaleQueries on the ambient transaction's entity manager, so it reads what the use case's
 * transaction sees, exactly as the repository's own methods do.
 */
export class SaleListQuery {
  constructor(
    private readonly em: EntityManager,
    private readonly isSqlite: boolean,
  ) {}

  /**
   * Newest first (created_at, then id). Filters the counts can answer (store, warehouse, status,
   * whole UTC days) take the counted path: meta.total from sale_counts, and the page read from the
   * day it starts on, so page 1,000 costs about what page 1 does; other filters (q, cashier,
   * customer, session, times within a day) count the matching rows.
   */
  async list(f: SaleFilter, page: PageRequest): Promise<Page<SaleSummaryRecord>> {
    if (f.change) return this.changeList(f, f.change);
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
   * Change mode (issue 26): the rows after the position in (updated_at, id) order up to the
   * horizon, at most `change.limit`, on the same filters; no count (a page of the whole feed is
   * `Page(rows, rows.length, 1, limit)`, the caller cuts it). A store-scoped read (an application
   * limited to its stores, or store_id) is a range of IDX_sales_store_changes per store, any other
   * one of IDX_sales_changes (migration 1764800000000).
   */
  private async changeList(f: SaleFilter, change: ChangeRead): Promise<Page<SaleSummaryRecord>> {
    const w = changeWhere('s', change);
    const ids = this.filtered(f)
      .andWhere(w.sql, w.params)
      .select('s.id', 'id')
      .orderBy('s.updated_at', 'ASC')
      .addOrderBy('s.id', 'ASC')
      .limit(change.limit)
      .getQueryAndParameters();
    const rows = await this.summaryPage(ids, 's.updated_at ASC, s.id ASC');
    return new Page(rows, rows.length, 1, change.limit);
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
  private async summaryPage([pageSql, params]: [sql: string, params: unknown[]], order = 's.created_at DESC, s.id DESC'): Promise<SaleSummaryRecord[]> {
    const raw = (await this.em.query(
      'SELECT s.id AS id, s.receipt_number AS receipt_number, s.status AS status, s.store_id AS store_id, s.warehouse_id AS warehouse_id, ' +
        's.currency_code AS currency_code, s.total_amount AS total_amount, s.created_at AS created_at, s.customer_id AS customer_id, ' +
        `s.user_id AS user_id, s.session_id AS session_id, s.reference AS reference, s.updated_at AS updated_at, s.synced_at AS synced_at ` +
        `FROM sales s INNER JOIN (${pageSql}) page_ids ON page_ids.id = s.id ORDER BY ${order}`,
      params,
    )) as Record<string, unknown>[];
    return raw.map(summaryFromRow);
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
}

/**
 * One row of the page statement as a summary record (a projection of 14 columns, read raw for a
 * page: whole records are TxRepository.selectRaw's, see SqlSaleQueries.factsAfter).
 */
function summaryFromRow(r: Record<string, unknown>): SaleSummaryRecord {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
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
    updatedAt: utcDate.from(r.updated_at as Date | string) as Date,
    syncedAt: r.synced_at === null || r.synced_at === undefined ? null : (utcDate.from(r.synced_at as Date | string) as Date),
  };
}
