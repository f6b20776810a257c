import type { CustomerView } from '@pos/customers';
import type { ItemView, StockLevelEventPayload } from '@pos/catalog';
import type { ReturnDetailView } from '@pos/returns';
import type { InvoiceDetailView, InvoicePaymentView, SaleDetailView } from '@pos/sales';
import type { SessionView } from '@pos/sessions';

/**
 * Realistic payloads of every event kind (GET /webhooks/event-types, POST /webhooks/{id}/test).
 * Each is typed with the view the event really carries, so a field added to or renamed in a view
 * fails the build here until the sample follows. One small, consistent story: store 1 (USD),
 * sale 1042 with invoice 311, its return 77, customer 58, item 12 (Espresso beans 1 kg).
 */
const AT = '2026-03-14T10:21:07.000Z';
const LATER = '2026-03-14T16:05:42.000Z';

export const SALE: SaleDetailView = {
  id: 1042,
  receipt_number: 'R-MAIN-001042',
  status: 'completed',
  store: { id: 1, name: 'Main Street' },
  warehouse: { id: 1, name: 'Main Street stockroom' },
  total_amount: 43.2,
  created_at: AT,
  customer_id: 58,
  user_id: 4,
  session_id: 203,
  reference: null,
  subtotal: 40,
  discount_total: 0,
  tax_total: 3.2,
  prices_include_tax: false,
  tax_exempted: 0,
  paid_amount: 20,
  change_amount: 0,
  balance_due: 23.2,
  currency: 'USD',
  tax_exempt: false,
  tax_exempt_reason: null,
  idempotency_key: '6f1c2b9e-3d44-4a51-9a63-0c2f7d8e5b10',
  offline_created_at: null,
  updated_at: AT,
  synced_at: null,
  voided_at: null,
  void_reason: null,
  items: [
    {
      id: 5120,
      line: 0,
      item_id: 12,
      sku: 'ESP-1KG',
      name: 'Espresso beans 1 kg',
      unit: null,
      quantity: 2,
      base_quantity: 2,
      returned_quantity: 0,
      base_price: 20,
      unit_price: 20,
      price_source: 'base',
      gross: 40,
      discounts: { rule: 0, bundle: 0, manual: 0, cart: 0, total: 0 },
      discount_reason: null,
      discount_approved_by: null,
      net: 40,
      tax_rate: 8,
      tax: 3.2,
      tax_exempted: 0,
      total: 43.2,
      warehouse_id: 1,
      serial_number: null,
    },
  ],
  payments: [
    { id: 2210, payment_method_id: 1, payment_method_code: 'cash', type: 'cash', amount: 20, tendered: 20, change: 0, reference: null },
    { id: 2211, payment_method_id: 5, payment_method_code: 'account', type: 'on_account', amount: 23.2, tendered: null, change: 0, reference: null },
  ],
  invoice: {
    id: 311,
    number: 'INV-MAIN-000311',
    sale_id: 1042,
    store_id: 1,
    customer_id: 58,
    status: 'issued',
    issued_at: AT,
    due_at: '2026-04-13T10:21:07.000Z',
    amount: 23.2,
    paid: 0,
    credited: 0,
    balance: 23.2,
    updated_at: AT,
  },
};

export const VOIDED_SALE: SaleDetailView = {
  ...SALE,
  status: 'voided',
  updated_at: LATER,
  voided_at: LATER,
  void_reason: 'Rung up twice',
  invoice: { ...SALE.invoice!, status: 'void' },
};

const RETURN_BASE: ReturnDetailView = {
  id: 77,
  number: 'RT-MAIN-000077',
  status: 'pending',
  sale_id: 1042,
  receipt_number: 'R-MAIN-001042',
  store: { id: 1, name: 'Main Street' },
  warehouse: { id: 1, name: 'Main Street stockroom' },
  customer_id: 58,
  user_id: 4,
  reason: { id: 2, code: 'damaged', name: 'Damaged' },
  refund_total: 21.6,
  currency: 'USD',
  created_at: LATER,
  approved_at: null,
  processed_at: null,
  refund_net: 20,
  refund_tax: 1.6,
  reason_notes: 'Bag torn',
  internal_notes: null,
  decision_notes: null,
  idempotency_key: null,
  session_id: null,
  approved_by: null,
  rejected_by: null,
  rejected_at: null,
  cancelled_by: null,
  cancelled_at: null,
  processed_by: null,
  updated_at: LATER,
  items: [
    {
      id: 91,
      line: 0,
      sale_item_id: 5120,
      item_id: 12,
      sku: 'ESP-1KG',
      name: 'Espresso beans 1 kg',
      unit: null,
      quantity: 1,
      base_quantity: 1,
      condition: 'damaged',
      restock: false,
      stock_action: 'damage',
      warehouse_id: 1,
      serial_number: null,
      notes: null,
      refund_net: 20,
      refund_tax: 1.6,
      refund_total: 21.6,
    },
  ],
  refunds: [],
  credit_note: null,
};

