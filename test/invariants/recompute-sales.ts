import { Books, groupBy, LineRow, ReturnItemRow, ReturnRow, SaleRow, StoreRow, sum } from './books';
import { count, dayIn, Expected, ExpectedChart, Fig, figures, money, pct, qty, row, ReportFilters } from './recompute-common';

/**
 * The sales family of reports (contract 4.10) recomputed from the raw records of one store,
 * written from the README's report table and definitions, decisions.md and the reports' labels,
 * never from the report code. The definitions, where those texts leave a choice:
 * - a sale counts on its store's business day (created_at in the store's zone); a voided sale
 *   leaves every sales figure and counts as a void of its own day, for the cashier who rang it;
 *   a processed return counts on the day it was processed, for the user and session processing it;
 * - units are base units (a case of 12 is 12); net sales = line total - line tax (before tax in
 *   both modes); gross sales and discounts are the lines' (D1: before tax); refunds excl. tax =
 *   refund_total - refund_tax; COGS = each line's unit cost snapshot x quantity, less the same
 *   cost of the units returned; revenue = net sales - refunds excl. tax; profit = revenue - COGS;
 * - averages and rates are of the period's kept sales; money is exact in minor units.
 */
export interface SalesScope {
  store: StoreRow;
  filters: ReportFilters;
  days: number;
  day: (d: Date) => string;
  kept: SaleRow[];
  voided: SaleRow[];
  linesOf: (saleId: number) => LineRow[];
  keptLines: LineRow[];
  /** Returns processed in the period, their lines and refunds. */
  returns: ReturnRow[];
  returnItems: ReturnItemRow[];
  lineOf: Map<number, LineRow>;
  saleOf: Map<number, SaleRow>;
  books: Books;
  exempt: (s: SaleRow) => boolean;
}

export function salesScope(b: Books, storeId: number, filters: ReportFilters, exemptCustomerId: number): SalesScope {
  const store = b.stores.find((s) => s.id === storeId)!;
  const day = (d: Date) => dayIn(d, store.timezone);
  const inPeriod = (d: Date) => day(d) >= filters.date_from && day(d) <= filters.date_to;
  const sales = b.sales.filter((s) => s.store_id === storeId && inPeriod(s.created_at));
  const lines = groupBy(b.lines, (l) => l.sale_id);
  const kept = sales.filter((s) => s.status !== 'voided');
  const returns = b.returns.filter((r) => r.store_id === storeId && r.status === 'processed' && r.processed_at !== null && inPeriod(r.processed_at));
  const ids = new Set(returns.map((r) => r.id));
  return {
    store,
    filters,
    days: (Date.parse(filters.date_to) - Date.parse(filters.date_from)) / 86_400_000 + 1,
    day,
    kept,
    voided: sales.filter((s) => s.status === 'voided'),
    linesOf: (id) => lines.get(id) ?? [],
    keptLines: kept.flatMap((s) => lines.get(s.id) ?? []),
    returns,
    returnItems: b.returnItems.filter((i) => ids.has(i.return_id)),
    lineOf: new Map(b.lines.map((l) => [l.id, l])),
    saleOf: new Map(b.sales.map((s) => [s.id, s])),
    books: b,
    exempt: (s) => s.tax_exempt || s.customer_id === exemptCustomerId,
  };
}

export const net = (l: LineRow): number => l.total - l.tax;
export const lineDiscounts = (l: LineRow): number => l.rule_discount + l.bundle_discount + l.manual_discount + l.cart_discount;
/** What a line's units cost when sold (the snapshot), and what a returned line's units cost back. */
export const lineCost = (l: LineRow): number => l.unit_cost * l.quantity;
export const returnedCost = (x: SalesScope, i: ReturnItemRow): number => (x.lineOf.get(i.sale_item_id)?.unit_cost ?? 0) * i.quantity;
export const refundNet = (r: { refund_total: number; refund_tax: number }): number => r.refund_total - r.refund_tax;
export const avg = (total: number, n: number): Fig => money(n === 0 ? null : total / n);

/** The money figures of a set of kept sales and processed returns (one day, one cashier, ...). */
export interface Totals {
  sales: number;
  units: number;
  gross: number;
  discounts: number;
  net: number;
  tax: number;
  total: number;
  cost: number;
  returns: number;
  refundTotal: number;
  refundTax: number;
  refundNet: number;
  returnedCost: number;
  unitsReturned: number;
  voids: number;
  voidedTotal: number;
}

