import { Page, PageRequest } from '@pos/kernel';
import type { OfflinePriceDecision } from './offline-price-policy';

/**
 * Why a sale waits for a manager: an offline price below the server's reference beyond the
 * cashier's limits, or (with none such) an offline sale's explicit discount beyond them.
 */
export type SaleReviewReason = 'offline_price_below_reference' | 'offline_discount_beyond_limits';

/** How a flagged line went beyond the cashier's limits with no approval that verifies. */
export type SaleReviewDecision =
  | Extract<OfflinePriceDecision, 'beyond_limits' | 'approval_invalid'>
  | 'line_discount_beyond_limits'
  | 'line_discount_approval_invalid'
  | 'cart_discount_beyond_limits'
  | 'cart_discount_approval_invalid';

/** A flagged line, in minor units of the sale's currency. */
export interface SaleReviewLine {
  line: number;
  itemId: number;
  quantity: number;
  /** The unit price the terminal charged. */
  unitPrice: number;
  /** Charged for the line before the cart discount (unit price x quantity - the line's own discount). */
  amount: number;
  referenceUnitPrice: number;
  referenceAmount: number;
  difference: number;
  percentBp: number;
  decision: SaleReviewDecision;
}

export interface SaleReviewRecord {
  id: number;
  saleId: number;
  storeId: number;
  /** The cashier who made the sale. */
  userId: number;
  receiptNumber: string;
  reason: SaleReviewReason;
  currencyCode: string;
  lines: SaleReviewLine[];
  /** The flagged lines' differences added up. */
  difference: number;
  /** When the sale happened (offline_created_at). */
  saleCreatedAt: Date;
  /** When it was flagged (the sale arrived). */
  createdAt: Date;
  resolvedAt: Date | null;
  resolvedBy: number | null;
  resolutionNote: string | null;
}

export interface SaleReviewFilter {
  /** Stores the reader may see. */
  storeIds: readonly number[] | 'all';
  storeId?: number;
  status?: 'open' | 'resolved';
  /** Flagged at or after / before (exclusive) these times. */
  from?: Date;
  to?: Date;
}

export abstract class SaleReviewRepository {
  abstract create(review: Omit<SaleReviewRecord, 'id'>): Promise<SaleReviewRecord>;
  abstract find(id: number): Promise<SaleReviewRecord | null>;
  abstract ofSales(saleIds: number[]): Promise<SaleReviewRecord[]>;
  /** Newest first. */
  abstract list(filter: SaleReviewFilter, page: PageRequest): Promise<Page<SaleReviewRecord>>;
  /** Marks an open review resolved; false when it was resolved already (by a concurrent request too). */
  abstract resolve(id: number, by: number, note: string, at: Date): Promise<boolean>;
}
