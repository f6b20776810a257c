import { FieldErrors } from '@pos/kernel';
import type { CheckoutInput, SaleReviewView } from '@pos/sales';
import type { CustomerInput } from '@pos/customers';

export const UPLOAD_TYPES = ['sale', 'customer', 'cash_movement'] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];

/** A cash movement recorded offline (amount in minor units of the store's currency). */
export interface OfflineCashMovementInput {
  sessionId?: number;
  type: 'cash_in' | 'cash_out';
  amount: number;
  reason: string;
  notes?: string;
  reference?: string;
}

export type UploadCommand =
  | {
      type: 'sale';
      input: Omit<CheckoutInput, 'storeId' | 'idempotencyKey' | 'offlineCreatedAt'>;
      /** The idempotency key of a customer created offline (this upload or an earlier one): the sale's customer. */
      customerRef?: string;
    }
  | { type: 'customer'; input: CustomerInput & { name: string } }
  | { type: 'cash_movement'; input: OfflineCashMovementInput };

/**
 * One uploaded transaction as the HTTP edge read it: its key, type and time, the fingerprint of
 * its content (a repeat with the same fingerprint is a duplicate), and either the use-case
 * command or the problems found (field -> messages, keyed within the transaction: `data.items.0.qty`).
 */
export interface UploadTransaction {
  key: string | null;
  type: string | null;
  fingerprint: string;
  offlineCreatedAt: Date | null;
  command: UploadCommand | null;
  problems: FieldErrors | null;
}

export type UploadStatus = 'accepted' | 'duplicate' | 'rejected';

/** The answer for one transaction, in the order sent. */
export interface UploadResult {
  index: number;
  idempotency_key: string | null;
  type: string | null;
  status: UploadStatus;
  /** A duplicate's original outcome (an identical transaction sent again gets the same answer). */
  original_status: 'accepted' | 'rejected' | null;
  /** The created record's id (sale, customer or cash movement) and, for a sale, its receipt number. */
  id: number | null;
  receipt_number: string | null;
  record: Record<string, unknown> | null;
  code: string | null;
  message: string | null;
  errors: FieldErrors | null;
  /**
   * A sale's review when it was flagged (its price below the server's reference beyond the
   * cashier's limits): the sale is accepted all the same; null otherwise.
   */
  review: SaleReviewView | null;
}

export interface UploadReport {
  store_id: number;
  server_time: string;
  received: number;
  accepted: number;
  duplicate: number;
  rejected: number;
  results: UploadResult[];
}
