import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMinSize, IsArray, IsDefined, IsObject, IsOptional } from 'class-validator';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, UPLOAD_TYPES } from '@pos/sync';
import { CashMovementDto } from '../sessions/sessions.dto';
import { API_DATE_PATTERN, IsApiDate, OptionalInt, OptionalString, RequiredInt, RequiredString } from '../http/validators';

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

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    pattern: API_DATE_PATTERN,
    description: 'When it happened at the terminal (ISO 8601). Required for sale and cash_movement.',
  })
  @IsOptional()
  @IsApiDate()
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
