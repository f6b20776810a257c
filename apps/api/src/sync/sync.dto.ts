import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMinSize, IsArray, IsDefined, IsISO8601, IsObject, IsOptional } from 'class-validator';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, UPLOAD_TYPES } from '@pos/sync';
import { CashMovementDto } from '../sessions/sessions.dto';
import { OptionalInt, OptionalString, RequiredInt, RequiredString } from '../http/validators';
import { SaleReviewView } from '../sales/sale-reviews.responses';

export class SyncInitialQuery {
  @OptionalInt({ description: "The store to sync (default: the token's store). Required unless a cursor is given." }) store_id?: number;
  @OptionalString({ max: 4000, trim: false, description: 'next_cursor of the previous page; absent to start a download' }) cursor?: string;
  @OptionalInt({ min: 1, max: 1_000_000, description: `Records per page (default ${DEFAULT_PAGE_LIMIT}; above ${MAX_PAGE_LIMIT} is clamped)` })
  limit?: number;
}

export class SyncDeltaQuery {
  @OptionalString({
    max: 4000,
    trim: false,
    description: 'The sync_token of the last completed sync (or an ISO 8601 time, with store_id). Required unless a cursor is given.',
  })
  since?: string;
  @OptionalInt({ description: "Must match the token's store when given" }) store_id?: number;
  @OptionalString({ max: 4000, trim: false, description: 'next_cursor of the previous page of this delta' }) cursor?: string;
  @OptionalInt({ min: 1, max: 1_000_000, description: `Records per page (default ${DEFAULT_PAGE_LIMIT}; above ${MAX_PAGE_LIMIT} is clamped)` })
  limit?: number;
}

export class SyncStatusQuery {
  @OptionalInt({ description: "Default: the token's store" }) store_id?: number;
}

const isPlainObject = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One transaction's envelope (checked per transaction: a bad one is rejected alone, never the upload). */
export class SyncTransactionDto {
  @RequiredString({ max: 128, description: 'Unique per transaction (devices send UUIDs); a repeat is answered as a duplicate' })
  idempotency_key!: string;

  @RequiredString({ in: UPLOAD_TYPES, description: 'sale | customer | cash_movement' }) type!: string;

  @ApiPropertyOptional({ type: String, format: 'date-time', description: 'When it happened at the terminal (ISO 8601). Required for sale and cash_movement.' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: '$property must be an ISO 8601 date-time' })
  offline_created_at?: string;

  @ApiProperty({
    oneOf: [
      { type: 'object', additionalProperties: true },
      { type: 'array', minItems: 1, maxItems: 1, items: { type: 'object', additionalProperties: true } },
    ],
    description:
      'The transaction itself: a JSON object (the contract types it as an "array", an associative array in the reference ' +
      'implementation), or an array holding exactly that one object. sale: the checkout body of 4.3.1 ' +
      '(items, payments, total_amount, customer_id, discounts...; store_id, idempotency_key and offline_created_at come from the transaction), ' +
      'or customer_ref: the idempotency_key of a customer created offline (accepted earlier in this upload or before) instead of customer_id. ' +
      'customer: name (required), email, phone, address, customer_group_id, store_id, status, payment_terms_days, notes. ' +
      'cash_movement: type (cash_in | cash_out), amount (> 0), reason, notes, reference, session_id (default: your session open at offline_created_at).',
  })
  @Transform(({ value }: { value: unknown }) => (Array.isArray(value) && value.length === 1 && isPlainObject(value[0]) ? value[0] : value))
  @IsDefined()
  @IsObject({ message: '$property must be an object (or an array holding one object)' })
  data!: Record<string, unknown>;
}
export class SyncUploadDto {
  @RequiredInt({ description: 'The store the terminal sells in (every transaction is applied there)' }) store_id!: number;

