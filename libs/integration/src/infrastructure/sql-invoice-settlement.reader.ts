import { Injectable } from '@nestjs/common';
import { TxRepository } from '@pos/platform';
import { InvoiceSettlement, InvoiceSettlementReader } from '../application/invoice-settlement.reader';
import type { StoreWindow } from '../application/session-drawer.reader';

/**
 * Reads the sales context's `invoices`, `invoice_payments` and `sales` tables, read only, in two
 * grouped statements over small sets: the later payments (joined to their invoices by key), and
 * the invoices in status `credited` (the (status, store_id, issued_at) index). Only on-account
 * invoices (a balance left at the till) of sales that were not voided count.
 */
@Injectable()
export class SqlInvoiceSettlementReader extends TxRepository implements InvoiceSettlementReader {
  async settled(filter: { windows: StoreWindow[]; warehouseId?: number }): Promise<InvoiceSettlement[]> {
    if (!filter.windows.length) return [];
    const [paid, credited] = await Promise.all([
      this.grouped(
        'COUNT(DISTINCT i.id) AS invoices, SUM(p.amount) AS amount',
        'invoice_payments p JOIN invoices i ON i.id = p.invoice_id',
        "i.status <> 'void'",
        filter,
      ),
      this.grouped('COUNT(*) AS invoices, 0 AS amount', 'invoices i', "i.status = 'credited'", filter),
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
  ): Promise<{ storeId: number; invoices: number; amount: number }[]> {
    const params: unknown[] = [];
    const windows = f.windows.map((w) => {
      params.push(w.storeId, this.date(w.from), this.date(w.to));
      return '(i.store_id = ? AND i.issued_at >= ? AND i.issued_at < ?)';
    });
    let sql = `SELECT i.store_id AS store_id, ${select} FROM ${from} JOIN sales s ON s.id = i.sale_id WHERE ${where} AND s.status <> 'voided' AND s.balance_due > 0 AND (${windows.join(' OR ')})`;
    if (f.warehouseId !== undefined) {
      sql += ' AND s.warehouse_id = ?';
      params.push(f.warehouseId);
    }
    const rows = (await this.em.query(`${sql} GROUP BY i.store_id`, params)) as Record<string, unknown>[];
    return rows.map((r) => ({ storeId: Number(r.store_id), invoices: Number(r.invoices ?? 0), amount: Number(r.amount ?? 0) }));
  }

  /** Datetimes as the drivers store them (UTC text on SQLite). */
  private date(d: Date): Date | string {
    return this.isSqlite ? d.toISOString().replace('T', ' ').replace('Z', '') : d;
  }
}
