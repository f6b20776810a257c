import { CreateReturnInput, RETURN_CONDITIONS, RETURN_STATUSES, ReturnCondition } from '@pos/returns';
import { PageQueryDto } from '../http/page-query.dto';
import { NestedArray, OptionalBoolean, OptionalDate, OptionalId, OptionalInt, OptionalString, RequiredId, RequiredInt } from '../http/validators';
import { AliasOf } from '../http/body-names';

/** One line of a return (contract 4.6.1). */
export class ReturnItemDto {
  @RequiredId({ description: "The sale line (items[].id of the sale's detail or of GET /returns/check-sale)" }) sale_item_id!: number;
  @AliasOf('qty')
  @RequiredInt({ min: 1, max: 100_000, description: 'Units of the sale line, in the unit it was sold in; at most what is still returnable' })
  quantity!: number;
  @OptionalString({
    in: RETURN_CONDITIONS,
    description: 'resellable (default) or opened: can be restocked; damaged, defective: written off as damage; spoiled: written off as spoilage',
  })
  condition?: ReturnCondition;
  @OptionalBoolean('Back into sellable stock (default: true for resellable and opened goods, which are the only ones that can be restocked)') restock?: boolean;
  @OptionalString({ max: 1000 }) notes?: string;
  @OptionalId({ description: "Where the goods come back (default: the warehouse the line was sold from); must serve the sale's store" }) warehouse_id?: number;
}

/** POST /returns (contract 4.6.1). */
export class CreateReturnDto {
  @RequiredId({ description: 'The sale being returned' }) sale_id!: number;

  @NestedArray(() => ReturnItemDto, { required: true, minItems: 1, maxItems: 500, description: 'Each sale line at most once' })
  items!: ReturnItemDto[];

  @OptionalId({ description: 'An active reason from GET /returns/reasons' }) reason_id?: number;
  @OptionalString({ max: 1000 }) reason_notes?: string;
  @OptionalString({ max: 2000 }) internal_notes?: string;
  @OptionalBoolean('Approve and process at once (needs returns.process)') process_immediately?: boolean;
  @OptionalString({ max: 128, nonEmpty: true, description: 'Makes the request idempotent (devices send UUIDs); unique across the service' })
  idempotency_key?: string;
}

export function createReturnInput(b: CreateReturnDto): CreateReturnInput {
  const opt = <T>(v: T | null | undefined): T | undefined => v ?? undefined;
  return {
    saleId: b.sale_id,
    items: b.items.map((l) => ({
      saleItemId: l.sale_item_id,
      quantity: l.quantity,
      condition: opt(l.condition),
      restock: opt(l.restock),
      notes: opt(l.notes),
      warehouseId: opt(l.warehouse_id),
    })),
    reasonId: opt(b.reason_id),
    reasonNotes: opt(b.reason_notes),
    internalNotes: opt(b.internal_notes),
    processImmediately: opt(b.process_immediately),
    idempotencyKey: opt(b.idempotency_key),
  };
}

/** Optional body of reject and cancel. */
export class ReturnDecisionDto {
  @OptionalString({ max: 1000, description: 'Why it was rejected or cancelled' }) notes?: string;
}

export class CheckSaleQuery {
  @RequiredInt({ description: 'The sale to check' }) sale_id!: number;
}

export class ReturnFeedQuery extends PageQueryDto {
  @OptionalDate('Returns created on or after this day (UTC)') date_from?: string;
  @OptionalDate('Returns created on or before this day (UTC)') date_to?: string;
  @OptionalInt() store_id?: number;
  @OptionalInt({ description: 'Returns with a line coming back to this warehouse' }) warehouse_id?: number;
  @OptionalString({ in: RETURN_STATUSES }) status?: string;
}

export class ReturnListQuery extends ReturnFeedQuery {
  @OptionalDate('Alias of date_from') from?: string;
  @OptionalDate('Alias of date_to') to?: string;
  @OptionalInt() sale_id?: number;
  @OptionalString({ max: 255, description: 'Return number, receipt number, or customer (name, email or phone)' }) q?: string;
}
