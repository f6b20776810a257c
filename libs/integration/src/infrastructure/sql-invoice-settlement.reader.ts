import { Injectable } from '@nestjs/common';
import { TxRepository } from '@pos/platform';
import { InvoiceSettlement, InvoiceSettlementReader } from '../application/invoice-settlement.reader';
import type { StoreWindow } from '../application/session-drawer.reader';

/**
 * Reads the sales context's `invoices` table (and `sales` for a warehouse's scope), read only, in
 * two grouped statements over small sets, each from an index alone: the invoices paid on after
 * the sale (the index that leads with `paid_later` also holds store, issue time and status), and
 * the invoices in status `credited` (the open-invoices index, by status, store and issue time). Only on-account
 * invoices (a balance left at the till) of sales that were not voided count.
 *
 * The later payments need no `sales` row: a payment is taken only on an invoice with a balance
 * (SaleService.pay), which only a sale leaving one at the till has, and a voided sale's invoice is
 * `void`. Joining every payment ever recorded to its invoice and sale by key was most of a second
 * at a million sales with a buffer pool smaller than the data (issue 29); `sales` is joined only
 * for a warehouse's scope. A credited invoice may have been paid in full at the till (then
 * returned whole): it counts when less than its amount was taken at the till (`paid` is the till's
 * part plus `paid_later`), which the open-invoices index also holds, so neither statement reads a
 * sale or an invoice row.
 */
@Injectable()
export class SqlInvoiceSettlementReader extends TxRepository implements InvoiceSettlementReader {
  async settled(filter: { windows: StoreWindow[]; warehouseId?: number }): Promise<InvoiceSettlement[]> {
    if (!filter.windows.length) return [];
    const [paid, credited] = await Promise.all([
      this.grouped('COUNT(*) AS invoices, SUM(i.paid_later) AS amount', "i.paid_later > 0 AND i.status <> 'void'", filter),
      this.grouped('COUNT(*) AS invoices, 0 AS amount', "i.status = 'credited' AND i.paid - i.paid_later < i.amount", filter),
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
    where: string,
    f: { windows: StoreWindow[]; warehouseId?: number },
  ): Promise<{ storeId: number; invoices: number; amount: number }[]> {
    const params: unknown[] = [];
    const windows = f.windows.map((w) => {
      params.push(w.storeId, this.date(w.from), this.date(w.to));
      return '(i.store_id = ? AND i.issued_at >= ? AND i.issued_at < ?)';
    });
    const warehouse = f.warehouseId !== undefined;
    if (warehouse) params.push(f.warehouseId);
    const sql =
      `SELECT i.store_id AS store_id, ${select} FROM invoices i${warehouse ? ' JOIN sales s ON s.id = i.sale_id' : ''} ` +
      `WHERE ${where} AND (${windows.join(' OR ')})${warehouse ? ' AND s.warehouse_id = ?' : ''}`;
    const rows = (await this.em.query(`${sql} GROUP BY i.store_id`, params)) as Record<string, unknown>[];
    return rows.map((r) => ({ storeId: Number(r.store_id), invoices: Number(r.invoices ?? 0), amount: Number(r.amount ?? 0) }));
  }

  /** Datetimes as the drivers store them (UTC text on SQLite). */
  private date(d: Date): Date | string {
    return this.isSqlite ? d.toISOString().replace('T', ' ').replace('Z', '') : d;
  }
}
