import { PageQueryDto } from '../http/page-query.dto';
import {
  NestedArray,
  OptionalBoolean,
  OptionalDate,
  OptionalInt,
  OptionalMoney,
  OptionalString,
  RequiredInt,
  RequiredMoney,
  RequiredString,
} from '../http/validators';

const DISCOUNT_TYPES = ['percent', 'percentage', 'amount', 'fixed'] as const;

export class CheckoutItemDto {
  @RequiredInt({ description: 'Item id (string in the contract; a numeric string is accepted)' }) id!: number;
  @RequiredInt({ min: 1, max: 100_000, description: 'Quantity in sale units (whole units)' }) qty!: number;
  @OptionalString({ max: 128 }) serial_number?: string;
  @OptionalMoney({ description: 'Unit price shown by the client; below the server price it is a manual discount' }) price?: number;
  @OptionalInt() unit_id?: number;
  @OptionalInt({ min: 1, max: 100_000_000, description: 'qty x unit factor; checked when given' }) base_quantity?: number;
  @OptionalInt() warehouse_id?: number;
  @OptionalString({ in: DISCOUNT_TYPES }) discount_type?: (typeof DISCOUNT_TYPES)[number];
  @OptionalMoney({ description: 'Percent (0-100) or amount, per discount_type' }) discount_value?: number;
  @OptionalMoney({ description: 'A line discount as an amount (when discount_type is not given)' }) discount_amount?: number;
  @OptionalString({ max: 255 }) discount_reason?: string;
  @OptionalString({ max: 255 }) discount_approved_by?: string;
  @OptionalString({ max: 2000, trim: false, raw: true }) discount_approval_token?: string;
}

export class CheckoutPaymentDto {
  @RequiredString({ max: 32, example: 'cash' }) payment_method_code!: string;
  @OptionalString({ max: 32 }) payment_method_id?: string;
  @RequiredMoney({ min: 0.01 }) amount!: number;
  @OptionalMoney() tendered?: number;
  @OptionalMoney({ description: 'Ignored: the server computes the change' }) change?: number;
  @OptionalString({ max: 128 }) reference?: string;
}

export class CheckoutDto {
  @NestedArray(() => CheckoutItemDto, { required: true, minItems: 1, maxItems: 500 })
  items!: CheckoutItemDto[];

  @NestedArray(() => CheckoutPaymentDto, { required: true, maxItems: 20, description: 'Split tender; may be empty with the legacy payment_method fields' })
  payments!: CheckoutPaymentDto[];

  @OptionalString({ max: 32, description: 'Legacy: one payment of the whole total by this method code' }) payment_method?: string;
  @OptionalString({ max: 32, description: 'Legacy: one payment of the whole total by this method id' }) payment_method_id?: string;
  @RequiredMoney({ description: 'Must equal the server total to the cent (400 otherwise)' }) total_amount!: number;
  @OptionalMoney() subtotal?: number;
  @OptionalString({ max: 32 }) customer_id?: string;
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
  @RequiredString({ max: 128, description: 'Unique per sale (devices send UUIDs)' }) idempotency_key!: string;
  @RequiredInt() store_id!: number;
  @OptionalDate('When an offline device made the sale') offline_created_at?: string;
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
  @RequiredMoney({ min: 0.01 }) amount!: number;
  @OptionalString({ max: 128 }) reference?: string;
}