export function totals(x: SalesScope, kept: SaleRow[], returns: ReturnRow[], voided: SaleRow[] = []): Totals {
  const lines = kept.flatMap((s) => x.linesOf(s.id));
  const ids = new Set(returns.map((r) => r.id));
  const items = x.returnItems.filter((i) => ids.has(i.return_id));
  return {
    sales: kept.length,
    units: sum(lines, (l) => l.base_quantity),
    gross: sum(lines, (l) => l.gross),
    discounts: sum(lines, lineDiscounts),
    net: sum(lines, net),
    tax: sum(lines, (l) => l.tax),
    total: sum(kept, (s) => s.total_amount),
    cost: sum(lines, lineCost),
    returns: returns.length,
    refundTotal: sum(returns, (r) => r.refund_total),
    refundTax: sum(returns, (r) => r.refund_tax),
    refundNet: sum(returns, refundNet),
    returnedCost: sum(items, (i) => returnedCost(x, i)),
    unitsReturned: sum(items, (i) => i.base_quantity),
    voids: voided.length,
    voidedTotal: sum(voided, (s) => s.total_amount),
  };
}

const revenue = (t: Totals) => t.net - t.refundNet;
const cogs = (t: Totals) => t.cost - t.returnedCost;
const profit = (t: Totals) => revenue(t) - cogs(t);

/** Per business day: the day's kept sales, voids and processed returns. */
export function byDay(x: SalesScope, kept = x.kept, returns = x.returns, voided = x.voided): Map<string, Totals> {
  const days = new Set([...kept, ...voided].map((s) => x.day(s.created_at)).concat(returns.map((r) => x.day(r.processed_at!))));
  return new Map(
    [...days].sort().map((d) => [
      d,
      totals(
        x,
        kept.filter((s) => x.day(s.created_at) === d),
        returns.filter((r) => x.day(r.processed_at!) === d),
        voided.filter((s) => x.day(s.created_at) === d),
      ),
    ]),
  );
}

export function expected(x: SalesScope, path: string, e: Partial<Expected>): Expected {
  return {
    path,
    summary: [],
    rowKey: [],
    rows: [],
    zeroRowsOptional: false,
    ignoredRowFields: [],
    charts: [],
    decimals: { [x.store.currency_code]: x.store.decimals },
    ...e,
  };
}

const chart = (x: SalesScope, title: string, total: number, unit: ExpectedChart['unit'] = 'money'): ExpectedChart => ({
  title,
  unit,
  currency: unit === 'money' ? x.store.currency_code : null,
  total,
});

export function salesReport(x: SalesScope): Expected {
  const t = totals(x, x.kept, x.returns, x.voided);
  const c = x.store.currency_code;
  const fields = (d: Totals): Record<string, Fig> => ({
    sales_count: count(d.sales),
    items_sold: qty(d.units),
    gross_sales: money(d.gross),
    discounts: money(d.discounts),
    net_sales: money(d.net),
    tax: money(d.tax),
    total: money(d.total),
    refunds: money(d.refundTotal),
    total_after_refunds: money(d.total - d.refundTotal),
    voids: count(d.voids),
  });
  return expected(x, 'sales', {
    summary: figures(c, { ...fields(t), average_sale: avg(t.total, t.sales), voided_total: money(t.voidedTotal) }),
    rowKey: ['date'],
    rows: [...byDay(x)].map(([d, v]) => row(d, c, fields(v))),
    ignoredRowFields: ['currency'],
    zeroRowsOptional: true,
    charts: [chart(x, 'Sales total per day (incl. tax)', t.total)],
  });
}

export function revenueReport(x: SalesScope): Expected {
  const t = totals(x, x.kept, x.returns);
  const c = x.store.currency_code;
  const fields = (d: Totals): Record<string, Fig> => ({
    gross_sales: money(d.gross),
    discounts: money(d.discounts),
    net_sales: money(d.net),
    refund_net: money(d.refundNet),
    net_revenue: money(revenue(d)),
    net_tax: money(d.tax - d.refundTax),
  });
  return expected(x, 'revenue', {
    summary: figures(c, { ...fields(t), average_daily_revenue: money(revenue(t) / x.days) }),
    rowKey: ['date'],
    rows: [...byDay(x, x.kept, x.returns, [])].map(([d, v]) => row(d, c, fields(v))),
    ignoredRowFields: ['currency'],
    zeroRowsOptional: true,
    charts: [chart(x, 'Net revenue per day', revenue(t)), chart(x, 'Net revenue by store', revenue(t))],
  });
}

function storeFields(t: Totals): Record<string, Fig> {
  return {
    sales_count: count(t.sales),
    net_sales: money(t.net),
    refund_net: money(t.refundNet),
    net_revenue: money(revenue(t)),
    gross_profit: money(profit(t)),
    margin_percent: pct(profit(t), revenue(t)),
    average_sale: avg(t.total, t.sales),
  };
}

const active = (t: Totals) => t.sales + t.voids + t.returns > 0;
const withoutRefundNet = ({ refund_net: _r, ...rest }: Record<string, Fig>) => rest;

