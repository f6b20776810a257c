import { PaymentMethodRecord, StoreRecord } from '@pos/catalog';
import { Discount, PricedCartResult } from '@pos/pricing';
import type { InvoiceRecord, SaleItemRecord, SalePaymentRecord, SaleRecord } from './sale.ports';

export interface CheckoutLineInput {
  itemId: number;
  qty: number;
  unitId?: number;
  warehouseId?: number;
  serialNumber?: string;
  price?: number;
  discount?: Discount;
  discountReason?: string;
  discountApprovalToken?: string;
  baseQuantity?: number;
}

export interface CheckoutPaymentInput {
  code?: string;
  methodId?: number;
  amount: number;
  tendered?: number;
  /** The change the till computed, if it sent one: checked against the server's. */
  change?: number;
  reference?: string;
}

/** A checkout with every amount in minor units of the store's currency. */
export interface CheckoutInput {
  storeId: number;
  idempotencyKey: string;
  /** The client's total (checked against the server's); validate may leave it out. */
  totalAmount?: number;
  items: CheckoutLineInput[];
  payments: CheckoutPaymentInput[];
  legacyPaymentMethod?: string;
  legacyPaymentMethodId?: number;
  customerId?: number;
  reference?: string;
  cartDiscount?: Discount;
  cartDiscountReason?: string;
  cartDiscountApprovalToken?: string;
  taxExempt?: boolean;
  taxExemptReason?: string;
  offlineCreatedAt?: Date;
}

export type CheckoutOutcome = { replayed: boolean; status: number; body: unknown };

/** When an offline terminal made the sale and when it reached the server. */
export interface OfflineSaleTimes {
  createdAt: Date;
  syncedAt: Date;
}

/** How a sale reaches checkout: rung up at a till now, or uploaded by a terminal that sold offline. */
export type CheckoutMode = { kind: 'online' } | ({ kind: 'offline' } & OfflineSaleTimes);

/** One tender as settled: what it pays towards the total, the cash handed over and the change. */
export interface SettledTender {
  method: PaymentMethodRecord;
  /** The amount as sent. */
  amount: number;
  /** What this tender pays towards the total (cash net of change). */
  applied: number;
  tendered: number | null;
  change: number;
  reference: string | null;
}

/** The tenders against the total (minor units). */
export interface SettledPayments {
  tenders: SettledTender[];
  change: number;
  /** Money received at the till (cash net of change + card/other). */
  paid: number;
  onAccount: number;
}

/** An offline sale's explicit discount beyond the cashier's limits with no valid approval (kept, flagged for review). */
export interface UnapprovedDiscount {
  /** The line's position, or 'cart'. */
  target: number | 'cart';
  amount: number;
  percentBp: number;
  /** A token was presented and did not verify. */
  tokenRefused: boolean;
}

/** Who approved each line's discount (null: within the cashier's limits) and the cart's. */
export interface DiscountApprovals {
  approvals: (number | null)[];
  cartApproval: number | null;
  /** Offline sales only: explicit discounts beyond the limits that no token covers. */
  unapproved: UnapprovedDiscount[];
}

/** Everything a checkout decided before writing anything. */
export interface PreparedSale extends SettledPayments, DiscountApprovals {
  store: StoreRecord;
  priced: PricedCartResult;
  warehouses: number[];
  paymentTermsDays: number;
}

/** What the records step wrote: the sale, its lines and payments, its invoice (with their ids). */
export interface WrittenSale {
  sale: SaleRecord;
  items: SaleItemRecord[];
  payments: SalePaymentRecord[];
  invoice: InvoiceRecord;
}
