import { defineView, s } from '../http/openapi';
import { pricedCartProperties } from '../pricing/pricing.responses';

const PRICE_SOURCES = ['base', 'price_book', 'pricing_rule', 'bundle', 'manual', 'offline'] as const;

export const Invoice = defineView('Invoice', {
  id: s.int(),
  number: s.string(),
  sale_id: s.int(),
  store_id: s.int(),
  customer_id: s.nullable(s.int()),
  status: s.enum(['issued', 'partially_paid', 'paid', 'overdue', 'credited', 'void']),
  issued_at: s.dateTime(),
  due_at: s.dateTime(),
  amount: s.money(),
  paid: s.money(),
  credited: s.money('Credit notes against it (returns)'),
  balance: s.money(),
  updated_at: s.dateTime(
    'When it last changed: issued, a payment recorded, a return credited or refunded on account, the sale voided (change mode orders by it)',
  ),
});

/** One payment recorded against an invoice (its detail, and the invoice.payment_recorded event). */
export const InvoicePayment = s.object({
  id: s.int(),
  payment_method_code: s.string(),
  amount: s.money(),
  reference: s.nullable(s.string()),
  user_id: s.int(),
  created_at: s.dateTime(),
});

export const InvoiceDetail = defineView('InvoiceDetail', {
  ...(Invoice.schema.properties as Record<string, never>),
  payments: s.array(InvoicePayment),
});

/** Contract 2.5 (sale summary), plus the ids a back office filters by. */
const summary = {
  id: s.int(),
  receipt_number: s.string(),
  status: s.string('completed, voided, partially_refunded, refunded (the list is open)'),
  store: s.object({ id: s.int(), name: s.string() }),
  warehouse: s.nullable(s.object({ id: s.int(), name: s.string() })),
  total_amount: s.money(),
  created_at: s.dateTime(),
  customer_id: s.nullable(s.int()),
  user_id: s.int(),
  session_id: s.nullable(s.int()),
  reference: s.nullable(s.string()),
  updated_at: s.dateTime('When it last changed: made, voided, a return processed against it (change mode orders by it)'),
  synced_at: s.nullable(s.dateTime('When an offline sale reached the server (its created_at is when it was rung up); null for online sales')),
};
export const SaleSummary = defineView('SaleSummary', summary);

export const SaleLine = defineView('SaleLine', {
  id: s.int(),
  line: s.int(),
  item_id: s.int(),
  sku: s.string(),
  name: s.string(),
  unit: s.nullable(s.object({ id: s.int(), name: s.nullable(s.string()), factor: s.int() })),
  quantity: s.int(),
  base_quantity: s.int(),
  returned_quantity: s.int(),
  base_price: s.money(),
  unit_price: s.money(),
  price_source: s.enum(PRICE_SOURCES),
  gross: s.money('unit_price x quantity before tax, in either tax mode'),
  discounts: s.object({ rule: s.money(), bundle: s.money(), manual: s.money(), cart: s.money(), total: s.money() }),
  discount_reason: s.nullable(s.string()),
  discount_approved_by: s.nullable(s.int()),
  net: s.money('gross - discounts (before tax); net + tax = total'),
  tax_rate: s.percent(),
  tax: s.money(),
  tax_exempted: s.money('Tax-inclusive store, exempt sale: the tax the shelf price holds that was not charged (else 0)'),
  total: s.money(),
  warehouse_id: s.int(),
  serial_number: s.nullable(s.string()),
});

export const SalePayment = defineView('SalePayment', {
  id: s.int(),
  payment_method_id: s.int(),
  payment_method_code: s.string(),
  type: s.string(),
  amount: s.money(),
  tendered: s.nullable(s.money()),
  change: s.money(),
  reference: s.nullable(s.string()),
});

export const SaleDetail = defineView('SaleDetail', {
  ...summary,
  subtotal: s.money("Sum of the lines' gross, before tax in either tax mode"),
  discount_total: s.money('Before tax'),
  tax_total: s.money(),
  prices_include_tax: s.bool("The store's tax mode when the sale was made (unit prices include tax)"),
  tax_exempted: s.money('Tax-inclusive store, exempt sale: the tax not charged'),
  paid_amount: s.money(),
  change_amount: s.money(),
  balance_due: s.money(),
  currency: s.string(),
  tax_exempt: s.bool(),
  tax_exempt_reason: s.nullable(s.string()),
  idempotency_key: s.string(),
  offline_created_at: s.nullable(s.dateTime()),
  voided_at: s.nullable(s.dateTime()),
  void_reason: s.nullable(s.string()),
  items: s.array(SaleLine),
  payments: s.array(SalePayment),
  invoice: s.nullable(Invoice),
});

export const CheckoutValidation = defineView('CheckoutValidation', {
  valid: s.constant(true),
  can_sell: s.bool(),
  session_id: s.nullable(s.int()),
  ...pricedCartProperties,
  payments: s.array(s.object({ payment_method_code: s.string(), amount: s.money(), tendered: s.nullable(s.money()), applied: s.money(), change: s.money() })),
  change: s.money(),
  balance_due: s.money(),
});

export const Receipt = defineView('Receipt', {
  store: s.object({ id: s.int(), name: s.string(), address: s.nullable(s.string()), phone: s.nullable(s.string()), header: s.nullable(s.string()) }),
  receipt_number: s.string(),
  date: s.dateTime("The store's wall clock, with its UTC offset (2026-11-25T11:32:05-05:00)"),
  time_zone: s.string('The store time zone (IANA)'),
  cashier_id: s.int(),
  customer_id: s.nullable(s.int()),
  status: s.string(),
  lines: s.array(
    s.object({
      name: s.string(),
      sku: s.string(),
      quantity: s.int(),
      unit: s.nullable(s.string()),
      unit_price: s.money('The shelf price (tax included when prices_include_tax)'),
      gross: s.money('Before tax'),
      discount: s.money('Before tax: gross - discount + tax = total'),
      shelf_discount: s.money('The discount off the shelf price as printed under the line (tax included when prices_include_tax)'),
      tax_rate: s.percent(),
      tax: s.money(),
      tax_exempted: s.money('Tax-inclusive store, exempt sale: the tax the shelf price holds that was not charged'),
      total: s.money(),
      serial_number: s.nullable(s.string()),
    }),
  ),
  subtotal: s.money('Before tax'),
  discount_total: s.money('Before tax'),
  taxes: s.array(s.object({ rate: s.percent(), taxable: s.money(), tax: s.money() })),
  tax_total: s.money(),
  tax_exempt: s.bool(),
  tax_exempted: s.money(),
  total: s.money('subtotal - discount_total + tax_total'),
  payments: s.array(s.object({ method: s.string(), amount: s.money(), tendered: s.nullable(s.money()), change: s.money() })),
  change: s.money(),
  balance_due: s.money(),
  prices_include_tax: s.bool(),
  footer: s.nullable(s.string()),
  currency: s.string(),
});
