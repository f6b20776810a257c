import type { FigureUnit } from './report-payload';

/**
 * The report figures, each defined once: key, label, unit and its formula in words over the raw
 * records. Every summary figure and every figure column of a report's rows takes its key, label
 * and unit from here (report-figures.ts), and README "Report figures" is generated from it. A key
 * means one thing in every report; the same figure under an older second key says `same` and
 * takes everything from the first. `{x}` in a key stands for a value (a payment method, an ABC
 * class), filled in where the figure is made.
 *
 * Words used below: a "kept sale" is a completed, partially refunded or refunded sale (a voided
 * sale is in no sales figure), counted on its business day (created_at in the store's time zone);
 * a "processed return" counts on the business day it was processed, and with a warehouse filter
 * in the warehouse its lines were sold from (the stock movements of its goods count where they
 * came back to). Money is in minor units of the sale's currency; line gross, discounts and net
 * are before tax in both tax modes.
 */
type Defined = { readonly label: string; readonly unit: FigureUnit; readonly formula: string };
type Same = { readonly same: string; readonly label?: string };

const KEPT = 'of kept sales';
const RET = 'of processed returns';

export const METRICS = {
  // Sales
  sales_count: { label: 'Sales', unit: 'count', formula: 'number of kept sales (completed, partially refunded, refunded; voided sales excluded)' },
  units_sold: { label: 'Units sold', unit: 'quantity', formula: `sum of line base quantity ${KEPT}` },
  items_sold: { same: 'units_sold' },
  units: { same: 'units_sold' },
  distinct_items_sold: { label: 'Distinct items sold', unit: 'count', formula: `number of items with units sold > 0 ${KEPT}` },
  lines: { label: 'Sale lines', unit: 'count', formula: `number of sale lines ${KEPT}` },
  gross_sales: {
    label: 'Gross sales (before discounts, before tax)',
    unit: 'money',
    formula: `sum of line gross (quantity x the unit price charged, before discounts and tax; the unit price is after price books and the rules that set a price: percent or amount off, fixed price, quantity tiers) ${KEPT}`,
  },
  discounts: {
    label: 'Discounts',
    unit: 'money',
    formula: `sum of line discounts (pricing rules + bundles + manual + share of cart discount, before tax) ${KEPT}`,
  },
  discounts_rule: {
    label: 'Discounts: pricing rules',
    unit: 'money',
    formula: `sum of line pricing-rule discounts: the units buy-X-get-Y rules give (rules that set a unit price lower the price, not a discount) ${KEPT}`,
  },
  discounts_bundle: { label: 'Discounts: bundles', unit: 'money', formula: `sum of line bundle discounts ${KEPT}` },
  discounts_manual: { label: 'Discounts: manual line', unit: 'money', formula: `sum of manual line discounts ${KEPT}` },
  discounts_cart: { label: 'Discounts: cart', unit: 'money', formula: `sum of the lines' shares of cart discounts ${KEPT}` },
  pricing_rules: { same: 'discounts_rule' },
  bundles: { same: 'discounts_bundle' },
  manual: { same: 'discounts_manual' },
  cart: { same: 'discounts_cart' },
  manual_discounts: { label: 'Manual discounts (line and cart)', unit: 'money', formula: 'discounts_manual + discounts_cart' },
  net_sales: { label: 'Net sales (before tax)', unit: 'money', formula: `sum of line net (gross - discounts, before tax) ${KEPT}` },
  tax: { label: 'Tax on sales', unit: 'money', formula: `sum of line tax ${KEPT} (refunds not deducted)` },
  tax_collected: { same: 'tax', label: 'Tax collected' },
  total: { label: 'Total incl. tax', unit: 'money', formula: `sum of sale totals (net sales + tax) ${KEPT}` },
  average_sale: { label: 'Average sale incl. tax', unit: 'money', formula: 'total / sales_count, half away from zero' },
  total_after_refunds: { label: 'Total less refunds (incl. tax)', unit: 'money', formula: 'total - refund_total' },
  discount_rate: { label: 'Discounts / gross sales', unit: 'percent', formula: 'discounts / gross_sales' },
  discounted_sales: { label: 'Sales with a discount', unit: 'count', formula: 'number of kept sales whose discount total > 0' },
  discounted_share: { label: 'Share of sales with a discount', unit: 'percent', formula: 'discounted_sales / sales_count' },
  // Voids
  voids: { label: 'Voided sales', unit: 'count', formula: "number of voided sales, on the voided sale's business day" },
  void_invoices: { same: 'voids', label: 'Void invoices (voided sales)' },
  voided_total: { label: 'Voided total incl. tax', unit: 'money', formula: 'sum of sale totals of voided sales' },
  void_amount: { same: 'voided_total' },
  voided_net: { label: 'Voided net sales (before tax)', unit: 'money', formula: 'sum of line net of voided sales' },
  voided_on_account: { label: 'Voided on-account balances', unit: 'money', formula: 'sum of the on-account balance voided sales had left at the till' },
  void_rate: { label: 'Voids / sales rung (voided + kept)', unit: 'percent', formula: 'voids / (voids + sales_count)' },
  sales_kept: { same: 'sales_count', label: 'Sales kept' },
  // Returns and refunds
  returns: {
    label: 'Returns processed',
    unit: 'count',
    formula: 'number of processed returns (a row by reason and condition counts a return in each condition it has lines of)',
  },
  returns_processed: { same: 'returns' },
  lines_returned: { label: 'Lines returned', unit: 'count', formula: `number of returned lines ${RET}` },
  units_returned: { label: 'Units returned', unit: 'quantity', formula: `sum of base quantity of returned lines ${RET}` },
  units_restocked: { label: 'Units back in sellable stock', unit: 'quantity', formula: `sum of base quantity of the restocked returned lines ${RET}` },
  net_units: { label: 'Units sold less returned', unit: 'quantity', formula: 'units_sold - units_returned' },
  refund_net: { label: 'Refunds (before tax)', unit: 'money', formula: `sum of refund line total - refund line tax ${RET}` },
  refund_tax: { label: 'Tax refunded', unit: 'money', formula: `sum of refund line tax ${RET}` },
  tax_refunded: { same: 'refund_tax' },
  refunded_tax: { same: 'refund_tax' },
  refund_total: { label: 'Refunds incl. tax', unit: 'money', formula: `sum of refund line totals (refund_net + refund_tax) ${RET}` },
  refunds: { same: 'refund_total' },
  cost_returned: {
    label: 'Cost of goods returned',
    unit: 'money',
    formula: `sum of the sale line's snapshotted unit cost x quantity returned ${RET} (in the warehouse the line was sold from)`,
  },
  cost: { same: 'cost_returned' },
  refund_rate: { label: 'Refunds / sales total (incl. tax)', unit: 'percent', formula: 'refund_total / total' },
  value_return_rate: { same: 'refund_rate' },
  unit_return_rate: { label: 'Units returned / units sold', unit: 'percent', formula: 'units_returned / units_sold' },
  returns_per_100_sales: { label: 'Returns per 100 sales', unit: 'ratio', formula: 'returns / sales_count x 100' },
  // Revenue and profit
  net_revenue: { label: 'Net revenue (before tax)', unit: 'money', formula: 'net_sales - refund_net' },
  revenue: { same: 'net_revenue' },
  net_tax: { label: 'Net tax (collected - refunded)', unit: 'money', formula: 'tax - refund_tax' },
  average_daily_revenue: { label: 'Average net revenue per day', unit: 'money', formula: 'net_revenue / days in the period' },
  cogs: { label: 'Cost of goods sold', unit: 'money', formula: `sum of the unit cost snapshotted on each line x quantity ${KEPT}, less cost_returned` },
  gross_profit: { label: 'Gross profit', unit: 'money', formula: 'net_revenue - cogs' },
  margin_percent: { label: 'Gross margin', unit: 'percent', formula: 'gross_profit / net_revenue' },
  markup_percent: { label: 'Markup', unit: 'percent', formula: 'gross_profit / cogs' },
  // Products
  'class_{class}_items': {
    label: 'Class {class} items',
    unit: 'count',
    formula: 'items in ABC class {class}: by net_revenue, highest first, A while the cumulative share <= 80%, B <= 95%, C the rest and items without revenue',
  },
  'class_{class}_revenue': { label: 'Class {class} revenue', unit: 'money', formula: 'net_revenue of the items of class {class}' },
  'class_{class}_share': {
    label: 'Class {class} share of revenue',
    unit: 'percent',
    formula: 'class_{class}_revenue / net_revenue of the items with positive revenue',
  },
  share_percent: {
    label: 'Share',
    unit: 'percent',
    formula: "the row's share of the report's total of what the rows are ranked by (payments: taken; ABC: net_revenue; valuation: stock_value)",
  },
  cumulative_percent: { label: 'Cumulative share', unit: 'percent', formula: 'share_percent summed down the ranking up to and including the row' },
  '{source}_share': { label: 'Share of lines priced by {source}', unit: 'percent', formula: 'lines whose price source is {source} / lines' },
  share_of_lines: { label: 'Share of lines', unit: 'percent', formula: "the row's lines / lines" },
  share_of_net_sales: { label: 'Share of net sales', unit: 'percent', formula: "the row's net_sales / net_sales" },
  // Customers
  customers_served: { label: 'Customers who bought', unit: 'count', formula: 'number of named customers with kept sales' },
  customer_sales: { label: 'Sales to a named customer', unit: 'count', formula: 'number of kept sales with a customer' },
  customer_sales_share: { label: 'Share of sales with a customer', unit: 'percent', formula: 'customer_sales / sales_count' },
  anonymous_sales: { label: 'Sales without a customer', unit: 'count', formula: 'sales_count - customer_sales' },
  customer_net_sales: { label: 'Net sales to named customers (before tax)', unit: 'money', formula: 'net_sales of the kept sales with a customer' },
  net_sales_per_customer: { label: 'Net sales per customer served (before tax)', unit: 'money', formula: 'customer_net_sales / customers_served' },
  on_account: {
    label: 'Sold on account to named customers',
    unit: 'money',
    formula: 'sum of the balance left at the till (on account) by kept sales with a customer',
  },
  customer_refunds: { label: 'Refunds to named customers (incl. tax)', unit: 'money', formula: 'refund_total of processed returns of sales with a customer' },
  // Payments
  payments: { label: 'Payments', unit: 'count', formula: `number of payments ${KEPT}` },
  taken: { label: 'Money taken (after change)', unit: 'money', formula: `sum of payment amounts (what each paid towards the total, net of change) ${KEPT}` },
  'taken_{method}': { label: 'Taken by {method}', unit: 'money', formula: 'taken by the payment method {method}' },
  refunded: { label: 'Refunded', unit: 'money', formula: `sum of refund payments (per method) ${RET}` },
  refund_count: { label: 'Refund payments', unit: 'count', formula: `number of refund payments ${RET}` },
  net_taken: { label: 'Taken less refunded', unit: 'money', formula: 'taken - refunded' },
  net: { same: 'net_taken' },
  net_cash: { label: 'Net cash', unit: 'money', formula: 'net_taken by methods of type cash' },
  net_card: { label: 'Net card', unit: 'money', formula: 'net_taken by methods of type card' },
  net_on_account: { label: 'Net on account', unit: 'money', formula: 'net_taken by methods of type on_account' },
  change_given: { label: 'Change given', unit: 'money', formula: `sum of the change handed back on payments ${KEPT}` },
  voided: { label: 'Payments of voided sales (reversed)', unit: 'money', formula: 'sum of payment amounts of voided sales' },
  voided_payments: { label: 'Payments of voided sales', unit: 'count', formula: 'number of payments of voided sales' },
  voided_amount: { same: 'voided' },
  // Stores and cashiers
  stores: { label: 'Stores', unit: 'count', formula: 'number of stores in scope (in the currency)' },
  cashiers: { label: 'Cashiers with activity', unit: 'count', formula: 'number of users who rang a kept or voided sale or processed a return' },
  busiest_weekday: {
    label: 'Busiest weekday (0 Monday)',
    unit: 'count',
    formula: 'local weekday of the weekday x hour cell with the most kept sales (earliest on a tie)',
  },
  busiest_hour: { label: 'Busiest hour (local, 0-23)', unit: 'count', formula: 'local hour of that cell' },
  busiest_sales: { label: 'Sales in the busiest hour', unit: 'count', formula: 'sales_count of that cell' },
  // Tax
  taxable_sales: { label: 'Taxable sales (before tax)', unit: 'money', formula: `sum of line net of kept sales that were not tax-exempt` },
  exempt_sales: { label: 'Tax-exempt sales', unit: 'count', formula: 'number of kept tax-exempt sales' },
  exempt_net: { label: 'Tax-exempt sales (before tax)', unit: 'money', formula: 'sum of line net of kept tax-exempt sales' },
  rate_percent: { label: 'Tax rate', unit: 'percent', formula: "the rate of the row's lines (null on the exempt row)" },
  effective_rate_percent: { label: 'Effective rate', unit: 'percent', formula: "tax / taxable_sales of the row's lines" },
  refunded_taxable: { label: 'Refunded taxable sales (before tax)', unit: 'money', formula: 'refund_net of returned lines of sales that were not tax-exempt' },
  refunded_exempt: { label: 'Refunded tax-exempt sales (before tax)', unit: 'money', formula: 'refund_net of returned lines of tax-exempt sales' },
  // Closeout
  sessions: {
    label: 'Cashier sessions',
    unit: 'count',
    formula: 'sessions with kept sales or returns in the period, closed in it, or still open and opened in it',
  },
  sessions_closed: {
    label: 'Sessions closed in the period',
    unit: 'count',
    formula: "sessions whose closing time is in the period (the store's business day)",
  },
  cash_sales: { label: 'Cash sales', unit: 'money', formula: "taken by methods of type cash (the row's day)" },
  cash_refunds: { label: 'Cash refunds', unit: 'money', formula: "refunded by methods of type cash (the row's day)" },
  opening_balance: { label: 'Opening float', unit: 'money', formula: "the session's opening balance" },
  cash_in: { label: 'Cash in', unit: 'money', formula: "sum of the session's cash_in movements" },
  cash_out: { label: 'Cash out', unit: 'money', formula: "sum of the session's cash_out movements" },
  session_cash_sales: { label: 'Cash sales of the session', unit: 'money', formula: 'cash_sales over every day of the session' },
  session_cash_refunds: { label: 'Cash refunds of the session', unit: 'money', formula: 'cash_refunds over every day of the session' },
  expected_cash: {
    label: 'Expected cash',
    unit: 'money',
    formula:
      'opening_balance + cash_in - cash_out + session_cash_sales - session_cash_refunds (stored at close); summary: of the sessions closed in the period',
  },
  counted_cash: { label: 'Counted cash', unit: 'money', formula: 'closing balance counted at close; summary: of the sessions closed in the period' },
  discrepancy: {
    label: 'Discrepancy (counted - expected)',
    unit: 'money',
    formula: 'counted_cash - expected_cash; summary: of the sessions closed in the period',
  },
  // Invoices (every sale has one)
  invoices_issued: { label: 'Invoices issued', unit: 'count', formula: 'sales_count + voids' },
  amount_issued: { label: 'Amount invoiced (voided included)', unit: 'money', formula: 'total + voided_total' },
  paid_at_till: { label: 'Paid at the till', unit: 'money', formula: 'total - on_account_amount' },
  on_account_invoices: { label: 'Invoices with an on-account balance', unit: 'count', formula: 'number of kept sales that left a balance at the till' },
  on_account_amount: { label: 'Sold on account', unit: 'money', formula: `sum of the balance left at the till ${KEPT}` },
  credit_sales: { same: 'on_account_amount', label: 'Credit (on-account) sales' },
  open_invoices: {
    label: 'Open invoices now',
    unit: 'count',
    formula: 'invoices with a balance now, of those the report covers (invoices: issued in the period; aging: issued up to date_to)',
  },
  open_balance: { label: 'Open balance now', unit: 'money', formula: 'sum of balances now of the invoices issued in the period' },
  overdue_invoices: { label: 'Past due now', unit: 'count', formula: 'open invoices issued in the period past their due date now' },
  overdue_balance: { label: 'Past-due balance now', unit: 'money', formula: 'sum of their balances' },
  collected_on_account: {
    label: 'Collected on account since (payments received)',
    unit: 'money',
    formula:
      'sum of the payments recorded after the sale on the on-account invoices issued in the period (void ones excluded); a credit note settles a balance but collects nothing',
  },
  credit_notes: { label: 'Credit notes issued', unit: 'count', formula: `number of credit notes ${RET}` },
  credit_note_total: { label: 'Credit notes total', unit: 'money', formula: `sum of credit note amounts ${RET}` },
  credit_note_amount: { label: 'Credit note amount', unit: 'money', formula: 'the amount of the credit note a processed return issued' },
  receivables: { label: 'Open receivables now', unit: 'money', formula: 'sum of balances now of the invoices issued up to date_to' },
  customers: { label: 'Customers with a balance', unit: 'count', formula: 'customers of those invoices' },
  past_due: { label: 'Past due now', unit: 'money', formula: 'receivables past their due date' },
  'bucket_{range}': { label: '{range} days since issue', unit: 'money', formula: 'receivables of invoices issued {range} days before now' },
  days_0_30: { same: 'bucket_{range}', label: '0-30 days since issue' },
  days_31_60: { same: 'bucket_{range}', label: '31-60 days since issue' },
  days_61_90: { same: 'bucket_{range}', label: '61-90 days since issue' },
  days_91_120: { same: 'bucket_{range}', label: '91-120 days since issue' },
  days_120_plus: { same: 'bucket_{range}', label: 'Over 120 days since issue' },
  dso_days: { label: 'Days sales outstanding', unit: 'days', formula: 'receivables / credit_sales x days' },
  days: { label: 'Days in the period', unit: 'days', formula: 'date_to - date_from + 1' },
  issued: { label: 'On-account invoices issued', unit: 'count', formula: 'on_account_invoices + voided sales that had left an on-account balance' },
  paid_in_full: {
    label: 'Paid in full',
    unit: 'count',
    formula: 'on_account_invoices with no balance now, less those credit notes cancelled whole (status credited: settled, never paid)',
  },
  collection_rate: { label: 'Paid in full / issued and not voided', unit: 'percent', formula: 'paid_in_full / on_account_invoices' },
  overdue_share: { label: 'Past due / issued and not voided', unit: 'percent', formula: 'overdue_invoices / on_account_invoices' },
  invoices: { label: 'Invoices', unit: 'count', formula: 'on-account invoices at the stage of the row' },
  amount: { label: 'Amount', unit: 'money', formula: "the stage's on-account amount or open balance, as amount_is says" },
  share_of_issued: { label: 'Share of issued', unit: 'percent', formula: 'invoices / issued' },
  // Stock (now: levels as of generated_at, at the item's current cost, base currency)
  skus_in_stock: { label: 'Item x warehouse levels with stock', unit: 'count', formula: 'levels with on hand > 0' },
  items_in_stock: { label: 'Items in stock', unit: 'count', formula: 'items with on hand > 0' },
  levels: { label: 'Item x warehouse levels', unit: 'count', formula: 'number of stock levels' },
  in_stock: { label: 'In stock (above the reorder level)', unit: 'count', formula: 'levels with on hand above the reorder level' },
  low: { label: 'Low (at or below the reorder level)', unit: 'count', formula: 'levels with 0 < on hand <= reorder level' },
  out: { label: 'Out of stock (0 or less)', unit: 'count', formula: 'levels with on hand <= 0' },
  out_of_stock: { label: 'Active items out of stock', unit: 'count', formula: 'levels of active items with on hand <= 0' },
  low_stock: { label: 'Active items at or below the reorder level', unit: 'count', formula: 'levels of active items with 0 < on hand <= reorder level' },
  on_hand: { label: 'On hand', unit: 'quantity', formula: 'quantity on hand now (base units; may be negative)' },
  units_on_hand: { label: 'Units on hand', unit: 'quantity', formula: 'sum of on hand, negative levels as 0' },
  unit_cost: { label: 'Unit cost now', unit: 'money', formula: "the item's current cost per base unit" },
  stock_value: { label: 'Stock value at current cost', unit: 'money', formula: 'sum of max(on hand, 0) x unit_cost' },
  value: { same: 'stock_value' },
  average_unit_cost: { label: 'Average cost per unit on hand', unit: 'money', formula: 'stock_value / units_on_hand' },
  dead_stock_items: {
    label: 'Dead stock levels',
    unit: 'count',
    formula: 'levels with on hand > 0 and no kept sale from their warehouse in the 90 days up to today',
  },
  dead_stock: { same: 'dead_stock_items' },
  dead_stock_units: { label: 'Dead stock units', unit: 'quantity', formula: 'sum of on hand of the dead stock levels' },
  dead_stock_value: { label: 'Dead stock value at current cost', unit: 'money', formula: 'stock_value of the dead stock levels' },
  share_of_stock_value: { label: 'Share of stock value', unit: 'percent', formula: 'dead_stock_value / stock_value' },
  days_since_last_sale: { label: 'Days since the last sale', unit: 'days', formula: 'today - business day of the last kept sale from the warehouse' },
  reorder_level: { label: 'Reorder level', unit: 'quantity', formula: "the level's reorder level" },
  reorder_quantity: { label: 'Reorder quantity', unit: 'quantity', formula: "the level's reorder quantity" },
  items_to_reorder: { label: 'Levels at or below the reorder level', unit: 'count', formula: 'levels of active items with on hand <= reorder level' },
  suggested_order: { label: 'Suggested order', unit: 'quantity', formula: 'max(reorder quantity, reorder level - on hand)' },
  units_suggested: { label: 'Units suggested', unit: 'quantity', formula: 'sum of suggested_order' },
  estimated_cost: { label: 'Estimated cost of the suggested orders', unit: 'money', formula: 'sum of suggested_order x unit_cost' },
  units_sold_in_period: {
    label: 'Units sold in the period',
    unit: 'quantity',
    formula: "sum of line base quantity of kept sales whose line left the warehouse, on the sale's business day (voided sales excluded)",
  },
  average_daily_sales: { label: 'Average units sold per day', unit: 'quantity', formula: 'units_sold_in_period / days' },
  days_of_cover: { label: 'Days of cover', unit: 'days', formula: 'on hand / average_daily_sales' },
  // Stock movements over the period (movement day in the warehouse's store time zone)
  movements: { label: 'Stock movements', unit: 'count', formula: 'number of stock movements' },
  units_in: { label: 'Units in', unit: 'quantity', formula: 'sum of positive movement quantities' },
  units_out: { label: 'Units out', unit: 'quantity', formula: 'sum of negative movement quantities, as a positive number' },
  net_change: { label: 'Net change in units', unit: 'quantity', formula: 'units_in - units_out' },
  sale_units_out: {
    label: 'Units sold out of these warehouses (kept sales)',
    unit: 'quantity',
    formula:
      "sum of line base quantity of kept sales whose line left a warehouse in scope, whichever store sold it, on the sale's business day (voided sales excluded; returns not deducted)",
  },
  units_received: {
    label: 'Units received (receive adjustments)',
    unit: 'quantity',
    formula: 'units_in of receive movements; a transfer between warehouses and a restocked return are not receipts (see inventory/movement)',
  },
  units_written_off: { label: 'Units damaged or spoiled', unit: 'quantity', formula: 'units_out of damage and spoilage movements' },
  opening_units: { label: 'On hand at the start', unit: 'quantity', formula: 'on hand now less the net change since date_from' },
  closing_units: { label: 'On hand at the end', unit: 'quantity', formula: 'on hand now less the net change after date_to' },
  average_inventory_value: { label: 'Average inventory value', unit: 'money', formula: '(max(opening_units, 0) + max(closing_units, 0)) / 2 x unit_cost' },
  turns: { label: 'Inventory turns', unit: 'ratio', formula: 'cogs / average_inventory_value' },
  days_of_inventory: {
    label: 'Days of inventory',
    unit: 'days',
    formula: 'days / turns, from the unrounded figures: days x average_inventory_value / cogs (null without COGS or inventory)',
  },
  damaged_units: { label: 'Units damaged', unit: 'quantity', formula: 'units_out of damage movements' },
  spoiled_units: { label: 'Units spoiled', unit: 'quantity', formula: 'units_out of spoilage movements' },
  damaged_value: { label: 'Damaged at current cost', unit: 'money', formula: 'damaged_units x unit_cost' },
  spoiled_value: { label: 'Spoiled at current cost', unit: 'money', formula: 'spoiled_units x unit_cost' },
  loss_value: { label: 'Total loss at current cost', unit: 'money', formula: 'damaged_value + spoiled_value' },
  written_off_per_received: { label: 'Units written off / units received', unit: 'percent', formula: '(damaged_units + spoiled_units) / units_received' },
} as const satisfies Record<string, Defined | Same>;

export type MetricKey = keyof typeof METRICS;

/** A metric's definition, an alias followed to the figure it names (its own label kept when it has one). */
export function metric(key: MetricKey): Defined {
  const m: Defined | Same = METRICS[key];
  if ('same' in m) {
    const target = metric(m.same as MetricKey);
    return { ...target, label: m.label ?? target.label };
  }
  return m;
}

/** The figure an alias names, or null for a figure defined here. */
export function aliasOf(key: MetricKey): MetricKey | null {
  const m: Defined | Same = METRICS[key];
  return 'same' in m ? (m.same as MetricKey) : null;
}

/** Keys with a `{x}` placeholder (filled where the figure is made). */
export type TemplateKey = Extract<MetricKey, `${string}{${string}}${string}`>;

// An alias must name a catalogued figure (checked when compiling).
type SameTargets = { [K in MetricKey]: (typeof METRICS)[K] extends { same: infer T } ? T : never }[MetricKey];
export const SAME_TARGETS_EXIST: SameTargets extends MetricKey ? true : never = true;