  @ApiProperty({ type: [SyncTransactionDto], minItems: 1, maxItems: 500, description: 'At most SYNC_UPLOAD_MAX_TRANSACTIONS (default 500): more is 422' })
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  transactions!: unknown[];
}

export class OfflineCashMovementDto extends CashMovementDto {
  @OptionalInt({ description: 'Default: your session in the store that was open at offline_created_at' }) session_id?: number;
}

// ---- Response documentation (the envelope with the real data shapes) ----

class ItemUnitDoc {
  @ApiProperty() id!: number;
  @ApiProperty({ example: 'case' }) name!: string;
  @ApiProperty({ example: 12 }) factor!: number;
  @ApiProperty({ type: Number, nullable: true, description: "The unit's own price; null: factor x price" }) price!: number | null;
  @ApiProperty({ type: String, nullable: true }) barcode!: string | null;
}

class ItemStockDoc {
  @ApiProperty() warehouse_id!: number;
  @ApiProperty({ description: 'Base units on hand (may be negative after offline sales)' }) quantity!: number;
}

class SyncItemDoc {
  @ApiProperty() id!: number;
  @ApiProperty() sku!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({ type: Number, nullable: true }) category_id!: number | null;
  @ApiProperty({ description: 'Catalog base price (store currency)' }) base_price!: number;
  @ApiProperty({ description: 'Live price of one unit in this store when read (price book, rules); the terminal re-prices carts with the reference sets' })
  price!: number;
  @ApiProperty({ enum: ['base', 'price_book', 'pricing_rule'] }) price_source!: string;
  @ApiProperty({ type: Number, nullable: true }) tax_class_id!: number | null;
  @ApiProperty({ description: "The class's tax rate in this store, percent" }) tax_rate!: number;
  @ApiProperty() base_unit!: string;
  @ApiProperty() is_serial_tracked!: boolean;
  @ApiProperty() reorder_level!: number;
  @ApiProperty({ type: [String] }) barcodes!: string[];
  @ApiProperty({ type: [ItemUnitDoc] }) units!: ItemUnitDoc[];
  @ApiProperty({ type: [ItemStockDoc], description: "One row per warehouse serving the store (the store's own and standalone ones)" })
  stock!: ItemStockDoc[];
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

class SyncCategoryDoc {
  @ApiProperty() id!: number;
  @ApiProperty({ type: Number, nullable: true }) parent_id!: number | null;
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, nullable: true }) slug!: string | null;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty() is_active!: boolean;
  @ApiProperty() sort_order!: number;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

class SyncPriceBookEntryDoc {
  @ApiProperty() id!: number;
  @ApiProperty() price_book_id!: number;
  @ApiProperty() item_id!: number;
  @ApiProperty({ description: 'Price of one base unit' }) price!: number;
  @ApiProperty() min_quantity!: number;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

class SyncCustomerDoc {
  @ApiProperty() id!: number;
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, nullable: true }) email!: string | null;
  @ApiProperty({ type: String, nullable: true }) phone!: string | null;
  @ApiProperty({ type: Number, nullable: true }) customer_group_id!: number | null;
  @ApiProperty() is_walk_in!: boolean;
  @ApiProperty() status!: string;
  @ApiProperty() tax_exempt!: boolean;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

class SyncRecordsDoc {
  @ApiProperty({ type: [SyncCategoryDoc] }) categories!: SyncCategoryDoc[];
  @ApiProperty({ type: [SyncPriceBookEntryDoc] }) price_book_entries!: SyncPriceBookEntryDoc[];
  @ApiProperty({ type: [SyncCustomerDoc] }) customers!: SyncCustomerDoc[];
  @ApiProperty({ type: [SyncItemDoc], description: 'Sellable items (active, not deleted)' }) items!: SyncItemDoc[];
}

class SyncDeletedDoc {
  @ApiProperty({ type: [Number] }) categories!: number[];
  @ApiProperty({ type: [Number] }) customers!: number[];
  @ApiProperty({ type: [Number], description: 'Deleted or deactivated items' }) items!: number[];
}

