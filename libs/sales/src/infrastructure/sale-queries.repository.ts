import { Injectable } from '@nestjs/common';
import { Brackets } from 'typeorm';
import { Page, PageRequest } from '@pos/kernel';
import { TxRepository } from '@pos/platform';
import { AgingFilter, AgingGroup, ReceivableFilter, ReceivableGroup, SaleFilter, SaleQueries } from '../application/sale-queries.ports';
import { SaleItemRecord, SalePaymentRecord, SaleRecord, SaleSummaryRecord } from '../application/sale.ports';
import { fillSaleCounts } from './sale-counts.backfill';
import { SaleListQuery } from './sale-list.query';
import { InvoiceEntity, SaleEntity, SaleItemEntity, SalePaymentEntity } from './sale.entities';

/** The reads over many sales (feed pages, the facts rebuild, receivables) and the feed's counts rebuild. */
@Injectable()
export class SqlSaleQueries extends TxRepository implements SaleQueries {
  /** Newest first; the filters and the counted path are SaleListQuery's. */
  async list(f: SaleFilter, page: PageRequest): Promise<Page<SaleSummaryRecord>> {
    return new SaleListQuery(this.em, this.isSqlite).list(f, page);
  }

  /**
   * Sales after an id with their lines and payments, read raw over an id range (a rebuild reads a
   * million of them: three range scans per batch, no query builder), each row as the entity's
   * columns say (TxRepository.selectRaw: every column, the drivers' own conversions).
   */
  async factsAfter(afterId: number, limit: number): Promise<{ sales: SaleRecord[]; items: SaleItemRecord[]; payments: SalePaymentRecord[] }> {
    const sales: SaleRecord[] = await this.selectRaw(SaleEntity, 'id > ? ORDER BY id LIMIT ?', [afterId, limit]);
    if (!sales.length) return { sales, items: [], payments: [] };
    const range = [sales[0].id, sales[sales.length - 1].id];
    const [items, payments] = await Promise.all([
      this.selectRaw(SaleItemEntity, 'sale_id BETWEEN ? AND ? ORDER BY sale_id, line_no', range),
      this.selectRaw(SalePaymentEntity, 'sale_id BETWEEN ? AND ? ORDER BY id', range),
    ]);
    return { sales, items, payments };
  }

  /** One grouped query over the open invoices (status issued / partially_paid: a small share of all). */
  async receivables(f: ReceivableFilter): Promise<ReceivableGroup[]> {
    if (!f.windows.length) return [];
    const qb = this.openInvoices(f)
      .select('i.store_id', 'store_id')
      .addSelect('i.status', 'status')
      .addSelect('CASE WHEN i.due_at < :now THEN 1 ELSE 0 END', 'overdue')
      .addSelect('COUNT(*)', 'n')
      .addSelect('SUM(i.amount)', 'amount')
      .addSelect('SUM(i.balance)', 'balance')
      .groupBy('i.store_id')
      .addGroupBy('i.status')
      .addGroupBy('overdue');
    const rows = await qb.getRawMany<Record<string, unknown>>();
    return rows.map((r) => ({
      storeId: Number(r.store_id),
      status: String(r.status),
      overdue: Number(r.overdue) === 1,
      count: Number(r.n),
      amount: Number(r.amount),
      balance: Number(r.balance),
    }));
  }

  /**
   * The same open invoices grouped by store and customer only, each age bucket's balance a column:
   * one group a customer and store (not one per status, bucket and due state), so the answer is as
   * short as the customer list and needs no regrouping.
   */
  async aging(f: AgingFilter): Promise<AgingGroup[]> {
    if (!f.windows.length) return [];
    const qb = this.openInvoices(f).select('i.store_id', 'store_id').addSelect('i.customer_id', 'customer_id').addSelect('COUNT(*)', 'n');
    const cuts = f.ageCutoffs;
    cuts.forEach((c, n) => qb.setParameter(`c${n}`, c));
    for (let b = 0; b <= cuts.length; b++) {
      const when = [b < cuts.length ? `i.issued_at > :c${b}` : '', b > 0 ? `i.issued_at <= :c${b - 1}` : ''].filter(Boolean).join(' AND ');
      qb.addSelect(when ? `SUM(CASE WHEN ${when} THEN i.balance ELSE 0 END)` : 'SUM(i.balance)', `b${b}`);
    }
    qb.addSelect('SUM(CASE WHEN i.due_at < :now THEN i.balance ELSE 0 END)', 'overdue').groupBy('i.store_id').addGroupBy('i.customer_id');
    const rows = await qb.getRawMany<Record<string, unknown>>();
    return rows.map((r) => ({
      storeId: Number(r.store_id),
      customerId: r.customer_id === null ? null : Number(r.customer_id),
      count: Number(r.n),
      buckets: Array.from({ length: cuts.length + 1 }, (_, b) => Number(r[`b${b}`])),
      overdue: Number(r.overdue),
    }));
  }

  /** The open invoices of the filter's store windows (and warehouse), `now` bound as :now. */
  private openInvoices(f: ReceivableFilter) {
    const qb = this.em.getRepository(InvoiceEntity).createQueryBuilder('i');
    const params: Record<string, unknown> = { now: f.now };
    qb.where("i.status IN ('issued', 'partially_paid') AND i.balance > 0").andWhere(
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
    return qb.setParameters(params);
  }

  /** Recounts sale_counts from the sales (after a bulk load that wrote the sales table directly). */
  rebuildSaleCounts(): Promise<void> {
    return fillSaleCounts(this.em, !this.isSqlite);
  }
}
