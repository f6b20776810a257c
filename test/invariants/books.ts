/**
 * The raw records of a set of stores, read with plain SQL (never the service's repositories or
 * report code), money as integer minor units, times as Dates, flags as booleans. The invariants
 * and the report recomputations are pure functions of this.
 */
export type Query = (sql: string, params?: unknown[]) => Promise<any[]>;

export interface StoreRow {
  id: number;
  code: string;
  name: string;
  currency_code: string;
  timezone: string;
  prices_include_tax: boolean;
  decimals: number;
}
export interface SaleRow {
  id: number;
  store_id: number;
  warehouse_id: number | null;
  session_id: number | null;
  user_id: number;
  customer_id: number | null;
  receipt_number: string;
  status: string;
  subtotal: number;
  discount_total: number;
  tax_total: number;
  total_amount: number;
  paid_amount: number;
  change_amount: number;
  balance_due: number;
  currency_code: string;
  tax_exempt: boolean;
  created_at: Date;
  voided_at: Date | null;
  voided_by: number | null;
  synced_at: Date | null;
  offline_created_at: Date | null;
}
export interface LineRow {
  id: number;
  sale_id: number;
  line_no: number;
  item_id: number;
  quantity: number;
  base_quantity: number;
  unit_price: number;
  unit_cost: number;
  price_source: string;
  gross: number;
  rule_discount: number;
  bundle_discount: number;
  manual_discount: number;
  cart_discount: number;
  net: number;
  tax_rate_bp: number;
  tax: number;
  total: number;
  warehouse_id: number;
  returned_quantity: number;
}
export interface PaymentRow {
  id: number;
  sale_id: number;
  method_code: string;
  method_type: string;
  amount: number;
  tendered: number | null;
  change_amount: number;
}
export interface InvoiceRow {
  id: number;
  sale_id: number;
  store_id: number;
  customer_id: number | null;
  status: string;
  issued_at: Date;
  due_at: Date;
  amount: number;
  paid: number;
  paid_later: number;
  credited: number;
  balance: number;
}
export interface InvoicePaymentRow {
  id: number;
  invoice_id: number;
  method_code: string;
  amount: number;
  created_at: Date;
}
export interface ReturnRow {
  id: number;
  store_id: number;
  sale_id: number;
  customer_id: number | null;
  user_id: number;
  status: string;
  reason_id: number | null;
  session_id: number | null;
  processed_by: number | null;
  processed_at: Date | null;
  refund_net: number;
  refund_tax: number;
  refund_total: number;
  created_at: Date;
}
export interface ReturnItemRow {
  id: number;
  return_id: number;
  sale_item_id: number;
  item_id: number;
  quantity: number;
  base_quantity: number;
  item_condition: string;
  restock: boolean;
  warehouse_id: number;
  refund_net: number;
  refund_tax: number;
  refund_total: number;
  cost: number;
}
export interface RefundRow {
  id: number;
  return_id: number;
  method_code: string;
  method_type: string;
  amount: number;
}
export interface CreditNoteRow {
  id: number;
  sale_id: number;
  invoice_id: number | null;
  return_id: number;
  amount: number;
  net: number;
  tax: number;
  on_account: number;
}
export interface SessionRow {
  id: number;
  user_id: number;
  store_id: number;
  status: string;
  opening_balance: number;
  closing_balance: number | null;
  expected_cash: number | null;
  discrepancy: number | null;
  opened_at: Date;
  closed_at: Date | null;
}
export interface CashMoveRow {
  id: number;
  session_id: number;
  type: string;
  amount: number;
  created_at: Date;
}
export interface MovementRow {
  id: number;
  item_id: number;
  warehouse_id: number;
  type: string;
  quantity: number;
  balance_after: number;
  reference_type: string | null;
  reference_id: string | null;
}

