import { PageQueryDto } from '../http/page-query.dto';
import {
  NestedArray,
  OptionalBoolean,
  OptionalDate,
  OptionalId,
  OptionalInt,
  OptionalMoney,
  OptionalString,
  RequiredId,
  RequiredInt,
  RequiredMoney,
  RequiredString,
} from '../http/validators';
import { AliasOf } from '../http/body-names';

const DISCOUNT_TYPES = ['percent', 'percentage', 'amount', 'fixed'] as const;
export class CheckoutItemDto {
  @AliasOf('item_id') @RequiredId({ description: 'Item id' }) id!: number;
  @AliasOf('quantity') @RequiredInt({ min: 1, max: 100_000, description: 'Quantity in sale units (whole units)' }) qty!: number;
  @OptionalString({ max: 128 }) serial_number?: string;
  @OptionalMoney({ description: 'Unit price shown by the client; below the server price it is a manual discount' }) price?: number;
  @OptionalId() unit_id?: number;
  @OptionalInt({ min: 1, max: 100_000_000, description: 'qty x unit factor; checked when given' }) base_quantity?: number;
  @OptionalId() warehouse_id?: number;
  @OptionalString({ in: DISCOUNT_TYPES }) discount_type?: (typeof DISCOUNT_TYPES)[number];
  @OptionalMoney({ description: 'Percent (0-100) or amount, per discount_type' }) discount_value?: number;
  @OptionalMoney({ description: 'A line discount as an amount (when discount_type is not given)' }) discount_amount?: number;
  @OptionalString({ max: 255 }) discount_reason?: string;
  @OptionalString({ max: 255 }) discount_approved_by?: string;
  @OptionalString({ max: 2000, trim: false, raw: true }) discount_approval_token?: string;
}
export class CheckoutPaymentDto {
  @RequiredString({ max: 32, example: 'cash' }) payment_method_code!: string;
  @OptionalId({ description: 'Used when payment_method_code names no method of the store' }) payment_method_id?: number;
  @RequiredMoney({
    positive: true,
    description: 'What this payment pays towards the total (cash: net of change; an amount above what is due is over-tendered cash, the excess is change)',
  })
  amount!: number;
  @OptionalMoney({ description: 'Cash handed over (cash only, at least amount; change = tendered - amount). On other methods it may only repeat amount' })
  tendered?: number;
  @OptionalMoney({ description: "The till's change: checked against the server's (400 when it differs); the server computes it either way" })
  change?: number;
  @OptionalString({ max: 128 }) reference?: string;
}

/** The fields a checkout and its dry run (`/pos/checkout/validate`) share. */
export class CheckoutCartDto {
  @NestedArray(() => CheckoutItemDto, { required: true, minItems: 1, maxItems: 500 })
  items!: CheckoutItemDto[];

  @OptionalString({ max: 32, description: 'Legacy: one payment of the whole total by this method code' }) payment_method?: string;
  @OptionalId({ description: 'Legacy: one payment of the whole total by this method id' }) payment_method_id?: number;
  @OptionalMoney() subtotal?: number;
  @OptionalId() customer_id?: number;
  @OptionalString({ max: 128 }) reference?: string;
  @OptionalString({ in: DISCOUNT_TYPES }) cart_discount_type?: (typeof DISCOUNT_TYPES)[number];
  @OptionalMoney() cart_discount_value?: number;
  @OptionalMoney() cart_discount_amount?: number;
  @OptionalString({ max: 255 }) cart_discount_reason?: string;
  @OptionalString({ max: 255 }) cart_discount_approved_by?: string;
  @OptionalString({ max: 2000, trim: false, raw: true }) cart_discount_approval_token?: string;
  @OptionalMoney() total_discount?: number;
  @OptionalBoolean() tax_exempt?: boolean;
  @OptionalString({ max: 255 }) tax_exempt_reason?: string;
  @RequiredInt() store_id!: number;
  @OptionalDate(
    "The device's clock when it rang the sale, kept on the sale; the sale is priced, checked against the stock and dated when the server records it (a sale rung offline goes through /sync/upload). 422 beyond OFFLINE_CLOCK_SKEW_SECONDS (300) ahead or OFFLINE_MAX_AGE_DAYS (30) ago",
  )
  offline_created_at?: string;
}

