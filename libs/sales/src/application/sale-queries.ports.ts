import { ChangeRead, Page, PageRequest } from '@pos/kernel';
import { SaleItemRecord, SalePaymentRecord, SaleRecord, SaleSummaryRecord } from './sale.ports';

export interface SaleFilter {
  storeIds: readonly number[] | 'all';
  storeId?: number;
  warehouseId?: number;
  status?: string;
  from?: Date;
  to?: Date;
  userId?: number;
  customerId?: number;
  sessionId?: number;
  /** Receipt number or reference equal to q, or (given) one of these items sold, or one of these customers. */
  q?: string;
  qItemIds?: number[];
  qCustomerIds?: number[];
  /** Change mode (issue 26): the rows after a position in (updated_at, id) order up to the horizon, the other filters still applied. */
  change?: ChangeRead;
}

/** Open invoices (a balance left, not void) aggregated for receivables reports. */
export interface ReceivableGroup {
  storeId: number;
  status: string;
  overdue: boolean;
  count: number;
  amount: number;
  balance: number;
}

export interface ReceivableFilter {
  /** Per store: invoices issued in [from, to) (from open-ended when absent). */
  windows: { storeId: number; from?: Date; to: Date }[];
  /** Only invoices of sales whose every line left this warehouse. */
  warehouseId?: number;
  now: Date;
}

/** One customer's open invoices at one store, their balance split by age (aging). */
export interface AgingGroup {
  storeId: number;
  customerId: number | null;
  count: number;
  /** Balance per age bucket: [i] issued after ageCutoffs[i] (and not after an earlier one); the last, older than all. */
  buckets: number[];
  /** Balance past its due date. */
  overdue: number;
}

export interface AgingFilter extends ReceivableFilter {
  /** Descending instants, the buckets' bounds. */
  ageCutoffs: Date[];
}

/** The reads over many sales: the sales feed's pages, the facts rebuild, receivables, and the feed's counts. */
export abstract class SaleQueries {
  /** Newest first (or, in change mode, in (updated_at, id) order), as summary rows. */
  abstract list(filter: SaleFilter, page: PageRequest): Promise<Page<SaleSummaryRecord>>;
  /** Sales with id > afterId in id order, at most `limit`, with their lines and payments (rebuilding read models). */
  abstract factsAfter(afterId: number, limit: number): Promise<{ sales: SaleRecord[]; items: SaleItemRecord[]; payments: SalePaymentRecord[] }>;
  abstract receivables(filter: ReceivableFilter): Promise<ReceivableGroup[]>;
  /** The open invoices per store and customer, with the balance per age bucket as columns. */
  abstract aging(filter: AgingFilter): Promise<AgingGroup[]>;
  /** Recounts the per-day and per-month sale counts the feeds read (after a bulk load). */
  abstract rebuildSaleCounts(): Promise<void>;
}
