import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { bigintToNumber, utcDate } from '@pos/platform';
import type { ReturnCondition } from '../domain/return-condition';
import type { ReturnStatus } from '../domain/return-status';
import type {
  CreditNoteRecord,
  LineClaimRecord,
  ReturnItemRecord,
  ReturnReasonRecord,
  ReturnRefundRecord,
  SaleReturnRecord,
} from '../application/return.ports';

const date = (name: string, nullable = false) => ({ name, type: 'datetime' as const, nullable, transformer: utcDate });
const money = (name: string) => ({ name, type: 'bigint' as const, transformer: bigintToNumber });
const ref = (name: string) => ({ name, type: 'integer' as const, nullable: true });

@Entity('return_reasons')
export class ReturnReasonEntity implements ReturnReasonRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column() code!: string;
  @Column() name!: string;
  @Column({ name: 'is_active' }) isActive!: boolean;
  @Column({ name: 'sort_order', type: 'integer' }) sortOrder!: number;
  @Column(date('created_at')) createdAt!: Date;
  @Column(date('updated_at')) updatedAt!: Date;
}

@Entity('sale_returns')
export class SaleReturnEntity implements SaleReturnRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column() number!: string;
  @Column({ name: 'store_id' }) storeId!: number;
  @Column({ name: 'sale_id' }) saleId!: number;
  @Column({ name: 'receipt_number' }) receiptNumber!: string;
  @Column(ref('warehouse_id')) warehouseId!: number | null;
  @Column(ref('customer_id')) customerId!: number | null;
  @Column({ name: 'user_id' }) userId!: number;
  @Column({ type: 'varchar' }) status!: ReturnStatus;
  @Column(ref('reason_id')) reasonId!: number | null;
  @Column({ name: 'reason_notes', type: 'text', nullable: true }) reasonNotes!: string | null;
  @Column({ name: 'internal_notes', type: 'text', nullable: true }) internalNotes!: string | null;
  @Column({ name: 'decision_notes', type: 'text', nullable: true }) decisionNotes!: string | null;
  @Column({ name: 'currency_code' }) currencyCode!: string;
  @Column(money('refund_net')) refundNet!: number;
  @Column(money('refund_tax')) refundTax!: number;
  @Column(money('refund_total')) refundTotal!: number;
  @Column({ name: 'idempotency_key', type: 'varchar', nullable: true }) idempotencyKey!: string | null;
  @Column(ref('session_id')) sessionId!: number | null;
  @Column(ref('approved_by')) approvedBy!: number | null;
  @Column(date('approved_at', true)) approvedAt!: Date | null;
  @Column(ref('rejected_by')) rejectedBy!: number | null;
  @Column(date('rejected_at', true)) rejectedAt!: Date | null;
  @Column(ref('cancelled_by')) cancelledBy!: number | null;
  @Column(date('cancelled_at', true)) cancelledAt!: Date | null;
  @Column(ref('processed_by')) processedBy!: number | null;
  @Column(date('processed_at', true)) processedAt!: Date | null;
  @Column(date('created_at')) createdAt!: Date;
  @Column(date('updated_at')) updatedAt!: Date;
}

@Entity('sale_return_items')
export class ReturnItemEntity implements ReturnItemRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'return_id' }) returnId!: number;
  @Column({ name: 'line_no', type: 'integer' }) lineNo!: number;
  @Column({ name: 'sale_item_id' }) saleItemId!: number;
  @Column({ name: 'item_id' }) itemId!: number;
  @Column() sku!: string;
  @Column() name!: string;
  @Column({ name: 'unit_name', type: 'varchar', nullable: true }) unitName!: string | null;
  @Column({ type: 'integer' }) factor!: number;
  @Column({ type: 'integer' }) quantity!: number;
  @Column({ name: 'base_quantity', type: 'integer' }) baseQuantity!: number;
  @Column({ name: 'item_condition', type: 'varchar' }) condition!: ReturnCondition;
  @Column() restock!: boolean;
  @Column({ name: 'warehouse_id' }) warehouseId!: number;
  @Column({ name: 'serial_number', type: 'varchar', nullable: true }) serialNumber!: string | null;
  @Column({ type: 'text', nullable: true }) notes!: string | null;
  @Column(money('refund_net')) refundNet!: number;
  @Column(money('refund_tax')) refundTax!: number;
  @Column(money('refund_total')) refundTotal!: number;
  @Column(money('cost')) cost!: number;
}

@Entity('return_refunds')
export class ReturnRefundEntity implements ReturnRefundRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'return_id' }) returnId!: number;
  @Column({ name: 'payment_method_id' }) paymentMethodId!: number;
  @Column({ name: 'method_code' }) methodCode!: string;
  @Column({ name: 'method_type' }) methodType!: string;
  @Column(money('amount')) amount!: number;
  @Column(date('created_at')) createdAt!: Date;
}

@Entity('credit_notes')
export class CreditNoteEntity implements CreditNoteRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column() number!: string;
  @Column({ name: 'store_id' }) storeId!: number;
  @Column({ name: 'sale_id' }) saleId!: number;
  @Column(ref('invoice_id')) invoiceId!: number | null;
  @Column({ name: 'return_id' }) returnId!: number;
  @Column(ref('customer_id')) customerId!: number | null;
  @Column({ name: 'currency_code' }) currencyCode!: string;
  @Column(money('amount')) amount!: number;
  @Column(money('net')) net!: number;
  @Column(money('tax')) tax!: number;
  @Column(money('on_account')) onAccount!: number;
  @Column(date('issued_at')) issuedAt!: Date;
  @Column(date('created_at')) createdAt!: Date;
}

@Entity('sale_item_return_claims')
export class LineClaimEntity implements LineClaimRecord {
  @PrimaryColumn({ name: 'sale_item_id', type: 'integer' }) saleItemId!: number;
  @Column({ name: 'sale_id' }) saleId!: number;
  @Column({ name: 'sold_quantity', type: 'integer' }) soldQuantity!: number;
  @Column({ name: 'claimed_quantity', type: 'integer' }) claimedQuantity!: number;
  @Column(money('claimed_total')) claimedTotal!: number;
  @Column(money('claimed_tax')) claimedTax!: number;
}

@Entity('return_counters')
export class ReturnCounterEntity {
  @PrimaryColumn({ name: 'store_id', type: 'integer' }) storeId!: number;
  @PrimaryColumn({ type: 'varchar' }) kind!: string;
  @Column({ name: 'last_number', type: 'integer' }) lastNumber!: number;
}

export const RETURN_ENTITIES = [
  ReturnReasonEntity,
  SaleReturnEntity,
  ReturnItemEntity,
  ReturnRefundEntity,
  CreditNoteEntity,
  LineClaimEntity,
  ReturnCounterEntity,
];
