import { ADJUSTMENT_TYPES } from '@pos/catalog';
import { PageQueryDto } from '../http/page-query.dto';
import {
  NestedArray,
  OptionalBoolean,
  OptionalDate,
  OptionalInt,
  OptionalMoney,
  OptionalString,
  OptionalStringArray,
  RequiredInt,
  RequiredMoney,
  RequiredString,
} from '../http/validators';
import { AliasOf } from '../http/body-names';

export class CategoryListQuery extends PageQueryDto {
  @OptionalString({ max: 100, description: 'Name contains' }) q?: string;
  @OptionalInt({ description: 'Only children of this category' }) parent_id?: number;
  @OptionalBoolean('Top-level categories with their descendants nested in `children`') tree?: boolean;
  @OptionalBoolean('Include item_count on each category') with_counts?: boolean;
  @OptionalBoolean() is_active?: boolean;
}

export class CreateCategoryDto {
  @RequiredString({ max: 255, example: 'Beverages' }) name!: string;
  @OptionalInt({ description: 'Parent category (null for top level)', nullable: true }) parent_id?: number | null;
  @OptionalString({ max: 5000, multiline: true }) description?: string;
  @OptionalBoolean() is_active?: boolean;
  @OptionalInt({ min: 0, max: 100000 }) sort_order?: number;
}

export class UpdateCategoryDto {
  @OptionalString({ max: 255, nonEmpty: true }) name?: string;
  @OptionalInt({ description: 'New parent; null moves it to the top level', nullable: true }) parent_id?: number | null;
  @OptionalString({ max: 5000, multiline: true }) description?: string;
  @OptionalBoolean() is_active?: boolean;
  @OptionalInt({ min: 0, max: 100000 }) sort_order?: number;
}

export class ItemListQuery extends PageQueryDto {
  @OptionalString({
    max: 255,
    description: 'A word of the name starts with it (any case, accents ignored, across words), the SKU starts with it, or the exact barcode',
  })
  q?: string;
  @OptionalString({ max: 255, description: 'Legacy alias of q' }) search?: string;
  @OptionalInt() category_id?: number;
  @OptionalBoolean() is_active?: boolean;
}

export class CheckNameQuery {
  @RequiredString({ max: 255 }) name!: string;
  @OptionalInt({ description: 'An item to ignore (the one being edited)' }) exclude_id?: number;
}

export class UnitDto {
  @RequiredString({ max: 50, example: 'case' }) name!: string;
  @RequiredInt({ min: 2, max: 100000, description: 'Base units in one of this unit', example: 12 }) factor!: number;
  @OptionalMoney({ description: 'Price of the whole unit (default: factor x base price)' }) price?: number;
  @OptionalString({ max: 64 }) barcode?: string;
}

export class WarehouseReorderDto {
  @RequiredInt() warehouse_id!: number;
  @OptionalInt({ min: 0, max: 10_000_000, description: 'null: use the item level', nullable: true }) reorder_level?: number | null;
}

/** Fields shared by create and update (sku, name and base_price are required on create). */
class ItemFieldsDto {
  @OptionalString({ max: 5000, multiline: true }) description?: string;
  @OptionalInt({ nullable: true, description: 'null: no category' }) category_id?: number | null;
  @OptionalMoney() cost?: number;
  @OptionalInt({ nullable: true, description: 'null: no tax class' }) tax_class_id?: number | null;
  @OptionalString({ max: 32, nonEmpty: true, description: 'The unit a quantity of 1 is (default: each)' }) base_unit?: string;
  @OptionalBoolean() is_active?: boolean;
  @OptionalBoolean('Sold and moved by serial number; changes only while the item has no stock (409 item_has_stock)') is_serial_tracked?: boolean;
  @OptionalInt({ min: 0, max: 10_000_000 }) reorder_level?: number;
  @OptionalInt({ min: 0, max: 10_000_000 }) reorder_quantity?: number;
  @OptionalStringArray({ maxItems: 50, max: 64 }) barcodes?: string[];

  @NestedArray(() => UnitDto, { required: false, maxItems: 20, description: 'When given, replaces the current units' })
  units?: UnitDto[];

  @NestedArray(() => WarehouseReorderDto, { required: false, maxItems: 200 })
  warehouse_reorder_levels?: WarehouseReorderDto[];
}

// class-validator skips every rule, IsDefined included, when an inherited IsOptional applies:
// required and optional versions of a field must be declared on separate classes.
export class CreateItemDto extends ItemFieldsDto {
  @RequiredString({ max: 64, example: 'BEV-100' }) sku!: string;
  @RequiredString({ max: 255, example: 'Lemonade 330ml' }) name!: string;
  @RequiredMoney() base_price!: number;
}

export class ItemWriteDto extends ItemFieldsDto {
  @OptionalString({ max: 64, nonEmpty: true }) sku?: string;
  @OptionalString({ max: 255, nonEmpty: true }) name?: string;
  @OptionalMoney() base_price?: number;
  @OptionalInt({
    min: 1,
    description: 'The version this edit is based on (from a GET); when the record has moved on since: 412, nothing written. The If-Match header does the same',
  })
  version?: number;
}

export class AdjustmentLineDto {
  @AliasOf('id') @RequiredInt() item_id!: number;
  @AliasOf('qty') @RequiredInt({ min: 0, max: 1_000_000, description: 'Units (base units); for count: the counted quantity' }) quantity!: number;
  @OptionalMoney() unit_cost?: number;
  @OptionalStringArray({ maxItems: 1000, max: 128, description: 'Serial-tracked items: one per unit' }) serial_numbers?: string[];
  @OptionalString({ max: 1000, multiline: true }) notes?: string;
}

export class AdjustmentDto {
  @RequiredString({ in: ADJUSTMENT_TYPES, description: 'count | receive | damage | spoilage | transfer' }) type!: (typeof ADJUSTMENT_TYPES)[number];
  @RequiredInt() warehouse_id!: number;
  @OptionalInt({ description: 'Destination of a transfer' }) to_warehouse_id?: number;
  @OptionalString({ max: 64 }) reference?: string;
  @OptionalString({ max: 1000, multiline: true }) notes?: string;

  @NestedArray(() => AdjustmentLineDto, { required: true, minItems: 1, maxItems: 500 })
  items!: AdjustmentLineDto[];
}

export class InventoryQuery extends PageQueryDto {
  @OptionalInt() store_id?: number;
  @OptionalInt() warehouse_id?: number;
  @OptionalInt() item_id?: number;
  @OptionalString({ in: ['out', 'low', 'in_stock'] }) stock_status?: 'out' | 'low' | 'in_stock';
}

export class MovementQuery extends PageQueryDto {
  @OptionalInt() item_id?: number;
  @OptionalInt() warehouse_id?: number;
  @OptionalString({ max: 32 }) type?: string;
  @OptionalDate() date_from?: string;
  @OptionalDate() date_to?: string;
}

export class SerialQuery {
  @OptionalInt() warehouse_id?: number;
  @OptionalString({ in: ['in_stock', 'sold', 'returned', 'damaged', 'spoiled'] }) status?: string;
}