export function overviewReport(x: SalesScope): Expected {
  const t = totals(x, x.kept, x.returns, x.voided);
  const c = x.store.currency_code;
  return expected(x, 'overview', {
    summary: figures(c, {
      net_sales: money(t.net),
      refund_net: money(t.refundNet),
      net_revenue: money(revenue(t)),
      cogs: money(cogs(t)),
      gross_profit: money(profit(t)),
      margin_percent: pct(profit(t), revenue(t)),
      net_tax: money(t.tax - t.refundTax),
      total: money(t.total),
      sales_count: count(t.sales),
      average_sale: avg(t.total, t.sales),
      items_sold: qty(t.units),
      voids: count(t.voids),
      returns: count(t.returns),
    }),
    rowKey: ['store_id'],
    rows: active(t) ? [row(String(x.store.id), c, storeFields(t))] : [],
    ignoredRowFields: ['store_name', 'currency'],
    zeroRowsOptional: true,
    charts: [chart(x, 'Net revenue per day', revenue(t)), chart(x, 'Net revenue by store', revenue(t))],
  });
}

export function profitReport(x: SalesScope): Expected {
  const t = totals(x, x.kept, x.returns);
  const c = x.store.currency_code;
  const fields = (d: Totals): Record<string, Fig> => ({
    revenue: money(revenue(d)),
    cogs: money(cogs(d)),
    gross_profit: money(profit(d)),
    margin_percent: pct(profit(d), revenue(d)),
  });
  return expected(x, 'profit', {
    summary: figures(c, { ...fields(t), markup_percent: pct(profit(t), cogs(t)) }),
    rowKey: ['date'],
    rows: [...byDay(x, x.kept, x.returns, [])].map(([d, v]) => row(d, c, fields(v))),
    ignoredRowFields: ['currency'],
    zeroRowsOptional: true,
    charts: [chart(x, 'Gross profit per day', profit(t)), chart(x, 'Gross profit by store', profit(t))],
  });
}

export function storesReport(x: SalesScope): Expected {
  const t = totals(x, x.kept, x.returns, x.voided);
  const c = x.store.currency_code;
  return expected(x, 'stores', {
    summary: figures(c, {
      stores: count(1),
      net_revenue: money(revenue(t)),
      gross_profit: money(profit(t)),
      sales_count: count(t.sales),
      total: money(t.total),
    }),
    rowKey: ['store_id'],
    rows: active(t)
      ? [
          row(String(x.store.id), c, {
            ...withoutRefundNet(storeFields(t)),
            refunds: money(t.refundTotal),
            items_sold: qty(t.units),
            tax: money(t.tax),
            total: money(t.total),
            voids: count(t.voids),
            returns: count(t.returns),
          }),
        ]
      : [],
    ignoredRowFields: ['store_name', 'store_code', 'currency'],
    zeroRowsOptional: true,
    charts: [chart(x, 'Net revenue by store', revenue(t))],
  });
}

export function discountsReport(x: SalesScope): Expected {
  const c = x.store.currency_code;
  const kinds = (ls: LineRow[]) => ({
    rule: sum(ls, (l) => l.rule_discount),
    bundle: sum(ls, (l) => l.bundle_discount),
    manual: sum(ls, (l) => l.manual_discount),
    cart: sum(ls, (l) => l.cart_discount),
    all: sum(ls, lineDiscounts),
    gross: sum(ls, (l) => l.gross),
  });
  const discounted = (ss: SaleRow[]) => ss.filter((s) => sum(x.linesOf(s.id), lineDiscounts) > 0).length;
  const k = kinds(x.keptLines);
  const days = groupBy(x.kept, (s) => x.day(s.created_at));
  return expected(x, 'discounts', {
    summary: figures(c, {
      discounts: money(k.all),
      discounts_rule: money(k.rule),
      discounts_bundle: money(k.bundle),
      discounts_manual: money(k.manual),
      discounts_cart: money(k.cart),
      discount_rate: pct(k.all, k.gross),
      discounted_sales: count(discounted(x.kept)),
      discounted_share: pct(discounted(x.kept), x.kept.length),
    }),
    rowKey: ['date'],
    rows: [...days].map(([d, ss]) => {
      const v = kinds(ss.flatMap((s) => x.linesOf(s.id)));
      return row(d, c, {
        gross_sales: money(v.gross),
        pricing_rules: money(v.rule),
        bundles: money(v.bundle),
        manual: money(v.manual),
        cart: money(v.cart),
        discounts: money(v.all),
        discount_rate: pct(v.all, v.gross),
        discounted_sales: count(discounted(ss)),
      });
    }),
    ignoredRowFields: ['currency'],
    zeroRowsOptional: true,
    charts: [chart(x, 'Discounts by kind', k.all), chart(x, 'Discounts per day', k.all)],
  });
}
