import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { utcDate } from '@pos/platform/database/columns';
import type { PaymentMethodRecord, StoreRecord, WarehouseRecord } from '../application/store.ports';

@Entity('stores')
export class StoreEntity implements StoreRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column() name!: string;
  @Column() code!: string;
  @Column({ type: 'text', nullable: true }) address!: string | null;
  @Column({ type: 'varchar', nullable: true }) phone!: string | null;
  @Column({ type: 'varchar', nullable: true }) email!: string | null;
  @Column({ name: 'currency_code' }) currencyCode!: string;
  @Column() timezone!: string;
  @Column({ name: 'prices_include_tax' }) pricesIncludeTax!: boolean;
  @Column({ name: 'allow_negative_stock' }) allowNegativeStock!: boolean;
  @Column({ name: 'default_warehouse_id', type: 'integer', nullable: true }) defaultWarehouseId!: number | null;
  @Column({ name: 'receipt_header', type: 'text', nullable: true }) receiptHeader!: string | null;
  @Column({ name: 'receipt_footer', type: 'text', nullable: true }) receiptFooter!: string | null;
  @Column({ name: 'is_active' }) isActive!: boolean;
  @Column({ name: 'created_at', type: 'datetime', transformer: utcDate }) createdAt!: Date;
  @Column({ name: 'updated_at', type: 'datetime', transformer: utcDate }) updatedAt!: Date;
  @Column({ name: 'deleted_at', type: 'datetime', nullable: true, transformer: utcDate }) deletedAt!: Date | null;
}

@Entity('warehouses')
export class WarehouseEntity implements WarehouseRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'store_id', type: 'integer', nullable: true }) storeId!: number | null;
  @Column() name!: string;
  @Column() code!: string;
  @Column({ type: 'text', nullable: true }) address!: string | null;
  @Column({ name: 'is_active' }) isActive!: boolean;
  @Column({ name: 'created_at', type: 'datetime', transformer: utcDate }) createdAt!: Date;
  @Column({ name: 'updated_at', type: 'datetime', transformer: utcDate }) updatedAt!: Date;
  @Column({ name: 'deleted_at', type: 'datetime', nullable: true, transformer: utcDate }) deletedAt!: Date | null;
}

@Entity('warehouse_stores')
export class WarehouseStoreEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'warehouse_id' }) warehouseId!: number;
  @Column({ name: 'store_id' }) storeId!: number;
}

@Entity('payment_methods')
export class PaymentMethodEntity implements PaymentMethodRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column() name!: string;
  @Column() code!: string;
  @Column() type!: string;
  @Column({ name: 'is_active' }) isActive!: boolean;
  @Column({ name: 'sort_order', type: 'integer' }) sortOrder!: number;
  @Column({ name: 'created_at', type: 'datetime', transformer: utcDate }) createdAt!: Date;
  @Column({ name: 'updated_at', type: 'datetime', transformer: utcDate }) updatedAt!: Date;
  @Column({ name: 'deleted_at', type: 'datetime', nullable: true, transformer: utcDate }) deletedAt!: Date | null;
}

@Entity('store_payment_methods')
export class StorePaymentMethodEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'store_id' }) storeId!: number;
  @Column({ name: 'payment_method_id' }) paymentMethodId!: number;
}

export const STORE_ENTITIES = [StoreEntity, WarehouseEntity, WarehouseStoreEntity, PaymentMethodEntity, StorePaymentMethodEntity];
