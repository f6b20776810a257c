import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { PageQueryDto } from '../http/page-query.dto';
import {
  NestedArray,
  OptionalBoolean,
  OptionalDate,
  OptionalInt,
  OptionalIntArray,
  OptionalMoney,
  OptionalPercent,
  OptionalString,
  RequiredInt,
  RequiredMoney,
  RequiredString,
} from '../http/validators';
import { AliasOf } from '../http/body-names';

const DISCOUNT_TYPES = ['percent', 'percentage', 'amount', 'fixed'] as const;

export class PricingLineDto {
  @AliasOf('item_id') @RequiredInt({ description: 'Item id (numeric string accepted)' }) id!: number;
  @AliasOf('quantity') @RequiredInt({ min: 1, max: 100_000, description: 'Quantity in sale units (whole units)' }) qty!: number;
  @OptionalInt() unit_id?: number;
  @OptionalMoney({ description: 'The unit price the client shows; a different price is a manual override' }) price?: number;
  @OptionalString({ in: DISCOUNT_TYPES }) discount_type?: (typeof DISCOUNT_TYPES)[number];
  @OptionalMoney({ description: 'Percent (0-100) or amount, per discount_type' }) discount_value?: number;
}

export class PricingCartDto {
  @OptionalInt({ description: "Default: the token's store" }) store_id?: number;
  @OptionalInt() customer_id?: number;
  @OptionalBoolean('Zero the tax (needs customer_id or tax_exempt_reason)') tax_exempt?: boolean;
  @OptionalString({ max: 255 }) tax_exempt_reason?: string;
  @OptionalString({ in: DISCOUNT_TYPES }) cart_discount_type?: (typeof DISCOUNT_TYPES)[number];
  @OptionalMoney() cart_discount_value?: number;

  @NestedArray(() => PricingLineDto, { required: true, minItems: 1, maxItems: 500 })
  items!: PricingLineDto[];
}

export class ValidateLineDto extends PricingLineDto {
  @OptionalMoney({ description: 'The line total the client computed' }) total?: number;
}

export class PricingValidateDto extends PricingCartDto {
  @NestedArray(() => ValidateLineDto, { required: true, minItems: 1, maxItems: 500 })
  declare items: ValidateLineDto[];

  @OptionalMoney() subtotal?: number;
  @OptionalMoney() tax_total?: number;
  @RequiredMoney({ description: 'The cart total the client computed' }) total_amount!: number;
}

export class CalculateDto {
  @AliasOf('id') @RequiredInt() item_id!: number;
  @AliasOf('qty') @OptionalInt({ min: 1, max: 100_000 }) quantity?: number;
  @OptionalInt() unit_id?: number;
  @OptionalInt() store_id?: number;
  @OptionalInt() customer_id?: number;
}

export class ItemPriceQuery {
  @OptionalInt() store_id?: number;
  @OptionalInt() customer_id?: number;
  @OptionalInt({ min: 1, max: 100_000 }) quantity?: number;
  @OptionalInt() unit_id?: number;
}

export class TierDto {
  @RequiredInt({ min: 1, max: 100_000 }) min_quantity!: number;
  @OptionalPercent({ description: 'Percent off this tier (or unit_price)' }) percent_off?: number;
  @OptionalMoney() unit_price?: number;
}

const RULE_KINDS = ['percent_off', 'amount_off', 'fixed_price', 'quantity_tiers', 'buy_x_get_y'] as const;
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

