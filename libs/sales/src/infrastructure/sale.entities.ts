import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { bigintToNumber, utcDate } from '@pos/platform/database/columns';
import type { InvoicePaymentRecord, InvoiceRecord, SaleItemRecord, SalePaymentRecord, SaleRecord } from '../application/sale.ports';

const date = (name: string, nullable = false) => ({ name, type: 'datetime' as const, nullable, transformer: utcDate });
const money = (name: string, nullable = false) => ({ name, type: 'bigint' as const, nullable, transformer: bigintToNumber });

@Entity('sales')
export class SaleEntity implements SaleRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'store_id' }) storeId!: number;
  @Column({ name: 'warehouse_id', type: 'integer', nullable: true }) warehouseId!: number | null;
  @Column({ name: 'session_id', type: 'integer', nullable: true }) sessionId!: number | null;
  @Column({ name: 'user_id' }) userId!: number;
  @Column({ name: 'customer_id', type: 'integer', nullable: true }) customerId!: number | null;
  @Column({ name: 'receipt_number' }) receiptNumber!: string;
  @Column() status!: string;
  @Column(money('subtotal')) subtotal!: number;
  @Column(money('discount_total')) discountTotal!: number;
  @Column(money('tax_total')) taxTotal!: number;
  @Column(money('total_amount')) totalAmount!: number;
  @Column({ name: 'prices_include_tax' }) pricesIncludeTax!: boolean;
  @Column(money('paid_amount')) paidAmount!: number;
  @Column(money('change_amount')) changeAmount!: number;
  @Column(money('balance_due')) balanceDue!: number;
  @Column({ name: 'currency_code' }) currencyCode!: string;
  @Column({ type: 'varchar', nullable: true }) reference!: string | null;
  @Column({ name: 'idempotency_key' }) idempotencyKey!: string;
  @Column({ name: 'tax_exempt' }) taxExempt!: boolean;
  @Column({ name: 'tax_exempt_reason', type: 'varchar', nullable: true }) taxExemptReason!: string | null;
  @Column(date('offline_created_at', true)) offlineCreatedAt!: Date | null;
  @Column(date('synced_at', true)) syncedAt!: Date | null;
  @Column(date('voided_at', true)) voidedAt!: Date | null;
  @Column({ name: 'voided_by', type: 'integer', nullable: true }) voidedBy!: number | null;
  @Column({ name: 'void_reason', type: 'varchar', nullable: true }) voidReason!: string | null;
  @Column({ name: 'voided_after_close' }) voidedAfterClose!: boolean;
  @Column(date('created_at')) createdAt!: Date;
  @Column(date('updated_at')) updatedAt!: Date;
}

@Entity('sale_items')
export class SaleItemEntity implements SaleItemRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'sale_id' }) saleId!: number;
  @Column({ name: 'line_no', type: 'integer' }) lineNo!: number;
  @Column({ name: 'item_id' }) itemId!: number;
  @Column() sku!: string;
  @Column() name!: string;
  @Column({ name: 'unit_id', type: 'integer', nullable: true }) unitId!: number | null;
  @Column({ name: 'unit_name', type: 'varchar', nullable: true }) unitName!: string | null;
  @Column({ type: 'integer' }) factor!: number;
  @Column({ type: 'integer' }) quantity!: number;
  @Column({ name: 'base_quantity', type: 'integer' }) baseQuantity!: number;
  @Column(money('base_price')) basePrice!: number;
  @Column(money('unit_price')) unitPrice!: number;
  @Column(money('unit_cost')) unitCost!: number;
  @Column({ name: 'price_source' }) priceSource!: string;
  @Column(money('gross')) gross!: number;
  @Column(money('rule_discount')) ruleDiscount!: number;
  @Column(money('bundle_discount')) bundleDiscount!: number;
  @Column(money('manual_discount')) manualDiscount!: number;
  @Column(money('cart_discount')) cartDiscount!: number;
  @Column({ name: 'discount_reason', type: 'varchar', nullable: true }) discountReason!: string | null;
  @Column({ name: 'discount_approved_by', type: 'integer', nullable: true }) discountApprovedBy!: number | null;
  @Column(money('net')) net!: number;
  @Column({ name: 'tax_rate_bp', type: 'integer' }) taxRateBp!: number;
  @Column(money('tax')) tax!: number;
  @Column(money('tax_exempted')) taxExempted!: number;
  @Column(money('total')) total!: number;
  @Column({ name: 'warehouse_id' }) warehouseId!: number;
  @Column({ name: 'serial_number', type: 'varchar', nullable: true }) serialNumber!: string | null;
  @Column({ name: 'returned_quantity', type: 'integer' }) returnedQuantity!: number;
  @Column({ type: 'text', nullable: true }) steps!: string | null;
}

@Entity('sale_payments')
export class SalePaymentEntity implements SalePaymentRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'sale_id' }) saleId!: number;
  @Column({ name: 'payment_method_id' }) paymentMethodId!: number;
  @Column({ name: 'method_code' }) methodCode!: string;
  @Column({ name: 'method_type' }) methodType!: string;
  @Column(money('amount')) amount!: number;
  @Column(money('tendered', true)) tendered!: number | null;
  @Column(money('change_amount')) changeAmount!: number;
  @Column({ type: 'varchar', nullable: true }) reference!: string | null;
  @Column(date('created_at')) createdAt!: Date;
}

@Entity('receipt_counters')
export class ReceiptCounterEntity {
  @PrimaryColumn({ name: 'store_id', type: 'integer' }) storeId!: number;
  @Column({ name: 'last_number', type: 'integer' }) lastNumber!: number;
}

@Entity('invoices')
export class InvoiceEntity implements InvoiceRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'sale_id' }) saleId!: number;
  @Column({ name: 'store_id' }) storeId!: number;
  @Column({ name: 'customer_id', type: 'integer', nullable: true }) customerId!: number | null;
  @Column() number!: string;
  @Column() status!: string;
  @Column(date('issued_at')) issuedAt!: Date;
  @Column(date('due_at')) dueAt!: Date;
  @Column(money('amount')) amount!: number;
  @Column(money('paid')) paid!: number;
  @Column(money('paid_later')) paidLater!: number;
  @Column(money('credited')) credited!: number;
  @Column(money('balance')) balance!: number;
  @Column(date('created_at')) createdAt!: Date;
  @Column(date('updated_at')) updatedAt!: Date;
}

@Entity('invoice_payments')
export class InvoicePaymentEntity implements InvoicePaymentRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'invoice_id' }) invoiceId!: number;
  @Column({ name: 'payment_method_id' }) paymentMethodId!: number;
  @Column({ name: 'method_code' }) methodCode!: string;
  @Column(money('amount')) amount!: number;
  @Column({ type: 'varchar', nullable: true }) reference!: string | null;
  @Column({ name: 'user_id' }) userId!: number;
  @Column(date('created_at')) createdAt!: Date;
}

export const SALE_ENTITIES = [SaleEntity, SaleItemEntity, SalePaymentEntity, ReceiptCounterEntity, InvoiceEntity, InvoicePaymentEntity];
