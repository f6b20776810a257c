import { metric, METRICS, MetricKey, TemplateKey } from './metrics';
import type { FigureUnit, ReportColumn, SummaryFigure } from './report-payload';

/**
 * How reports name what they show. A summary figure is made by `figure(key, ...)`: its label and
 * unit come from the metric catalogue (metrics.ts), so a key is defined once and a misspelt one
 * does not compile. A row is made by `row({...})`: every field must be a catalogued figure or one
 * of the dimensions below (what a row is about), and `columnsOf` lists the rows' fields with the
 * catalogue's label and unit for the payload's `columns`.
 */
export const DIMENSIONS = {
  date: 'Business day',
  currency: 'Currency',
  store_id: 'Store',
  store_name: 'Store name',
  store_code: 'Store code',
  warehouse_id: 'Warehouse',
  warehouse_name: 'Warehouse name',
  session_id: 'Cashier session',
  session_status: 'Session status',
  drawer_figures: 'Row holds the session drawer (the day it closed, or opened while still open)',
  cashier_id: 'Cashier',
  cashier_name: 'Cashier name',
  customer_id: 'Customer',
  customer_name: 'Customer name',
  item_id: 'Item',
  sku: 'SKU',
  name: 'Item name',
  category: 'Category',
  rank: 'Rank',
  class: 'ABC class',
  price_source: 'Price source',
  method_code: 'Payment method',
  method_type: 'Payment method type',
  totals_by_payment_method: 'Taken per payment method',
  refunds_by_payment_method: 'Refunded per payment method',
  reason: 'Return reason',
  condition: 'Returned item condition',
  rate: 'Tax rate or exempt',
  weekday: 'Weekday (local)',
  weekday_index: 'Weekday index (0 Monday)',
  hour: 'Hour (local, 0-23)',
  stage: 'Stage',
  label: 'Stage label',
  amount_is: 'What amount holds',
  id: 'Credit note',
  number: 'Credit note number',
  sale_id: 'Sale',
  return_id: 'Return',
  created_at: 'Created at (UTC)',
  type: 'Movement type',
  stock_status: 'Stock status',
  is_active: 'Item active',
  last_sold: 'Last sold (business day)',
} as const;

export type DimensionKey = keyof typeof DIMENSIONS;

type ConcreteMetricKey = Exclude<MetricKey, TemplateKey>;
type FieldValue = string | number | boolean | null | Record<string, number>;
export type RowFields = { [K in ConcreteMetricKey | DimensionKey]?: FieldValue };

/** A summary figure; `vars` fill the `{x}` of a template key (`taken_{method}`) and its label. */
export function figure<K extends MetricKey>(
  key: K,
  value: number | null,
  currency: string | null = null,
  ...vars: K extends TemplateKey ? [vars: Record<string, string>] : []
): SummaryFigure {
  const m = metric(key);
  const fill = (s: string) => s.replace(/\{(\w+)\}/g, (whole, name: string) => vars[0]?.[name] ?? whole);
  return { key: fill(key), label: fill(m.label), value, unit: m.unit, currency };
}

/** A report row whose every field is a catalogued figure or a dimension (a misspelt field does not compile). */
export function row<T extends RowFields>(fields: T & Record<Exclude<keyof T, keyof RowFields>, never>): T {
  return fields;
}

/** The columns of rows, in the order their fields first appear, labelled from the catalogue. */
export function columnsOf(rows: readonly object[]): ReportColumn[] {
  const seen = new Map<string, ReportColumn>();
  for (const r of rows)
    for (const key of Object.keys(r)) {
      if (seen.has(key)) continue;
      seen.set(key, columnOf(key));
    }
  return [...seen.values()];
}

function columnOf(key: string): ReportColumn {
  if (key in METRICS && !key.includes('{')) {
    const m = metric(key as MetricKey);
    return { key, label: m.label, unit: m.unit };
  }
  if (key in DIMENSIONS) return { key, label: DIMENSIONS[key as DimensionKey], unit: null };
  // Not reachable through row(): a field built outside it (a spread) and not catalogued.
  return { key, label: key, unit: null satisfies FigureUnit | null };
}
