/**
 * The report rollups: pre-aggregated sums kept in the same transaction as the sales, voids,
 * returns and stock movements that change them (subscribers of their domain facts), and rebuilt
 * from the raw records by `reports:rebuild`. Every table is additive: a fact adds its measures
 * to the row of its key (a void adds the sale's measures negated), so the incremental rows and a
 * rebuild from scratch are the same sums. `day` is the epoch day in the store's time zone.
 * Tables marked `blocks` keep one row per dyadic block of every span (see calendar.ts), so an
 * item-level range of any length is read from a handful of blocks.
 */
export interface RollupTable<M extends string = string, K extends string = string, A extends string = string> {
  readonly name: string;
  readonly keys: readonly K[];
  /** Non-key columns fixed by the key (currency of the store, method type). */
  readonly attrs: readonly A[];
  readonly measures: readonly M[];
  /** Keyed by (span, day = block start) for every span instead of by day. */
  readonly blocks?: boolean;
}

/** The measures a table declares: a query naming any other does not compile. */
export type MeasureOf<T> = T extends RollupTable<infer M, string, string> ? M : never;
/** The columns a query may group or filter a table by. */
export type ColumnOf<T> = T extends RollupTable<string, infer K, infer A> ? K | A : never;
/** Grouping columns read back as text (the rest are numbers). */
export type TextColumn = 'currency_code' | 'method_code' | 'method_type' | 'price_source' | 'reason_code' | 'item_condition' | 'move_type';
export const TEXT_COLUMNS: ReadonlySet<string> = new Set<TextColumn>([
  'currency_code',
  'method_code',
  'method_type',
  'price_source',
  'reason_code',
  'item_condition',
  'move_type',
]);

/** A table whose key, attribute and measure names are literal types (declared once, here). */
function table<const M extends string, const K extends string, const A extends string>(t: RollupTable<M, K, A>): RollupTable<M, K, A> {
  return t;
}

const SALE_MEASURES = [
  'sales_count',
  'units',
  'gross',
  'discount_rule',
  'discount_bundle',
  'discount_manual',
  'discount_cart',
  'net',
  'tax',
  'total',
  'cost',
  'paid',
  'change_given',
  'on_account',
  'credit_count',
  'discounted_count',
  'exempt_count',
  'exempt_net',
  'customer_count',
] as const;
const VOID_MEASURES = ['void_count', 'void_total', 'void_net', 'void_on_account', 'void_credit_count'] as const;
const RETURN_MEASURES = [
  'return_count',
  'return_units',
  'refund_net',
  'refund_tax',
  'refund_total',
  'refund_cost',
  'credit_note_count',
  'credit_note_total',
] as const;

/** Sales, voids and returns per store and sale warehouse (0: lines from several). */
export const SALES = table({
  name: 'rpt_sales',
  keys: ['span', 'day', 'store_id', 'warehouse_id'],
  attrs: ['currency_code'],
  measures: [...SALE_MEASURES, ...VOID_MEASURES, ...RETURN_MEASURES],
  blocks: true,
});

/** The same per cashier (who rang the sale, who processed the return), with the measures cashier reports use. */
export const CASHIERS = table({
  name: 'rpt_cashiers',
  keys: ['span', 'day', 'store_id', 'warehouse_id', 'user_id'],
  attrs: ['currency_code'],
  measures: [
    'sales_count',
    'units',
    'gross',
    'discount_rule',
    'discount_bundle',
    'discount_manual',
    'discount_cart',
    'net',
    'tax',
    'total',
    'void_count',
    'void_total',
    'void_net',
    'void_on_account',
    'return_count',
    'refund_total',
  ],
  blocks: true,
});

/** Per business day and cashier session (closeout): not in blocks, one row per day and session. */
export const SESSIONS = table({
  name: 'rpt_sessions',
  keys: ['day', 'store_id', 'warehouse_id', 'user_id', 'session_id'],
  attrs: ['currency_code'],
  measures: ['sales_count', 'gross', 'discounts', 'net', 'tax', 'total', 'void_count', 'void_total', 'return_count', 'refund_tax', 'refund_total'],
});

/** Money taken and refunded per payment method. */
export const PAYMENTS = table({
  name: 'rpt_payments',
  keys: ['span', 'day', 'store_id', 'warehouse_id', 'method_code'],
  attrs: ['method_type', 'currency_code'],
  measures: ['payment_count', 'amount', 'change_given', 'void_count', 'void_amount', 'refund_count', 'refund_amount'],
  blocks: true,
});

/** Per business day, session and payment method (closeout; summed over a session's days: its drawer's cash). */
export const SESSION_PAYMENTS = table({
  name: 'rpt_session_payments',
  // user_id: a sale without a drawer (session 0) is its cashier's, in closeout as in the books.
  keys: ['day', 'store_id', 'warehouse_id', 'session_id', 'user_id', 'method_code'],
  attrs: ['method_type', 'currency_code'],
  measures: ['payment_count', 'amount', 'refund_count', 'refund_amount', 'change_given'],
});