export interface Books {
  stores: StoreRow[];
  warehouses: { id: number; store_id: number }[];
  sales: SaleRow[];
  lines: LineRow[];
  payments: PaymentRow[];
  invoices: InvoiceRow[];
  invoicePayments: InvoicePaymentRow[];
  returns: ReturnRow[];
  returnItems: ReturnItemRow[];
  refunds: RefundRow[];
  creditNotes: CreditNoteRow[];
  sessions: SessionRow[];
  cashMoves: CashMoveRow[];
  levels: { item_id: number; warehouse_id: number; quantity: number }[];
  movements: MovementRow[];
  users: Map<number, string>;
  customers: Map<number, { name: string; walkIn: boolean }>;
  items: Map<number, { sku: string; name: string; category: string | null }>;
  reasons: Map<number, string>;
}

const DATES = new Set(['created_at', 'voided_at', 'synced_at', 'offline_created_at', 'issued_at', 'due_at', 'processed_at', 'opened_at', 'closed_at']);
const TEXT = new Set([
  'code',
  'name',
  'currency_code',
  'timezone',
  'receipt_number',
  'status',
  'price_source',
  'method_code',
  'method_type',
  'item_condition',
  'type',
  'reference_type',
  'reference_id',
  'sku',
  'category',
]);
const FLAGS = new Set(['prices_include_tax', 'tax_exempt', 'restock', 'is_walk_in']);

/** A time the driver gave back (a Date on MySQL, 'YYYY-MM-DD HH:MM:SS' UTC on SQLite). */
export function utc(v: unknown): Date {
  if (v instanceof Date) return v;
  const s = String(v);
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s : `${s.replace(' ', 'T')}Z`);
}

function row<T>(r: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(r)) {
    if (v === null || v === undefined) out[k] = null;
    else if (DATES.has(k)) out[k] = utc(v);
    else if (FLAGS.has(k)) out[k] = v === true || Number(v) === 1;
    else if (TEXT.has(k)) out[k] = String(v);
    else out[k] = typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : typeof v === 'bigint' ? Number(v) : v;
  }
  return out as T;
}

