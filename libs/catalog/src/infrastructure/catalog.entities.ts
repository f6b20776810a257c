import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintToNumber, utcDate } from '@pos/platform/database/columns';
import type {
  CategoryRecord,
  ItemBarcodeRecord,
  ItemRecord,
  ItemUnitRecord,
  SerialNumberRecord,
  StockLevelRecord,
  StockMovementRecord,
} from '../application/catalog.records';

const money = { type: 'bigint' as const, transformer: bigintToNumber };
const date = (name: string, nullable = false) => ({ name, type: 'datetime' as const, nullable, transformer: utcDate });

@Entity('categories')
export class CategoryEntity implements CategoryRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'parent_id', type: 'integer', nullable: true }) parentId!: number | null;
  @Column() name!: string;
  @Column({ type: 'varchar', nullable: true }) slug!: string | null;
  @Column({ type: 'text', nullable: true }) description!: string | null;
  @Column({ name: 'is_active' }) isActive!: boolean;
  @Column({ name: 'sort_order', type: 'integer' }) sortOrder!: number;
  @Column(date('created_at')) createdAt!: Date;
  @Column(date('updated_at')) updatedAt!: Date;
  @Column(date('deleted_at', true)) deletedAt!: Date | null;
}

@Entity('items')
export class ItemEntity implements ItemRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column() sku!: string;
  @Column() name!: string;
  @Column({ type: 'text', nullable: true }) description!: string | null;
  @Column({ name: 'category_id', type: 'integer', nullable: true }) categoryId!: number | null;
  @Column({ name: 'base_price', ...money }) basePrice!: number;
  @Column({ ...money }) cost!: number;
  @Column({ name: 'tax_class_id', type: 'integer', nullable: true }) taxClassId!: number | null;
  @Column({ name: 'base_unit' }) baseUnit!: string;
  @Column({ name: 'is_active' }) isActive!: boolean;
  @Column({ name: 'is_serial_tracked' }) isSerialTracked!: boolean;
  @Column({ name: 'reorder_level', type: 'integer' }) reorderLevel!: number;
  @Column({ name: 'reorder_quantity', type: 'integer' }) reorderQuantity!: number;
  @Column({ type: 'integer', default: 1 }) version!: number;
  @Column(date('created_at')) createdAt!: Date;
  @Column(date('updated_at')) updatedAt!: Date;
  @Column(date('deleted_at', true)) deletedAt!: Date | null;
}

@Entity('item_units')
export class ItemUnitEntity implements ItemUnitRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'item_id' }) itemId!: number;
  @Column() name!: string;
  @Column({ type: 'integer' }) factor!: number;
  @Column({ ...money, nullable: true }) price!: number | null;
  @Column(date('created_at')) createdAt!: Date;
  @Column(date('updated_at')) updatedAt!: Date;
}

@Entity('item_barcodes')
export class ItemBarcodeEntity implements ItemBarcodeRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'item_id' }) itemId!: number;
  @Column() barcode!: string;
  @Column({ name: 'item_unit_id', type: 'integer', nullable: true }) itemUnitId!: number | null;
}

@Entity('stock_levels')
export class StockLevelEntity implements StockLevelRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'item_id' }) itemId!: number;
  @Column({ name: 'warehouse_id' }) warehouseId!: number;
  @Column({ type: 'integer' }) quantity!: number;
  @Column({ name: 'reorder_level', type: 'integer', nullable: true }) reorderLevel!: number | null;
  @Column(date('updated_at')) updatedAt!: Date;
}

@Entity('stock_movements')
export class StockMovementEntity implements StockMovementRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'item_id' }) itemId!: number;
  @Column({ name: 'warehouse_id' }) warehouseId!: number;
  @Column() type!: string;
  @Column({ type: 'integer' }) quantity!: number;
  @Column({ name: 'balance_after', type: 'integer' }) balanceAfter!: number;
  @Column({ name: 'unit_cost', ...money, nullable: true }) unitCost!: number | null;
  @Column({ name: 'reference_type', type: 'varchar', nullable: true }) referenceType!: string | null;
  @Column({ name: 'reference_id', type: 'varchar', nullable: true }) referenceId!: string | null;
  @Column({ name: 'user_id', type: 'integer', nullable: true }) userId!: number | null;
  @Column({ type: 'text', nullable: true }) notes!: string | null;
  @Column(date('created_at')) createdAt!: Date;
}

@Entity('serial_numbers')
export class SerialNumberEntity implements SerialNumberRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'item_id' }) itemId!: number;
  @Column({ name: 'warehouse_id', type: 'integer', nullable: true }) warehouseId!: number | null;
  @Column() serial!: string;
  @Column() status!: string;
  @Column({ name: 'sale_id', type: 'integer', nullable: true }) saleId!: number | null;
  @Column(date('created_at')) createdAt!: Date;
  @Column(date('updated_at')) updatedAt!: Date;
}

export const CATALOG_ENTITIES = [CategoryEntity, ItemEntity, ItemUnitEntity, ItemBarcodeEntity, StockLevelEntity, StockMovementEntity, SerialNumberEntity];