/** Sales per local weekday (0 Monday) and hour of the day (heatmap). */
export const HOURS = table({
  name: 'rpt_hours',
  keys: ['span', 'day', 'store_id', 'warehouse_id', 'weekday', 'hour'],
  attrs: ['currency_code'],
  measures: ['sales_count', 'net', 'total'],
  blocks: true,
});

/**
 * Tax per rate (basis points) and line warehouse. The lines of a tax-exempt sale are a row of
 * their own (exempt 1, rate_bp 0): no rate applied to them, so they are neither taxable sales nor
 * part of any rate's effective rate. `taxable` / `refund_taxable` are the rows' line net before
 * tax (on the exempt row: the exempt net).
 */
export const TAX = table({
  name: 'rpt_tax',
  keys: ['span', 'day', 'store_id', 'warehouse_id', 'exempt', 'rate_bp'],
  attrs: ['currency_code'],
  measures: ['line_count', 'taxable', 'tax', 'refund_taxable', 'refund_tax'],
  blocks: true,
});

const ITEM_MEASURES = [
  'line_count',
  'units',
  'gross',
  'discounts',
  'net',
  'tax',
  'total',
  'cost',
  'return_units',
  'refund_net',
  'refund_total',
  'refund_cost',
] as const;

/** Item sales and returns per store and line warehouse. */
export const ITEMS = table({
  name: 'rpt_items',
  keys: ['span', 'day', 'store_id', 'warehouse_id', 'item_id'],
  attrs: ['currency_code'],
  measures: ITEM_MEASURES,
  blocks: true,
});

/** The same per currency over every store: what an unfiltered item report reads (a store's rows summed in advance). */
export const ITEMS_ALL = table({
  name: 'rpt_items_all',
  keys: ['span', 'day', 'currency_code', 'item_id'],
  attrs: [],
  measures: ITEM_MEASURES,
  blocks: true,
});

/** Lines per price source (base, price_book, pricing_rule, bundle, manual, offline). */
export const PRICE_SOURCES = table({
  name: 'rpt_price_sources',
  keys: ['span', 'day', 'store_id', 'warehouse_id', 'price_source'],
  attrs: ['currency_code'],
  measures: ['line_count', 'units', 'gross', 'discounts', 'net'],
  blocks: true,
});

const CUSTOMER_MEASURES = ['sales_count', 'net', 'total', 'on_account', 'return_count', 'refund_total'] as const;

/** Sales to named customers per store and sale warehouse. */
export const CUSTOMERS = table({
  name: 'rpt_customers',
  keys: ['span', 'day', 'store_id', 'warehouse_id', 'customer_id'],
  attrs: ['currency_code'],
  measures: CUSTOMER_MEASURES,
  blocks: true,
});

/** The same per currency over every store. */
export const CUSTOMERS_ALL = table({
  name: 'rpt_customers_all',
  keys: ['span', 'day', 'currency_code', 'customer_id'],
  attrs: [],
  measures: CUSTOMER_MEASURES,
  blocks: true,
});

/** Returned lines per reason, condition and item (line warehouse); returns_count on the return's first line. */
export const RETURNS = table({
  name: 'rpt_returns',
  keys: ['span', 'day', 'store_id', 'warehouse_id', 'reason_code', 'item_condition', 'item_id'],
  attrs: ['currency_code'],
  measures: ['returns_count', 'line_count', 'units', 'restocked_units', 'refund_net', 'refund_tax', 'refund_total', 'cost'],
  blocks: true,
});

/** Stock movements per warehouse and type (day in the warehouse's store time zone; UTC for standalone ones). */
export const STOCK_MOVES = table({
  name: 'rpt_stock_moves',
  keys: ['span', 'day', 'warehouse_id', 'move_type'],
  attrs: [],
  measures: ['movements', 'qty_in', 'qty_out'],
  blocks: true,
});

/** Stock change per item and warehouse (turns, damage and spoilage). */
export const ITEM_STOCK = table({
  name: 'rpt_item_stock',
  keys: ['span', 'day', 'warehouse_id', 'item_id'],
  attrs: [],
  measures: ['net_qty', 'sold_qty'],
  blocks: true,
});

/** Units written off as damaged or spoiled per item and warehouse (rows only where that happened). */
export const WRITE_OFFS = table({
  name: 'rpt_item_write_offs',
  keys: ['span', 'day', 'warehouse_id', 'item_id'],
  attrs: [],
  measures: ['damaged_qty', 'spoiled_qty'],
  blocks: true,
});

export const ROLLUP_TABLES = [
  SALES,
  CASHIERS,
  SESSIONS,
  PAYMENTS,
  SESSION_PAYMENTS,
  HOURS,
  TAX,
  ITEMS,
  ITEMS_ALL,
  PRICE_SOURCES,
  CUSTOMERS,
  CUSTOMERS_ALL,
  RETURNS,
  STOCK_MOVES,
  ITEM_STOCK,
  WRITE_OFFS,
] as const;

/** Not additive, kept beside the rollups: the last business day an item sold from a warehouse, and the credit notes. */
export const LAST_SALE_TABLE = 'rpt_item_last_sale';
export const CREDIT_NOTES_TABLE = 'rpt_credit_notes';
