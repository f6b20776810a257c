import { ChangeRead, Page, PageRequest } from '@pos/kernel';
import { ReturnCondition } from '../domain/return-condition';
import { ReturnStatus } from '../domain/return-status';

export interface ReturnReasonRecord {
  id: number;
  code: string;
  name: string;
  isActive: boolean;
  sortOrder: number;
}

export interface SaleReturnRecord {
  id: number;
  number: string;
  storeId: number;
  saleId: number;
  /** The sale's receipt number (a snapshot: returns are searched by it without reading sales). */
  receiptNumber: string;
  /** The warehouse of every line when they share one, else null (like sales). */
  warehouseId: number | null;
  customerId: number | null;
  /** Who created it. */
  userId: number;
  status: ReturnStatus;
  reasonId: number | null;
  reasonNotes: string | null;
  internalNotes: string | null;
  /** Notes given when it was rejected or cancelled. */
  decisionNotes: string | null;
  currencyCode: string;
  refundNet: number;
  refundTax: number;
  refundTotal: number;
  idempotencyKey: string | null;
  /** The processing cashier's open session in the store, where its cash refund counts. */
  sessionId: number | null;
  approvedBy: number | null;
  approvedAt: Date | null;
  rejectedBy: number | null;
  rejectedAt: Date | null;
  cancelledBy: number | null;
  cancelledAt: Date | null;
  processedBy: number | null;
  processedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface ReturnItemRecord {
  id: number;
  returnId: number;
  lineNo: number;
  saleItemId: number;
  itemId: number;
  sku: string;
  name: string;
  unitName: string | null;
  factor: number;
  /** Sale units (the line's unit) and the same in base units. */
  quantity: number;
  baseQuantity: number;
  condition: ReturnCondition;
  restock: boolean;
  warehouseId: number;
  serialNumber: string | null;
  notes: string | null;
  refundNet: number;
  refundTax: number;
  refundTotal: number;
  cost: number;
}

export interface ReturnRefundRecord {
  id: number;
  returnId: number;
  paymentMethodId: number;
  methodCode: string;
  methodType: string;
  amount: number;
  createdAt: Date;
}

export interface CreditNoteRecord {
  id: number;
  number: string;
  storeId: number;
  saleId: number;
  invoiceId: number | null;
  returnId: number;
  customerId: number | null;
  currencyCode: string;
  amount: number;
  net: number;
  tax: number;
  /** The part that reduced the invoice balance (refunded to on_account). */
  onAccount: number;
  issuedAt: Date;
  createdAt: Date;
}

/** Units of a sale line held by live returns (pending, approved, processed) and their refunds. */
export interface LineClaimRecord {
  saleItemId: number;
  saleId: number;
  soldQuantity: number;
  claimedQuantity: number;
  claimedTotal: number;
  claimedTax: number;
}

export interface ReturnFilter {
  storeIds: readonly number[] | 'all';
  storeId?: number;
  warehouseId?: number;
  status?: string;
  saleId?: number;
  from?: Date;
  to?: Date;
  /** Return number or receipt number equal to q, or (given) one of these customers. */
  q?: string;
  qCustomerIds?: number[];
  /** Change mode (issue 26): the rows after a position in (updated_at, id) order up to the horizon, the other filters still applied. */
  change?: ChangeRead;
}

export abstract class ReturnRepository {
  abstract reasons(activeOnly: boolean): Promise<ReturnReasonRecord[]>;
  abstract reasonsByIds(ids: number[]): Promise<ReturnReasonRecord[]>;
  /** The next number of a per-store sequence (`return`, `credit_note`), gapless under concurrency. */
  abstract nextNumber(storeId: number, kind: 'return' | 'credit_note'): Promise<number>;
  abstract insertReturn(r: Omit<SaleReturnRecord, 'id'>): Promise<SaleReturnRecord>;
  abstract insertItems(items: Omit<ReturnItemRecord, 'id'>[]): Promise<void>;
  abstract find(id: number): Promise<SaleReturnRecord | null>;
  abstract items(returnIds: number[]): Promise<ReturnItemRecord[]>;
  abstract refunds(returnIds: number[]): Promise<ReturnRefundRecord[]>;
  abstract creditNotes(returnIds: number[]): Promise<CreditNoteRecord[]>;
  /** Moves a return that is in one of `from` (a conditional UPDATE): false when it was not. */
  abstract update(id: number, from: readonly ReturnStatus[], changes: Partial<SaleReturnRecord>): Promise<boolean>;
  abstract insertRefunds(refunds: Omit<ReturnRefundRecord, 'id'>[]): Promise<void>;
  abstract insertCreditNote(note: Omit<CreditNoteRecord, 'id'>): Promise<CreditNoteRecord>;
  abstract list(filter: ReturnFilter, page: PageRequest): Promise<Page<SaleReturnRecord>>;
  abstract ofSales(saleIds: number[]): Promise<SaleReturnRecord[]>;
  /** Processed returns with id > afterId, in id order (the report rebuild's replay). */
  abstract processedAfter(afterId: number, limit: number): Promise<SaleReturnRecord[]>;
  /** What processed returns of a sale refunded, per payment method. */
  abstract saleRefunds(saleId: number): Promise<{ paymentMethodId: number; amount: number }[]>;
  abstract claims(saleId: number): Promise<LineClaimRecord[]>;
  /** Creates the missing claim rows (nothing held yet). */
  abstract ensureClaims(rows: { saleItemId: number; saleId: number; soldQuantity: number }[]): Promise<void>;
  /** Holds more units and their refund, only while the units stay within what was sold (conditional UPDATE): false otherwise. */
  abstract claim(saleItemId: number, quantity: number, total: number, tax: number): Promise<boolean>;
  /** Gives held units and their refund back (a rejected or cancelled return). */
  abstract release(saleItemId: number, quantity: number, total: number, tax: number): Promise<void>;
  /** Cash refunded by processed returns counted in a cashier session. */
  abstract sessionCashRefunds(sessionId: number): Promise<number>;
}