class RuleFieldsDto {
  @OptionalString({ max: 2000, multiline: true }) description?: string;
  @OptionalInt({ min: 0, max: 1_000_000 }) priority?: number;
  @OptionalBoolean('Applies alone: no other rule applies to a line it applies to') is_exclusive?: boolean;
  @OptionalBoolean() is_active?: boolean;
  @OptionalPercent({ description: 'percent_off rules' }) percent_off?: number;
  @OptionalMoney() amount_off?: number;
  @OptionalMoney() fixed_price?: number;
  @NestedArray(() => TierDto, { required: false, maxItems: 20, description: 'quantity_tiers rules' })
  tiers?: TierDto[];
  @OptionalInt({ min: 1, max: 1000 }) buy_quantity?: number;
  @OptionalInt({ min: 1, max: 1000 }) get_quantity?: number;
  @OptionalPercent({ description: 'Percent off the free units (default 100)' }) get_percent_off?: number;
  @OptionalIntArray() item_ids?: number[];
  @OptionalIntArray() category_ids?: number[];
  @OptionalIntArray() customer_group_ids?: number[];
  @OptionalIntArray() store_ids?: number[];
  @OptionalInt({ min: 1, max: 100_000 }) min_quantity?: number;
  @OptionalMoney() min_subtotal?: number;
  @ApiPropertyOptional({
    type: 'integer',
    isArray: true,
    maxItems: 7,
    items: { type: 'integer', minimum: 0, maximum: 6 },
    description: '0 = Sunday ... 6 = Saturday (store time zone)',
  })
  @Transform(({ value }: { value: unknown }) => (value === null ? undefined : value))
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(7)
  @IsInt({ each: true })
  @Min(0, { each: true })
  @Max(6, { each: true })
  days_of_week?: number[];
  @OptionalString({ max: 5, description: 'HH:MM, store time zone' }) @Matches(HHMM, { message: '$property must be a time HH:MM' }) start_time?: string;
  @OptionalString({ max: 5, description: 'HH:MM, store time zone' }) @Matches(HHMM, { message: '$property must be a time HH:MM' }) end_time?: string;
  @OptionalDate() valid_from?: string;
  @OptionalDate() valid_to?: string;
}

export class CreateRuleDto extends RuleFieldsDto {
  @RequiredString({ max: 255 }) name!: string;
  @RequiredString({ in: RULE_KINDS }) kind!: (typeof RULE_KINDS)[number];
}

export class UpdateRuleDto extends RuleFieldsDto {
  @OptionalString({ max: 255, nonEmpty: true }) name?: string;
  @OptionalString({ in: RULE_KINDS }) kind?: (typeof RULE_KINDS)[number];
  @OptionalInt({
    min: 1,
    description: 'The version this edit is based on (from a GET); when the record has moved on since: 412, nothing written. The If-Match header does the same',
  })
  version?: number;
}

export class RuleListQuery extends PageQueryDto {
  @OptionalInt() store_id?: number;
  @OptionalString({ in: ['active', 'upcoming', 'expired'] }) validity?: 'active' | 'upcoming' | 'expired';
  @OptionalInt() item_id?: number;
  @OptionalInt() category_id?: number;
  @OptionalBoolean() is_active?: boolean;
}

export class BundleItemDto {
  @AliasOf('id') @RequiredInt() item_id!: number;
  @AliasOf('qty') @RequiredInt({ min: 1, max: 1000 }) quantity!: number;
}

class BundleFieldsDto {
  @OptionalString({ max: 2000, multiline: true }) description?: string;
  @OptionalBoolean() is_active?: boolean;
  @OptionalIntArray() store_ids?: number[];
  @OptionalDate() valid_from?: string;
  @OptionalDate() valid_to?: string;
}

export class CreateBundleDto extends BundleFieldsDto {
  @RequiredString({ max: 255 }) name!: string;
  @RequiredString({ max: 32 }) code!: string;
  @RequiredMoney() price!: number;
  @NestedArray(() => BundleItemDto, { required: true, minItems: 1, maxItems: 50 })
  items!: BundleItemDto[];
}

export class UpdateBundleDto extends BundleFieldsDto {
  @OptionalString({ max: 255, nonEmpty: true }) name?: string;
  @OptionalString({ max: 32, nonEmpty: true }) code?: string;
  @OptionalMoney() price?: number;
  @NestedArray(() => BundleItemDto, { required: false, minItems: 1, maxItems: 50, description: 'When given, replaces the components' })
  items?: BundleItemDto[];
}