export async function loadBooks(q: Query, storeIds: number[]): Promise<Books> {
  const ids = storeIds.join(',') || '0';
  const rows = async <T>(sql: string): Promise<T[]> => ((await q(sql)) as Record<string, unknown>[]).map((r) => row<T>(r));
  const saleIds = `SELECT id FROM sales WHERE store_id IN (${ids})`;
  const returnIds = `SELECT id FROM sale_returns WHERE store_id IN (${ids})`;
  const warehouses = await rows<{ id: number; store_id: number }>(`SELECT id, store_id FROM warehouses WHERE store_id IN (${ids})`);
  const whIds = warehouses.map((x) => x.id).join(',') || '0';
  const [stores, sales, lines, payments, invoices, invoicePayments, returns, returnItems, refunds, creditNotes, sessions, cashMoves, levels, movements] =
    await Promise.all([
      rows<StoreRow>(
        `SELECT s.id, s.code, s.name, s.currency_code, s.timezone, s.prices_include_tax, c.decimals FROM stores s JOIN currencies c ON c.code = s.currency_code WHERE s.id IN (${ids})`,
      ),
      rows<SaleRow>(
        `SELECT id, store_id, warehouse_id, session_id, user_id, customer_id, receipt_number, status, subtotal, discount_total, tax_total, total_amount, paid_amount, change_amount, balance_due, currency_code, tax_exempt, created_at, voided_at, voided_by, synced_at, offline_created_at FROM sales WHERE store_id IN (${ids}) ORDER BY id`,
      ),
      rows<LineRow>(
        `SELECT id, sale_id, line_no, item_id, quantity, base_quantity, unit_price, unit_cost, price_source, gross, rule_discount, bundle_discount, manual_discount, cart_discount, net, tax_rate_bp, tax, total, warehouse_id, returned_quantity FROM sale_items WHERE sale_id IN (${saleIds}) ORDER BY sale_id, line_no`,
      ),
      rows<PaymentRow>(
        `SELECT id, sale_id, method_code, method_type, amount, tendered, change_amount FROM sale_payments WHERE sale_id IN (${saleIds}) ORDER BY id`,
      ),
      rows<InvoiceRow>(
        `SELECT id, sale_id, store_id, customer_id, status, issued_at, due_at, amount, paid, paid_later, credited, balance FROM invoices WHERE store_id IN (${ids}) ORDER BY id`,
      ),
      rows<InvoicePaymentRow>(
        `SELECT id, invoice_id, method_code, amount, created_at FROM invoice_payments WHERE invoice_id IN (SELECT id FROM invoices WHERE store_id IN (${ids})) ORDER BY id`,
      ),
      rows<ReturnRow>(
        `SELECT id, store_id, sale_id, customer_id, user_id, status, reason_id, session_id, processed_by, processed_at, refund_net, refund_tax, refund_total, created_at FROM sale_returns WHERE store_id IN (${ids}) ORDER BY id`,
      ),
      rows<ReturnItemRow>(
        `SELECT id, return_id, sale_item_id, item_id, quantity, base_quantity, item_condition, restock, warehouse_id, refund_net, refund_tax, refund_total, cost FROM sale_return_items WHERE return_id IN (${returnIds}) ORDER BY id`,
      ),
      rows<RefundRow>(`SELECT id, return_id, method_code, method_type, amount FROM return_refunds WHERE return_id IN (${returnIds}) ORDER BY id`),
      rows<CreditNoteRow>(`SELECT id, sale_id, invoice_id, return_id, amount, net, tax, on_account FROM credit_notes WHERE store_id IN (${ids}) ORDER BY id`),
      rows<SessionRow>(
        `SELECT id, user_id, store_id, status, opening_balance, closing_balance, expected_cash, discrepancy, opened_at, closed_at FROM cashier_sessions WHERE store_id IN (${ids}) ORDER BY id`,
      ),
      rows<CashMoveRow>(
        `SELECT id, session_id, type, amount, created_at FROM cash_movements WHERE session_id IN (SELECT id FROM cashier_sessions WHERE store_id IN (${ids})) ORDER BY id`,
      ),
      rows<{ item_id: number; warehouse_id: number; quantity: number }>(
        `SELECT item_id, warehouse_id, quantity FROM stock_levels WHERE warehouse_id IN (${whIds})`,
      ),
      rows<MovementRow>(
        `SELECT id, item_id, warehouse_id, type, quantity, balance_after, reference_type, reference_id FROM stock_movements WHERE warehouse_id IN (${whIds}) ORDER BY id`,
      ),
    ]);
  const names = async (sql: string) => new Map(((await q(sql)) as Record<string, unknown>[]).map((r) => [Number(r.id), r]));
  const [users, customers, items, reasons] = await Promise.all([
    names('SELECT id, name FROM users'),
    names('SELECT id, name, is_walk_in FROM customers'),
    names('SELECT i.id, i.sku, i.name, c.name AS category FROM items i LEFT JOIN categories c ON c.id = i.category_id'),
    names('SELECT id, code FROM return_reasons'),
  ]);
  return {
    stores,
    warehouses,
    sales,
    lines,
    payments,
    invoices,
    invoicePayments,
    returns,
    returnItems,
    refunds,
    creditNotes,
    sessions,
    cashMoves,
    levels,
    movements,
    users: new Map([...users].map(([id, r]) => [id, String(r.name)])),
    customers: new Map([...customers].map(([id, r]) => [id, { name: String(r.name), walkIn: Number(r.is_walk_in) === 1 || r.is_walk_in === true }])),
    items: new Map([...items].map(([id, r]) => [id, { sku: String(r.sku), name: String(r.name), category: r.category === null ? null : String(r.category) }])),
    reasons: new Map([...reasons].map(([id, r]) => [id, String(r.code)])),
  };
}

export const sum = <T>(rows: readonly T[], f: (r: T) => number): number => rows.reduce((a, r) => a + f(r), 0);

export function groupBy<T, K>(rows: readonly T[], key: (r: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}
