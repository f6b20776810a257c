import type { StoreWindow } from './session-drawer.reader';

/**
 * What became of a store's on-account invoices issued in a window, as of now, in minor units of
 * the store's currency (void invoices left out).
 */
export interface InvoiceSettlement {
  storeId: number;
  /** Invoices with at least one payment recorded after the sale (POST /invoices/{id}/payments). */
  invoicesPaidLater: number;
  /** The sum of those payments: money collected on account. */
  collected: number;
  /** On-account invoices that credit notes cancelled whole (status credited): settled, never paid. */
  creditedWhole: number;
}

/**
 * The invoice reports' figures of settlement. A credit note settles a balance but collects no
 * money, so "collected" and "paid" must be told from "credited"; the sales context publishes only
 * the open invoices (ReceivablesReader), and the later payments and the invoices closed since are
 * in no sales fact and so in no rollup. Reports read them through this narrow port of their own,
 * read only (like SessionDrawerReader), bound to the `invoices`, `invoice_payments` and `sales` tables.
 */
export abstract class InvoiceSettlementReader {
  /** Per store, of the invoices issued within its window (with `warehouseId`: of sales whose every line left it). */
  abstract settled(filter: { windows: StoreWindow[]; warehouseId?: number }): Promise<InvoiceSettlement[]>;
}
