import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { RETURN_CONDITIONS, RETURN_STATUSES } from '@pos/returns';
import { schema as s } from '../http/envelope-docs';

/** Response shapes of the returns endpoints and feeds (the `data` of the envelope). */
export const REASON: SchemaObject = s.obj({ id: s.int(), code: s.str(), name: s.str() });

const named = (nullable = false) => s.obj({ id: s.int(), name: s.str() }, nullable);

export const RETURN_SUMMARY: SchemaObject = s.obj({
  id: s.int(),
  number: s.str('Per store: RET-<store code>-000001'),
  status: s.str('pending -> approved -> processed; pending -> rejected; pending|approved -> cancelled', false, RETURN_STATUSES),
  sale_id: s.int(),
  receipt_number: s.str(),
  store: named(),
  warehouse: { ...named(true), description: 'The warehouse of every line when they share one' },
  customer_id: s.int(undefined, true),
  user_id: s.int('Who created it'),
  reason: { ...s.obj({ id: s.int(), code: s.str(), name: s.str() }, true) },
  refund_total: s.money('What the customer gets back for the returned units (after discounts, with tax)'),
  currency: s.str(),
  created_at: s.time(),
  approved_at: s.time(undefined, true),
  processed_at: s.time(undefined, true),
});

const RETURN_ITEM: SchemaObject = s.obj({
  id: s.int(),
  line: s.int(),
  sale_item_id: s.int(),
  item_id: s.int(),
  sku: s.str(),
  name: s.str(),
  unit: { ...s.obj({ name: s.str(), factor: s.int() }, true) },
  quantity: s.int('Units of the sale line'),
  base_quantity: s.int(),
  condition: s.str(undefined, false, RETURN_CONDITIONS),
  restock: s.bool(),
  stock_action: s.str('What processing does with the goods', false, ['restock', 'damage', 'spoilage', 'none']),
  warehouse_id: s.int(),
  serial_number: s.str(undefined, true),
  notes: s.str(undefined, true),
  refund_net: s.money(),
  refund_tax: s.money(),
  refund_total: s.money(),
});

export const CREDIT_NOTE: SchemaObject = s.obj(
  {
    id: s.int(),
    number: s.str('Per store: CN-<store code>-000001'),
    sale_id: s.int(),
    invoice_id: s.int(undefined, true),
    amount: s.money(),
    net: s.money(),
    tax: s.money(),
    on_account: s.money('The part that reduced the invoice balance'),
    issued_at: s.time(),
  },
  true,
);

export const RETURN_DETAIL: SchemaObject = {
  ...RETURN_SUMMARY,
  required: [...(RETURN_SUMMARY.required ?? []), 'items', 'refunds', 'credit_note'],
  properties: {
    ...RETURN_SUMMARY.properties,
    refund_net: s.money(),
    refund_tax: s.money(),
    reason_notes: s.str(undefined, true),
    internal_notes: s.str(undefined, true),
    decision_notes: s.str('Why it was rejected or cancelled', true),
    idempotency_key: s.str(undefined, true),
    session_id: s.int("The processing cashier's open session, where a cash refund counts", true),
    approved_by: s.int(undefined, true),
    rejected_by: s.int(undefined, true),
    rejected_at: s.time(undefined, true),
    cancelled_by: s.int(undefined, true),
    cancelled_at: s.time(undefined, true),
    processed_by: s.int(undefined, true),
    updated_at: s.time(),
    items: s.arr(RETURN_ITEM),
    refunds: s.arr(
      s.obj({ payment_method_id: s.int(), payment_method_code: s.str(), type: s.str(), amount: s.money() }),
      'Once processed: the refund per original payment method (cash first, then the others; on_account reduces the invoice balance)',
    ),
    credit_note: CREDIT_NOTE,
  },
};

export const CHECK_SALE: SchemaObject = s.obj({
  sale_id: s.int(),
  receipt_number: s.str(),
  sale_status: s.str(),
  store_id: s.int(),
  customer_id: s.int(undefined, true),
  currency: s.str(),
  sold_at: s.time(),
  total_amount: s.money(),
  eligible: s.bool(),
  reason: s.str('Why not', true, ['sale_voided', 'sale_refunded', 'sale_not_returnable', 'return_window_expired', 'nothing_returnable']),
  message: s.str(undefined, true),
  return_window_days: s.int(),
  return_deadline: s.time(),
  refunded_amount: s.money('Refunded by processed returns'),
  items: s.arr(
    s.obj({
      sale_item_id: s.int(),
      line: s.int(),
      item_id: s.int(),
      sku: s.str(),
      name: s.str(),
      unit: { ...s.obj({ id: s.int(), name: s.str(), factor: s.int() }, true) },
      serial_number: s.str(undefined, true),
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
  returns: s.arr(RETURN_SUMMARY),
});