export const RETURN_PENDING = RETURN_BASE;
export const RETURN_APPROVED: ReturnDetailView = { ...RETURN_BASE, status: 'approved', approved_by: 2, approved_at: LATER };
export const RETURN_REJECTED: ReturnDetailView = {
  ...RETURN_BASE,
  status: 'rejected',
  rejected_by: 2,
  rejected_at: LATER,
  decision_notes: 'Outside the policy',
};
export const RETURN_CANCELLED: ReturnDetailView = {
  ...RETURN_BASE,
  status: 'cancelled',
  cancelled_by: 4,
  cancelled_at: LATER,
  decision_notes: 'Customer kept it',
};
export const RETURN_PROCESSED: ReturnDetailView = {
  ...RETURN_APPROVED,
  status: 'processed',
  processed_by: 2,
  processed_at: LATER,
  session_id: 203,
  refunds: [{ payment_method_id: 5, payment_method_code: 'account', type: 'on_account', amount: 21.6 }],
  credit_note: { id: 19, number: 'CN-MAIN-000019', sale_id: 1042, invoice_id: 311, amount: 21.6, net: 20, tax: 1.6, on_account: 21.6, issued_at: LATER },
};

export const SESSION: SessionView = {
  id: 203,
  user_id: 4,
  store_id: 1,
  cash_register_id: 2,
  status: 'open',
  opening_balance: 150,
  closing_balance: null,
  expected_cash: null,
  discrepancy: null,
  notes: null,
  discrepancy_notes: null,
  opened_at: '2026-03-14T08:00:12.000Z',
  suspended_at: null,
  closed_at: null,
};

export const CLOSED_SESSION: SessionView = {
  ...SESSION,
  status: 'closed',
  closing_balance: 170,
  expected_cash: 170,
  discrepancy: 0,
  closed_at: '2026-03-14T18:02:40.000Z',
};

export const STOCK_LEVEL: StockLevelEventPayload = { item_id: 12, sku: 'ESP-1KG', name: 'Espresso beans 1 kg', warehouse_id: 1, quantity: 3, reorder_level: 5 };

export const CUSTOMER: CustomerView = {
  id: 58,
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: '+1 555 0100',
  address: '12 Analytical Row, Springfield',
  customer_group_id: 1,
  customer_group: { id: 1, name: 'Trade', code: 'TRADE' },
  store_id: 1,
  is_walk_in: false,
  status: 'active',
  payment_terms_days: 30,
  tax_exempt: false,
  notes: null,
  version: 3,
  created_at: '2025-11-02T09:15:00.000Z',
  updated_at: LATER,
};

export const ITEM: ItemView = {
  id: 12,
  sku: 'ESP-1KG',
  name: 'Espresso beans 1 kg',
  description: 'Whole beans, medium roast',
  category_id: 3,
  category: { id: 3, name: 'Coffee' },
  base_price: 20,
  cost: 11.5,
  tax_class_id: 1,
  base_unit: 'each',
  is_active: true,
  is_serial_tracked: false,
  reorder_level: 5,
  reorder_quantity: 24,
  barcodes: ['5012345678900'],
  units: [{ id: 4, name: 'Case of 6', factor: 6, price: 114, barcode: '15012345678907' }],
  version: 5,
  created_at: '2025-10-01T12:00:00.000Z',
  updated_at: LATER,
  deleted_at: null,
};

export const INVOICE_PAYMENT: InvoicePaymentView = {
  id: 88,
  payment_method_code: 'card',
  amount: 10,
  reference: 'Bank transfer 2026-03-20',
  user_id: 2,
  created_at: '2026-03-20T11:30:00.000Z',
};

export const PAID_INVOICE: InvoiceDetailView = {
  ...SALE.invoice!,
  status: 'partially_paid',
  paid: 10,
  balance: 13.2,
  payments: [INVOICE_PAYMENT],
};
