import { formatDay } from '../domain/calendar';
import type { DimensionKey } from '../domain/report-figures';
import type { ReportContext } from './definition';

/** A grouped rollup row: grouping columns and measure sums (currency_code always among them). */
export type Group = Readonly<Record<string, number | string>>;

type FieldValue = string | number | boolean | null;

/**
 * How a report's rows (or a chart's points) are grouped: the rollup columns grouped by (the
 * currency is always added: money is per currency), how the groups are ordered and which
 * dimension fields they fill. `labels` reads names for the groups' ids once per request.
 */
export interface GrainOf<L> {
  name: string;
  groupBy: readonly string[];
  /** Daily rows (span 0) rather than the period's blocks. */
  daily?: boolean;
  /** Groups as rows: every store of the scope gets one, sold or not. */
  expand?: (groups: Group[], ctx: ReportContext) => Group[];
  labels?: (groups: Group[], ctx: ReportContext) => Promise<L>;
  dims: { readonly [K in DimensionKey]?: (g: Group, labels: L) => FieldValue };
  order: (a: Group, b: Group) => number;
}

/** A grain with its labels' type erased (each grain's dims read the labels its own `labels` made). */
export type Grain = GrainOf<unknown>;

export function grain<L>(g: GrainOf<L>): Grain {
  return g as unknown as Grain;
}

const num = (g: Group, c: string) => Number(g[c] ?? 0);
const byCurrency = (a: Group, b: Group) => String(a.currency_code).localeCompare(String(b.currency_code));

/** One row per business day (and currency). */
export const BY_DAY = grain({
  name: 'day',
  groupBy: ['day'],
  daily: true,
  dims: { date: (g) => formatDay(num(g, 'day')), currency: (g) => String(g.currency_code) },
  order: (a, b) => num(a, 'day') - num(b, 'day') || byCurrency(a, b),
});

/** One row per store of the scope (in its currency), in the scope's store order. */
export const BY_STORE = grain<Map<number, { name: string; code: string }>>({
  name: 'store',
  groupBy: ['store_id'],
  expand: (groups, ctx) => ctx.scope.stores.map((s) => groups.find((g) => num(g, 'store_id') === s.id) ?? { store_id: s.id, currency_code: s.currencyCode }),
  labels: async (_g, ctx) => new Map(ctx.scope.stores.map((s) => [s.id, { name: s.name, code: s.code }])),
  dims: {
    store_id: (g) => num(g, 'store_id'),
    store_name: (g, l) => l.get(num(g, 'store_id'))?.name ?? String(g.store_id),
    store_code: (g, l) => l.get(num(g, 'store_id'))?.code ?? null,
    currency: (g) => String(g.currency_code),
  },
  order: () => 0,
});

/** The stores with sales in the scope only (a chart of what sold: a warehouse filter shows no store that sold nothing from it). */
export const BY_STORE_SOLD: Grain = { ...BY_STORE, name: 'store sold', expand: undefined, order: (a, b) => num(a, 'store_id') - num(b, 'store_id') };

/** One row per cashier (user) with their name. */
export const BY_CASHIER = grain<Map<number, string>>({
  name: 'cashier',
  groupBy: ['user_id'],
  labels: (groups, ctx) => ctx.kit.users(groups.map((g) => num(g, 'user_id'))),
  dims: {
    cashier_id: (g) => num(g, 'user_id'),
    cashier_name: (g, l) => l.get(num(g, 'user_id')) ?? null,
    currency: (g) => String(g.currency_code),
  },
  order: (a, b) => num(a, 'user_id') - num(b, 'user_id'),
});