class SyncWarehouseDoc {
  @ApiProperty() id!: number;
  @ApiProperty() name!: string;
  @ApiProperty() code!: string;
  @ApiProperty({ type: Number, nullable: true }) store_id!: number | null;
  @ApiProperty() is_standalone!: boolean;
}

class SyncStoreDoc {
  @ApiProperty() id!: number;
  @ApiProperty() name!: string;
  @ApiProperty() code!: string;
  @ApiProperty({ type: String, nullable: true }) address!: string | null;
  @ApiProperty({ type: String, nullable: true }) phone!: string | null;
  @ApiProperty({ type: String, nullable: true }) email!: string | null;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ example: 'America/New_York' }) timezone!: string;
  @ApiProperty() prices_include_tax!: boolean;
  @ApiProperty() allow_negative_stock!: boolean;
  @ApiProperty({ type: Number, nullable: true }) default_warehouse_id!: number | null;
  @ApiProperty({ type: String, nullable: true }) receipt_header!: string | null;
  @ApiProperty({ type: String, nullable: true }) receipt_footer!: string | null;
  @ApiProperty({ type: [SyncWarehouseDoc], description: "The store's own warehouses and the standalone ones serving it" }) warehouses!: SyncWarehouseDoc[];
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

class SyncCurrencyDoc {
  @ApiProperty({ example: 'USD' }) code!: string;
  @ApiProperty() name!: string;
  @ApiProperty() symbol!: string;
  @ApiProperty({ description: 'Every amount of the download has these decimals' }) decimals!: number;
}

class SyncDiscountLimitsDoc {
  @ApiProperty({ example: 10 }) max_discount_percent!: number;
  @ApiProperty({ example: 20 }) max_discount_amount!: number;
  @ApiProperty() can_approve_discounts!: boolean;
}

class SyncReferenceDoc {
  @ApiProperty({ type: SyncStoreDoc }) store!: SyncStoreDoc;
  @ApiProperty({ type: SyncCurrencyDoc }) currency!: SyncCurrencyDoc;
  @ApiProperty({ type: SyncDiscountLimitsDoc, description: "The user's limits (role, or the user's own overrides)" }) discount_limits!: SyncDiscountLimitsDoc;
  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'Payment methods of the store (id, code, name, type, sort_order)' })
  payment_methods!: object[];
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'prices_include_tax, rounding, exemption, tax_classes (id, code, name, rate, rates) in this store',
  })
  tax!: object;
  @ApiProperty({ type: 'array', items: { type: 'object' } }) customer_groups!: object[];
  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'Active books in the store currency that apply here (with customer_group_ids)' })
  price_books!: object[];
  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'Active pricing rules for the store (as GET /pricing-rules shows them)' })
  pricing_rules!: object[];
  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'Active bundles sold in the store (as GET /bundles shows them)' })
  bundles!: object[];
}

export class SyncPageDoc {
  @ApiProperty({ description: 'Opaque; fixed when the download started; keep it after the last page and pass it as since to /sync/delta' })
  sync_token!: string;
  @ApiProperty({ format: 'date-time' }) server_time!: string;
  @ApiProperty() store_id!: number;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'Delta: changes are read from here (token time less the overlap)' })
  since!: string | null;
  @ApiProperty({ description: 'true on the last page' }) complete!: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'Pass as cursor for the next page; null on the last page' }) next_cursor!: string | null;
  @ApiProperty({
    type: SyncReferenceDoc,
    nullable: true,
    description: 'First page only: the whole reference sets, replacing the device copy (a delta gives null when they did not change)',
  })
  reference!: SyncReferenceDoc | null;
  @ApiProperty({ type: SyncRecordsDoc, description: 'Records to upsert by id' }) records!: SyncRecordsDoc;
  @ApiProperty({ type: SyncDeletedDoc, description: 'Ids to remove (empty on an initial download); an id may repeat' }) deleted!: SyncDeletedDoc;
}

