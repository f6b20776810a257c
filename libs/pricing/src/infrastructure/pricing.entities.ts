import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintToNumber, utcDate } from '@pos/platform/database/columns';
import type { BulkJobRecord } from '../application/pricing.ports';

const date = (name: string, nullable = false) => ({ name, type: 'datetime' as const, nullable, transformer: utcDate });
const json = <T>() => ({
  type: 'text' as const,
  nullable: true,
  transformer: { to: (v: T | null) => (v == null ? null : JSON.stringify(v)), from: (v: string | null) => (v == null ? null : (JSON.parse(v) as T)) },
});

@Entity('pricing_rules')
export class PricingRuleEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column() name!: string;
  @Column({ type: 'text', nullable: true }) description!: string | null;
  @Column() kind!: string;
  @Column({ type: 'integer' }) priority!: number;
  @Column({ name: 'is_exclusive' }) isExclusive!: boolean;
  @Column({ name: 'is_active' }) isActive!: boolean;
  @Column({ type: 'bigint', nullable: true, transformer: bigintToNumber }) value!: number | null;
  @Column(json<{ minQuantity: number; percentOffBp?: number; unitPrice?: number }[]>()) tiers!:
    { minQuantity: number; percentOffBp?: number; unitPrice?: number }[] | null;
  @Column({ name: 'buy_quantity', type: 'integer', nullable: true }) buyQuantity!: number | null;
  @Column({ name: 'get_quantity', type: 'integer', nullable: true }) getQuantity!: number | null;
  @Column({ name: 'get_percent_off_bp', type: 'integer', nullable: true }) getPercentOffBp!: number | null;
  @Column({ ...json<Record<string, unknown>>(), nullable: false }) conditions!: Record<string, unknown>;
  @Column(date('valid_from', true)) validFrom!: Date | null;
  @Column(date('valid_to', true)) validTo!: Date | null;
  @Column({ type: 'integer', default: 1 }) version!: number;
  @Column(date('created_at')) createdAt!: Date;
  @Column(date('updated_at')) updatedAt!: Date;
  @Column(date('deleted_at', true)) deletedAt!: Date | null;
}

@Entity('pricing_rule_targets')
export class PricingRuleTargetEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'pricing_rule_id' }) pricingRuleId!: number;
  @Column({ name: 'target_type' }) targetType!: string;
  @Column({ name: 'target_id' }) targetId!: number;
}

@Entity('bundles')
export class BundleEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column() name!: string;
  @Column() code!: string;
  @Column({ type: 'text', nullable: true }) description!: string | null;
  @Column({ type: 'bigint', transformer: bigintToNumber }) price!: number;
  @Column({ name: 'is_active' }) isActive!: boolean;
  @Column({ name: 'store_ids', ...json<number[]>() }) storeIds!: number[] | null;
  @Column(date('valid_from', true)) validFrom!: Date | null;
  @Column(date('valid_to', true)) validTo!: Date | null;
  @Column(date('created_at')) createdAt!: Date;
  @Column(date('updated_at')) updatedAt!: Date;
  @Column(date('deleted_at', true)) deletedAt!: Date | null;
}

@Entity('bundle_items')
export class BundleItemEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'bundle_id' }) bundleId!: number;
  @Column({ name: 'item_id' }) itemId!: number;
  @Column({ type: 'integer' }) quantity!: number;
}

@Entity('exchange_rates')
export class ExchangeRateEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'currency_code' }) currencyCode!: string;
  @Column({ name: 'rate_e8', type: 'bigint', transformer: bigintToNumber }) rateE8!: number;
  @Column(date('effective_at')) effectiveAt!: Date;
  @Column(date('created_at')) createdAt!: Date;
}

@Entity('bulk_price_jobs')
export class BulkPriceJobEntity implements BulkJobRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'job_key' }) jobKey!: string;
  @Column({ name: 'user_id', type: 'integer', nullable: true }) userId!: number | null;
  @Column() status!: string;
  @Column({ type: 'integer' }) total!: number;
  @Column({ type: 'integer' }) processed!: number;
  @Column({ type: 'integer' }) failed!: number;
  @Column({ type: 'text' }) payload!: string;
  @Column({ type: 'text', nullable: true }) result!: string | null;
  @Column(date('started_at', true)) startedAt!: Date | null;
  @Column(date('finished_at', true)) finishedAt!: Date | null;
  @Column(date('created_at')) createdAt!: Date;
  @Column(date('updated_at')) updatedAt!: Date;
}

export const PRICING_ENTITIES = [PricingRuleEntity, PricingRuleTargetEntity, BundleEntity, BundleItemEntity, ExchangeRateEntity, BulkPriceJobEntity];
