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
  /** The part of `paid` paid after the sale (its invoice payments; what the invoice reports call collected on account). */
  paidLater: number;
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

/**
 * The sale's own records (checkout writes them; voids and returns change them): narrow on purpose.
 * Invoices, the feed queries and the session totals are ports of their own (invoice.ports.ts,
 * sale-queries.ports.ts, sessions' SessionSalesTotals).
 */
export abstract class SaleRepository {
  /** The store's next receipt number (its counter row stays locked until the sale commits). */
  abstract nextReceiptNumber(storeId: number): Promise<number>;
  abstract insertSale(sale: Omit<SaleRecord, 'id'>): Promise<SaleRecord>;
  /** One multi-row INSERT; the rows as written, with their ids. */
  abstract insertItems(items: Omit<SaleItemRecord, 'id'>[]): Promise<SaleItemRecord[]>;
  /** One multi-row INSERT; the rows as written, with their ids. */
  abstract insertPayments(payments: Omit<SalePaymentRecord, 'id'>[]): Promise<SalePaymentRecord[]>;
  abstract find(id: number): Promise<SaleRecord | null>;
  abstract items(saleIds: number[]): Promise<SaleItemRecord[]>;
  abstract payments(saleIds: number[]): Promise<SalePaymentRecord[]>;
  abstract updateSale(id: number, changes: Partial<SaleRecord>): Promise<void>;
  /** Locks the sale's row until the transaction ends (MySQL; SQLite transactions take turns): false when there is no such sale. */
  abstract lockSale(id: number): Promise<boolean>;
  /** Adds returned units to a line only while they stay within what was sold (one conditional UPDATE): false otherwise. */
  abstract addReturnedQuantity(saleId: number, saleItemId: number, quantity: number): Promise<boolean>;
}
