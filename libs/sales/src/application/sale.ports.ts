import { ChangeRead, Page, PageRequest } from '@pos/kernel';

export interface SaleRecord {
  id: number;
  storeId: number;
  warehouseId: number | null;
  sessionId: number | null;
  userId: number;
  customerId: number | null;
  receiptNumber: string;
  status: string;
  /** The books, in either tax mode: subtotal - discountTotal + taxTotal = totalAmount (amounts before tax). */
  subtotal: number;
  discountTotal: number;
  taxTotal: number;
  totalAmount: number;
  /** The store's tax mode when the sale was made: unit prices include tax. */
  pricesIncludeTax: boolean;
  paidAmount: number;
  changeAmount: number;
  balanceDue: number;
  currencyCode: string;
  reference: string | null;
  idempotencyKey: string;
  taxExempt: boolean;
  taxExemptReason: string | null;
  offlineCreatedAt: Date | null;
  /** When an offline sale reached the server (its created_at is offlineCreatedAt); null for online sales. */
  syncedAt: Date | null;
  voidedAt: Date | null;
  voidedBy: number | null;
  voidReason: string | null;
  /** Voided after its session had closed: the counted drawer keeps the sale (sessions' figures). */
  voidedAfterClose: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** What a list of sales shows of each (contract 2.5): read raw for a page, never whole records. */
export type SaleSummaryRecord = Pick<
  SaleRecord,
  | 'id'
  | 'receiptNumber'
  | 'status'
  | 'storeId'
  | 'warehouseId'
  | 'currencyCode'
  | 'totalAmount'
  | 'createdAt'
  | 'customerId'
  | 'userId'
  | 'sessionId'
  | 'reference'
  | 'updatedAt'
  | 'syncedAt'
>;

export interface SaleItemRecord {
  id: number;
  saleId: number;
  lineNo: number;
  itemId: number;
  sku: string;
  name: string;
  unitId: number | null;
  unitName: string | null;
  factor: number;
  quantity: number;
  baseQuantity: number;
  basePrice: number;
  unitPrice: number;
  unitCost: number;
  priceSource: string;
  /** Before tax in either tax mode (the books): gross - discounts = net, net + tax = total. unitPrice is the shelf price. */
  gross: number;
  ruleDiscount: number;
  bundleDiscount: number;
  manualDiscount: number;
  cartDiscount: number;
  discountReason: string | null;
  discountApprovedBy: number | null;
  net: number;
  taxRateBp: number;
  tax: number;
  /** Tax-inclusive store, exempt sale: the tax the shelf price holds that the customer did not pay (else 0). */
  taxExempted: number;
  total: number;
  warehouseId: number;
  serialNumber: string | null;
  returnedQuantity: number;
  steps: string | null;
}

export interface SalePaymentRecord {
  id: number;
  saleId: number;
  paymentMethodId: number;
  methodCode: string;
  methodType: string;
  amount: number;
  tendered: number | null;
  changeAmount: number;
  reference: string | null;
  createdAt: Date;
}

export interface InvoiceRecord {
  id: number;
  saleId: number;
  storeId: number;
  customerId: number | null;
  number: string;
  status: string;
  issuedAt: Date;
  dueAt: Date;
  amount: number;
  paid: number;
  /** Total of the credit notes issued on it (returns); an on-account part of them reduced the balance. */
  credited: number;
  balance: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface InvoicePaymentRecord {
  id: number;
  invoiceId: number;
  paymentMethodId: number;
  methodCode: string;
  amount: number;
  reference: string | null;
  userId: number;
  createdAt: Date;
}

export interface InvoiceFilter {
  storeIds: readonly number[] | 'all';
  storeId?: number;
  warehouseId?: number;
  status?: string;
  from?: Date;
  to?: Date;
  q?: string;
  now: Date;
  /** Change mode (issue 26): as SaleFilter.change. */
  change?: ChangeRead;
}

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
  customerId: number | null;
  status: string;
  /** Index of the first age cutoff the issue date is after (cutoffs.length: older than all). */
  bucket: number;
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
  /** Descending instants: bucket i holds invoices issued after cutoffs[i] (and not after an earlier one). */
  ageCutoffs: Date[];
  /** Group by customer too (aging); otherwise customerId is null in the groups. */
  byCustomer?: boolean;
}

export abstract class SaleRepository {
  /** Sales with id > afterId in id order, at most `limit`, with their lines and payments (rebuilding read models). */
  abstract factsAfter(afterId: number, limit: number): Promise<{ sales: SaleRecord[]; items: SaleItemRecord[]; payments: SalePaymentRecord[] }>;
  abstract receivables(filter: ReceivableFilter): Promise<ReceivableGroup[]>;
  /** Recounts the per-day and per-month sale counts the feeds read (after a bulk load). */
  abstract rebuildSaleCounts(): Promise<void>;
  abstract nextReceiptNumber(storeId: number): Promise<number>;
  abstract insertSale(sale: Omit<SaleRecord, 'id'>): Promise<SaleRecord>;
  /** One multi-row INSERT; the rows as written, with their ids. */
  abstract insertItems(items: Omit<SaleItemRecord, 'id'>[]): Promise<SaleItemRecord[]>;
  /** One multi-row INSERT; the rows as written, with their ids. */
  abstract insertPayments(payments: Omit<SalePaymentRecord, 'id'>[]): Promise<SalePaymentRecord[]>;
  abstract find(id: number): Promise<SaleRecord | null>;
  abstract findByIdempotencyKey(key: string): Promise<SaleRecord | null>;
  abstract items(saleIds: number[]): Promise<SaleItemRecord[]>;
  abstract payments(saleIds: number[]): Promise<SalePaymentRecord[]>;
  abstract list(filter: SaleFilter, page: PageRequest): Promise<Page<SaleSummaryRecord>>;
  abstract updateSale(id: number, changes: Partial<SaleRecord>): Promise<void>;
  abstract insertInvoice(invoice: Omit<InvoiceRecord, 'id'>): Promise<InvoiceRecord>;
  abstract invoiceOfSale(saleId: number): Promise<InvoiceRecord | null>;
  abstract invoice(id: number): Promise<InvoiceRecord | null>;
  abstract invoices(filter: InvoiceFilter, page: PageRequest): Promise<Page<InvoiceRecord>>;
  abstract updateInvoice(id: number, changes: Partial<InvoiceRecord>): Promise<void>;
  abstract insertInvoicePayment(p: Omit<InvoicePaymentRecord, 'id'>): Promise<InvoicePaymentRecord>;
  abstract invoicePayments(invoiceId: number): Promise<InvoicePaymentRecord[]>;
  /** Locks the sale's row until the transaction ends (MySQL; SQLite transactions take turns): false when there is no such sale. */
  abstract lockSale(id: number): Promise<boolean>;
  /** Adds returned units to a line only while they stay within what was sold (one conditional UPDATE): false otherwise. */
  abstract addReturnedQuantity(saleId: number, saleItemId: number, quantity: number): Promise<boolean>;
  abstract sessionTotals(sessionId: number): Promise<{ salesCount: number; salesTotal: number; byMethod: Record<string, number> }>;
}
