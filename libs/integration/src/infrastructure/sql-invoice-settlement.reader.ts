import { Injectable } from '@nestjs/common';
import { TxRepository } from '@pos/platform';
import { InvoiceSettlement, InvoiceSettlementReader } from '../application/invoice-settlement.reader';
import type { StoreWindow } from '../application/session-drawer.reader';

/**
 * Reads the sales context's `invoices` and `sales` tables, read only, in two grouped statements
 * over small sets: the invoices paid on after the sale (`paid_later > 0`, the index that leads
 * with it also holds store, issue time and status: the statement reads that index alone), and the
 * invoices in status `credited` (the (status, store_id, issued_at) index). Only on-account
 * invoices (a balance left at the till) of sales that were not voided count.
 *
 * The later payments need no `sales` row: a payment is taken only on an invoice with a balance
 * (SaleService.pay), which only a sale leaving one at the till has, and a voided sale's invoice is
 * `void`. Joining every payment ever recorded to its invoice and sale by key was most of a second
 * at a million sales with a buffer pool smaller than the data (issue 29); `sales` is joined only
 * for a warehouse's scope. A credited invoice may have been paid in full at the till (then
 * returned whole): that statement keeps the sale's balance due as the test.
 */
/** A sale that was not voided and left a balance at the till (an on-account invoice). */
const ON_ACCOUNT_SALE = "s.status <> 'voided' AND s.balance_due > 0";

@Injectable()
export class SqlInvoiceSettlementReader extends TxRepository implements InvoiceSettlementReader {
  async settled(filter: { windows: StoreWindow[]; warehouseId?: number }): Promise<InvoiceSettlement[]> {
    if (!filter.windows.length) return [];
    const [paid, credited] = await Promise.all([
      this.grouped('COUNT(*) AS invoices, SUM(i.paid_later) AS amount', 'invoices i', "i.paid_later > 0 AND i.status <> 'void'", filter),
      this.grouped('COUNT(*) AS invoices, 0 AS amount', 'invoices i', "i.status = 'credited'", filter, ON_ACCOUNT_SALE),
    ]);
    const out = new Map<number, InvoiceSettlement>();
    const of = (storeId: number) => {
      let s = out.get(storeId);
      if (!s) out.set(storeId, (s = { storeId, invoicesPaidLater: 0, collected: 0, creditedWhole: 0 }));
      return s;
    };
    for (const r of paid) Object.assign(of(r.storeId), { invoicesPaidLater: r.invoices, collected: r.amount });
    for (const r of credited) of(r.storeId).creditedWhole = r.invoices;
    return [...out.values()];
  }

  private async grouped(
    select: string,
    from: string,
    where: string,
    f: { windows: StoreWindow[]; warehouseId?: number },
    saleTest?: string,
  ): Promise<{ storeId: number; invoices: number; amount: number }[]> {
    const params: unknown[] = [];
    const windows = f.windows.map((w) => {
      params.push(w.storeId, this.date(w.from), this.date(w.to));
      return '(i.store_id = ? AND i.issued_at >= ? AND i.issued_at < ?)';
    });
    const sale = [saleTest, f.warehouseId !== undefined ? 's.warehouse_id = ?' : undefined].filter((t) => t !== undefined);
    const join = sale.length ? ' JOIN sales s ON s.id = i.sale_id' : '';
    let sql = `SELECT i.store_id AS store_id, ${select} FROM ${from}${join} WHERE ${where} AND (${windows.join(' OR ')})`;
    for (const test of sale) sql += ` AND ${test}`;
    if (f.warehouseId !== undefined) params.push(f.warehouseId);
    const rows = (await this.em.query(`${sql} GROUP BY i.store_id`, params)) as Record<string, unknown>[];
    return rows.map((r) => ({ storeId: Number(r.store_id), invoices: Number(r.invoices ?? 0), amount: Number(r.amount ?? 0) }));
  }

  /** Datetimes as the drivers store them (UTC text on SQLite). */
  private date(d: Date): Date | string {
    return this.isSqlite ? d.toISOString().replace('T', ' ').replace('Z', '') : d;
  }
}
