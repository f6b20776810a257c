import { RETURN_CONDITIONS, RETURN_STATUSES } from '@pos/returns';
import { defineView, s } from '../http/openapi';

/** Response shapes of the returns endpoints, their feed and their webhook events (the `data` of the envelope). */
export const ReturnReason = defineView('ReturnReason', { id: s.int(), code: s.string(), name: s.string() });

const named = () => s.object({ id: s.int(), name: s.string() });

const summary = {
  id: s.int(),
  number: s.string('Per store: RET-<store code>-000001'),
  status: s.enum(RETURN_STATUSES, 'pending -> approved -> processed; pending -> rejected; pending|approved -> cancelled'),
  sale_id: s.int(),
  receipt_number: s.string(),
  store: named(),
  warehouse: { ...s.nullable(named()), description: 'The warehouse of every line when they share one' },
  customer_id: s.nullable(s.int()),
  user_id: s.int('Who created it'),
  reason: s.nullable(ReturnReason),
  refund_total: s.money('What the customer gets back for the returned units (after discounts, with tax)'),
  currency: s.string(),
  created_at: s.dateTime(),
  approved_at: s.nullable(s.dateTime()),
  processed_at: s.nullable(s.dateTime()),
  updated_at: s.dateTime('When it last changed: created, approved, rejected, cancelled, processed (change mode orders by it)'),
};

export const ReturnSummary = defineView('ReturnSummary', summary);

const ReturnItem = defineView('ReturnItem', {
  id: s.int(),
  line: s.int(),
  sale_item_id: s.int(),
  item_id: s.int(),
  sku: s.string(),
  name: s.string(),
  unit: s.nullable(s.object({ name: s.string(), factor: s.int() })),
  quantity: s.int('Units of the sale line'),
  base_quantity: s.int(),
  condition: s.enum(RETURN_CONDITIONS),
  restock: s.bool(),
  stock_action: s.enum(['restock', 'damage', 'spoilage', 'none'], 'What processing does with the goods'),
  warehouse_id: s.int(),
  serial_number: s.nullable(s.string()),
  notes: s.nullable(s.string()),
  refund_net: s.money(),
  refund_tax: s.money(),
  refund_total: s.money(),
});

const CreditNote = defineView('CreditNote', {
  id: s.int(),
  number: s.string('Per store: CN-<store code>-000001'),
  sale_id: s.int(),
  invoice_id: s.nullable(s.int()),
  amount: s.money(),
  net: s.money(),
  tax: s.money(),
  on_account: s.money('The part that reduced the invoice balance'),
  issued_at: s.dateTime(),
});

// Documented as they were: only the summary's fields and the three lists are promised (required).
const DETAIL_OPTIONAL = [
  'refund_net',
  'refund_tax',
  'reason_notes',
  'internal_notes',
  'decision_notes',
  'idempotency_key',
  'session_id',
  'approved_by',
  'rejected_by',
  'rejected_at',
  'cancelled_by',
  'cancelled_at',
  'processed_by',
];

export const ReturnDetail = defineView(
  'ReturnDetail',
  {
    ...summary,
    refund_net: s.money(),
    refund_tax: s.money(),
    reason_notes: s.nullable(s.string()),
    internal_notes: s.nullable(s.string()),
    decision_notes: s.nullable(s.string('Why it was rejected or cancelled')),
    idempotency_key: s.nullable(s.string()),
    session_id: s.nullable(s.int("The processing cashier's open session, where a cash refund counts")),
    approved_by: s.nullable(s.int()),
    rejected_by: s.nullable(s.int()),
    rejected_at: s.nullable(s.dateTime()),
    cancelled_by: s.nullable(s.int()),
    cancelled_at: s.nullable(s.dateTime()),
    processed_by: s.nullable(s.int()),
    items: s.array(ReturnItem),
    refunds: s.array(
      s.object({ payment_method_id: s.int(), payment_method_code: s.string(), type: s.string(), amount: s.money() }),
      'Once processed: the refund per original payment method (cash first, then the others; on_account reduces the invoice balance)',
    ),
    credit_note: s.nullable(CreditNote),
  },
  { optional: DETAIL_OPTIONAL },
);

export const ReturnableSale = defineView('ReturnableSale', {
  sale_id: s.int(),
  receipt_number: s.string(),
  sale_status: s.string(),
  store_id: s.int(),
  customer_id: s.nullable(s.int()),
  currency: s.string(),
  sold_at: s.dateTime(),
  total_amount: s.money(),
  eligible: s.bool(),
  reason: s.nullable(s.enum(['sale_voided', 'sale_refunded', 'sale_not_returnable', 'return_window_expired', 'nothing_returnable'], 'Why not')),
  message: s.nullable(s.string()),
  return_window_days: s.int(),
  return_deadline: s.dateTime(),
  refunded_amount: s.money('Refunded by processed returns'),
  items: s.array(
    s.object({
      sale_item_id: s.int(),
      line: s.int(),
      item_id: s.int(),
      sku: s.string(),
      name: s.string(),
      unit: s.nullable(s.object({ id: s.int(), name: s.string(), factor: s.int() })),
      serial_number: s.nullable(s.string()),
      warehouse_id: s.int(),
      unit_price: s.money(),
      total: s.money('What the line cost the customer'),
      quantity: s.int('Sold'),
      returned_quantity: s.int('Returned by processed returns'),
      pending_quantity: s.int('Held by pending or approved returns'),
      returnable_quantity: s.int('Still returnable (0 when the sale is not eligible)'),
      returned_amount: s.money(),
      pending_amount: s.money(),
      returnable_amount: s.money('The refund for all the still returnable units'),
    }),
  ),
  returns: s.array(ReturnSummary),
});
