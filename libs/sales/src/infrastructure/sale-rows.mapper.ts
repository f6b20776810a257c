import { utcDate } from '@pos/platform';
import { SaleSummaryRecord } from '../application/sale.ports';

/**
 * Raw rows of the sales tables read without entity hydration (the facts rebuild, the sales list's
 * pages) as records: each table's columns mapped to their fields and kinds.
 */
type Kind = 'int' | 'money' | 'text' | 'bool' | 'date';
export type Columns = Record<string, [string, Kind]>;
export const SALE_COLUMNS: Columns = {
  id: ['id', 'int'],
  store_id: ['storeId', 'int'],
  warehouse_id: ['warehouseId', 'int'],
  session_id: ['sessionId', 'int'],
  user_id: ['userId', 'int'],
  customer_id: ['customerId', 'int'],
  receipt_number: ['receiptNumber', 'text'],
  status: ['status', 'text'],
  subtotal: ['subtotal', 'money'],
  discount_total: ['discountTotal', 'money'],
  tax_total: ['taxTotal', 'money'],
  total_amount: ['totalAmount', 'money'],
  paid_amount: ['paidAmount', 'money'],
  change_amount: ['changeAmount', 'money'],
  balance_due: ['balanceDue', 'money'],
  currency_code: ['currencyCode', 'text'],
  reference: ['reference', 'text'],
  idempotency_key: ['idempotencyKey', 'text'],
  tax_exempt: ['taxExempt', 'bool'],
  tax_exempt_reason: ['taxExemptReason', 'text'],
  offline_created_at: ['offlineCreatedAt', 'date'],
  voided_at: ['voidedAt', 'date'],
  voided_by: ['voidedBy', 'int'],
  void_reason: ['voidReason', 'text'],
  created_at: ['createdAt', 'date'],
  updated_at: ['updatedAt', 'date'],
};
export const ITEM_COLUMNS: Columns = {
  id: ['id', 'int'],
  sale_id: ['saleId', 'int'],
  line_no: ['lineNo', 'int'],
  item_id: ['itemId', 'int'],
  sku: ['sku', 'text'],
  name: ['name', 'text'],
  unit_id: ['unitId', 'int'],
  unit_name: ['unitName', 'text'],
  factor: ['factor', 'int'],
  quantity: ['quantity', 'int'],
  base_quantity: ['baseQuantity', 'int'],
  base_price: ['basePrice', 'money'],
  unit_price: ['unitPrice', 'money'],
  unit_cost: ['unitCost', 'money'],
  price_source: ['priceSource', 'text'],
  gross: ['gross', 'money'],
  rule_discount: ['ruleDiscount', 'money'],
  bundle_discount: ['bundleDiscount', 'money'],
  manual_discount: ['manualDiscount', 'money'],
  cart_discount: ['cartDiscount', 'money'],
  discount_reason: ['discountReason', 'text'],
  discount_approved_by: ['discountApprovedBy', 'int'],
  net: ['net', 'money'],
  tax_rate_bp: ['taxRateBp', 'int'],
  tax: ['tax', 'money'],
  total: ['total', 'money'],
  warehouse_id: ['warehouseId', 'int'],
  serial_number: ['serialNumber', 'text'],
  returned_quantity: ['returnedQuantity', 'int'],
  steps: ['steps', 'text'],
};
export const PAYMENT_COLUMNS: Columns = {
  id: ['id', 'int'],
  sale_id: ['saleId', 'int'],
  payment_method_id: ['paymentMethodId', 'int'],
  method_code: ['methodCode', 'text'],
  method_type: ['methodType', 'text'],
  amount: ['amount', 'money'],
  tendered: ['tendered', 'money'],
  change_amount: ['changeAmount', 'money'],
  reference: ['reference', 'text'],
  created_at: ['createdAt', 'date'],
};

/** A raw row (either driver) as a record: numbers from bigint strings, booleans from 0/1, UTC dates. */
export function fromRow<T>(row: Record<string, unknown>, columns: Columns): T {
  const out: Record<string, unknown> = {};
  for (const [column, [field, kind]] of Object.entries(columns)) {
    const v = row[column];
    out[field] =
      v === null || v === undefined
        ? null
        : kind === 'int' || kind === 'money'
          ? Number(v)
          : kind === 'bool'
            ? Boolean(Number(v))
            : kind === 'date'
              ? utcDate.from(v as string | Date)
              : String(v);
  }
  return out as T;
}

/** One row of the sales list's page statement (see SaleListQuery) as a summary record. */
export function summaryFromRow(r: Record<string, unknown>): SaleSummaryRecord {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    id: Number(r.id),
    receiptNumber: String(r.receipt_number),
    status: String(r.status),
    storeId: Number(r.store_id),
    warehouseId: num(r.warehouse_id),
    currencyCode: String(r.currency_code),
    totalAmount: Number(r.total_amount),
    createdAt: utcDate.from(r.created_at as Date | string) as Date,
    customerId: num(r.customer_id),
    userId: Number(r.user_id),
    sessionId: num(r.session_id),
    reference: r.reference === null || r.reference === undefined ? null : String(r.reference),
    updatedAt: utcDate.from(r.updated_at as Date | string) as Date,
    syncedAt: r.synced_at === null || r.synced_at === undefined ? null : (utcDate.from(r.synced_at as Date | string) as Date),
  };
}
