import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintToNumber, utcDate } from '@pos/platform';
import type { CurrencyRecord, PriceBookEntryRecord, PriceBookRecord, TaxClassRecord, TaxRateRecord } from '../application/reference.records';

const money = { type: 'bigint' as const, transformer: bigintToNumber };
const date = (name: string, nullable = false) => ({ name, type: 'datetime' as const, nullable, transformer: utcDate });

@Entity('tax_classes')
export class TaxClassEntity implements TaxClassRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column() name!: string;
  @Column() code!: string;
}

@Entity('tax_rates')
export class TaxRateEntity implements TaxRateRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'tax_class_id' }) taxClassId!: number;
  @Column({ name: 'store_id', type: 'integer', nullable: true }) storeId!: number | null;
  @Column() name!: string;
  @Column({ name: 'rate_bp', type: 'integer' }) rateBp!: number;
  @Column({ name: 'is_active' }) isActive!: boolean;
}

@Entity('currencies')
export class CurrencyEntity implements CurrencyRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column() code!: string;
  @Column() name!: string;
  @Column() symbol!: string;
  @Column({ type: 'integer' }) decimals!: number;
  @Column({ name: 'is_base' }) isBase!: boolean;
  @Column({ name: 'is_active' }) isActive!: boolean;
  @Column(date('updated_at')) updatedAt!: Date;
}

@Entity('price_books')
export class PriceBookEntity implements PriceBookRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column() name!: string;
  @Column() code!: string;
  @Column({ name: 'currency_code' }) currencyCode!: string;
  @Column({ type: 'integer' }) priority!: number;
  @Column({ name: 'is_active' }) isActive!: boolean;
  @Column(date('valid_from', true)) validFrom!: Date | null;
  @Column(date('valid_to', true)) validTo!: Date | null;
  @Column(date('updated_at')) updatedAt!: Date;
  @Column(date('deleted_at', true)) deletedAt!: Date | null;
}

@Entity('price_book_entries')
export class PriceBookEntryEntity implements PriceBookEntryRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'price_book_id' }) priceBookId!: number;
  @Column({ name: 'item_id' }) itemId!: number;
  @Column({ ...money }) price!: number;
  @Column({ name: 'min_quantity', type: 'integer' }) minQuantity!: number;
  @Column(date('created_at')) createdAt!: Date;
  @Column(date('updated_at')) updatedAt!: Date;
}

export const REFERENCE_ENTITIES = [TaxClassEntity, TaxRateEntity, CurrencyEntity, PriceBookEntity, PriceBookEntryEntity];