/** POST /pos/checkout (contract 4.3.1). */
export class CheckoutDto extends CheckoutCartDto {
  @NestedArray(() => CheckoutPaymentDto, {
    required: true,
    maxItems: 20,
    description: 'Split tender; may be empty with the legacy payment_method fields, or when the cart comes to 0 (a sale with no tender)',
  })
  payments!: CheckoutPaymentDto[];

  @RequiredMoney({ description: 'Must equal the server total to the cent (400 otherwise)' }) total_amount!: number;
  @RequiredString({ max: 128, description: 'Unique per sale (devices send UUIDs)' }) idempotency_key!: string;
}

/**
 * POST /pos/checkout/validate: the checkout body, with what a terminal only knows once the
 * server has priced the cart left optional (the total, the tenders) and no idempotency key
 * (nothing is written). The contract shows no body for it, so these are the service's rules.
 */
export class CheckoutValidateDto extends CheckoutCartDto {
  @NestedArray(() => CheckoutPaymentDto, {
    required: false,
    maxItems: 20,
    description: 'The tenders, when known: checked as checkout checks them. Absent or empty (and no legacy payment_method): the cart is priced only',
  })
  payments?: CheckoutPaymentDto[];

  @OptionalMoney({ description: "The till's total, when it has one: a total differing from the server's is 400 with both figures, as at checkout" })
  total_amount?: number;
  @OptionalString({ max: 128, description: 'Accepted and ignored (a dry run writes nothing), so a terminal can send its checkout body as is' })
  idempotency_key?: string;
}

export class SaleListQuery extends PageQueryDto {
  @OptionalInt() store_id?: number;
  @OptionalInt() warehouse_id?: number;
  @OptionalString({ max: 32 }) status?: string;
  @OptionalDate() date_from?: string;
  @OptionalDate() date_to?: string;
  @OptionalDate('Alias of date_from') from?: string;
  @OptionalDate('Alias of date_to') to?: string;
  @OptionalInt({ description: 'Cashier (user id)' }) user_id?: number;
  @OptionalInt() customer_id?: number;
  @OptionalInt() session_id?: number;
  @OptionalString({ max: 255, description: 'Receipt number, reference, customer name/email/phone or item barcode' }) q?: string;
}

export class SaleSearchQuery extends PageQueryDto {
  @RequiredString({ max: 255 }) q!: string;
  @OptionalInt() store_id?: number;
}

export class ReceiptQuery {
  @OptionalString({ in: ['json', 'text'] }) format?: 'json' | 'text';
}

export class VoidDto {
  @OptionalString({ max: 255 }) reason?: string;
}

export class InvoiceListQuery extends PageQueryDto {
  @OptionalInt() store_id?: number;
  @OptionalInt() warehouse_id?: number;
  @OptionalString({ in: ['issued', 'partially_paid', 'paid', 'overdue', 'credited', 'void'] }) status?: string;
  @OptionalDate() date_from?: string;
  @OptionalDate() date_to?: string;
  @OptionalString({ max: 64, description: 'Invoice number' }) q?: string;
}
export class InvoicePaymentDto {
  @RequiredString({ max: 32 }) payment_method_code!: string;
  @RequiredMoney({ positive: true }) amount!: number;
  @OptionalString({ max: 128 }) reference?: string;
}

export class SaleReviewListQuery extends PageQueryDto {
  @OptionalInt() store_id?: number;
  @OptionalString({ in: ['open', 'resolved'], description: 'open (default: both) or resolved' }) status?: 'open' | 'resolved';
  @OptionalDate('Flagged from this UTC day') date_from?: string;
  @OptionalDate('Flagged to this UTC day (inclusive)') date_to?: string;
}

export class ResolveSaleReviewDto {
  @RequiredString({ max: 1000, multiline: true, description: 'What was found and done (kept with the review and in the audit log)' }) note!: string;
}