export class SyncPageEnvelope {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ type: SyncPageDoc }) data!: SyncPageDoc;
}

class UploadResultDoc {
  @ApiProperty({ description: 'Position in the request' }) index!: number;
  @ApiProperty({ type: String, nullable: true }) idempotency_key!: string | null;
  @ApiProperty({ type: String, nullable: true }) type!: string | null;
  @ApiProperty({ enum: ['accepted', 'duplicate', 'rejected'] }) status!: string;
  @ApiProperty({ enum: ['accepted', 'rejected'], nullable: true, description: "A duplicate's original outcome" }) original_status!: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'The sale, customer or cash movement id' }) id!: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'Sales only' }) receipt_number!: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'Summary of the created record (a sale: id, receipt_number, total_amount, session_id, created_at, synced_at)',
  })
  record!: object | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Stable code of a rejection (validation_failed, total_mismatch, offline_time_refused, idempotency_key_reused, in_flight, ...)',
  })
  code!: string | null;
  @ApiProperty({ type: String, nullable: true }) message!: string | null;
  @ApiProperty({
    type: 'object',
    nullable: true,
    additionalProperties: { type: 'array', items: { type: 'string' } },
    description: 'Field -> messages, keyed within the transaction (data.items.0.qty, offline_created_at)',
  })
  errors!: Record<string, string[]> | null;
  @ApiProperty({
    allOf: [SaleReviewView.ref],
    nullable: true,
    description: "A sale accepted but flagged for a manager's review (its price below the server's reference beyond the cashier's limits); null otherwise",
  })
  review!: object | null;
}

class UploadReportDoc {
  @ApiProperty() store_id!: number;
  @ApiProperty({ format: 'date-time' }) server_time!: string;
  @ApiProperty() received!: number;
  @ApiProperty() accepted!: number;
  @ApiProperty() duplicate!: number;
  @ApiProperty() rejected!: number;
  @ApiProperty({ type: [UploadResultDoc], description: 'One per transaction, in the order sent' }) results!: UploadResultDoc[];
}

export class UploadEnvelope {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ type: UploadReportDoc }) data!: UploadReportDoc;
}

class RejectedUploadDoc {
  @ApiProperty() idempotency_key!: string;
  @ApiProperty() type!: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) offline_created_at!: string | null;
  @ApiProperty({ format: 'date-time' }) received_at!: string;
  @ApiProperty({ type: String, nullable: true }) message!: string | null;
  @ApiProperty({ type: 'object', nullable: true, additionalProperties: { type: 'array', items: { type: 'string' } } }) errors!: Record<string, string[]> | null;
}

class SyncDeviceDoc {
  @ApiProperty({ description: "The token's device name (device_name at login)" }) name!: string;
  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time' }) last_initial_sync_at!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time' }) last_delta_sync_at!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time' }) last_upload_at!: string | null;
}

class SyncUploadCountsDoc {
  @ApiProperty() accepted!: number;
  @ApiProperty() duplicate!: number;
  @ApiProperty() rejected!: number;
  @ApiProperty({ description: 'Transactions of this device still rejected (not since accepted under their key)' }) pending_rejections!: number;
}

class SyncStatusDoc {
  @ApiProperty({ format: 'date-time' }) server_time!: string;
  @ApiProperty() store_id!: number;
  @ApiProperty({ type: SyncDeviceDoc }) device!: SyncDeviceDoc;
  @ApiProperty({ type: SyncUploadCountsDoc }) uploads!: SyncUploadCountsDoc;
  @ApiProperty({ type: [RejectedUploadDoc], description: 'Newest first, at most 100' }) rejected!: RejectedUploadDoc[];
}

export class SyncStatusEnvelope {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ type: SyncStatusDoc }) data!: SyncStatusDoc;
}