export class BundleListQuery extends PageQueryDto {
  @OptionalInt() store_id?: number;
  @OptionalString({ in: ['active', 'upcoming', 'expired'] }) validity?: 'active' | 'upcoming' | 'expired';
}

export class BundleCalculateDto {
  @OptionalInt() bundle_id?: number;
  @OptionalMoney() price?: number;
  @AliasOf('qty') @OptionalInt({ min: 1, max: 10_000 }) quantity?: number;
  @NestedArray(() => BundleItemDto, { required: false, minItems: 1, maxItems: 50, description: 'Components (with price), when bundle_id is not given' })
  items?: BundleItemDto[];
}

export class AvailabilityQuery {
  @OptionalInt({ description: "Default: the store's default warehouse" }) warehouse_id?: number;
}

export class ConvertQuery {
  @RequiredMoney({ max: 999_999_999_999 }) amount!: number;
  @RequiredString({ max: 3, min: 3 }) from!: string;
  @RequiredString({ max: 3, min: 3 }) to!: string;
}

export class RateDto {
  @RequiredMoney({ decimals: 8, min: 0.00000001, max: 1_000_000, description: 'Units of this currency per 1 unit of the base currency.', example: 0.9234 })
  rate!: number;
  @OptionalDate() effective_at?: string;
}

export class TaxInfoQuery {
  @OptionalInt() store_id?: number;
}

export class DiscountApproveDto {
  @RequiredString({ max: 255, email: true }) approver_email!: string;
  @OptionalString({ max: 1024, trim: false, raw: true }) password?: string;
  @OptionalString({ max: 16, trim: false, raw: true }) pin?: string;
  @OptionalString({ max: 16, description: "The approver's TOTP code, required with a password when they have 2FA" }) two_factor_code?: string;
  @OptionalInt({ description: "Default: the token's store" }) store_id?: number;
  @OptionalInt({ description: "The line's item; omit for a cart discount" }) item_id?: number;
  @RequiredString({ in: DISCOUNT_TYPES }) discount_type!: (typeof DISCOUNT_TYPES)[number];
  @RequiredMoney() discount_value!: number;
  @OptionalMoney({
    description:
      "What the discount is taken of, in the store's currency at its shelf prices (tax included in a tax-inclusive store): for a line, its quantity x unit price after automatic price rules and bundles; for the cart, the lines after their own discounts. Required for a percent discount: the approval covers the money it comes to (`approved_amount`), never more. For an amount discount, optional (the approval covers its value, at most this).",
    example: 50,
  })
  base_amount?: number;
  @RequiredString({ max: 128, description: 'The cart it is for (the checkout idempotency_key)' }) cart_reference!: string;
}

export class PriceChangeDto {
  @RequiredInt() item_id!: number;
  @OptionalInt({ description: "Change this price book's entry instead of the item's base price" }) price_book_id?: number;
  @OptionalInt({ min: 1, max: 100_000, description: 'Price-book tier (default 1)' }) min_quantity?: number;
  @RequiredMoney() price!: number;
}

export class BulkPricesDto {
  @NestedArray(() => PriceChangeDto, { required: true, minItems: 1, maxItems: 10_000 })
  changes!: PriceChangeDto[];
}

export class PosProductsQuery extends PageQueryDto {
  @OptionalInt({ description: "Default: the token's store" }) store_id?: number;
  @OptionalInt({ description: "Default: the store's default warehouse" }) warehouse_id?: number;
  @OptionalInt() category_id?: number;
  @OptionalString({ max: 255 }) q?: string;
}

export class PosSearchQuery {
  @RequiredString({ max: 255, description: 'Name, SKU or barcode' }) q!: string;
  @RequiredInt() store_id!: number;
  @OptionalInt() warehouse_id?: number;
  @OptionalInt() category_id?: number;
  @OptionalInt({ min: 1, max: 100, description: 'Default 20, max 100' }) limit?: number;
}

export class PosProductQuery {
  @OptionalInt() store_id?: number;
  @OptionalInt() warehouse_id?: number;
}
