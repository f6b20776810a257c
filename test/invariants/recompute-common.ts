/**
 * What the report recomputations of the invariant suite (issue 23) share: the scope the filters
 * select (stores, warehouses, time zone, today), business days, figures, and the comparison of
 * a report payload with a recomputed expectation (money exact in the currency's minor units).
 * recompute-invoices.ts and recompute-inventory.ts build the expectations.
 */

/** Runs one statement against the service's database (e.g. `(s, p) => t.db.query(s, p)`). */
export type Q = (sql: string, params?: unknown[]) => Promise<any[]>;
export interface ReportFilters {
  date_from: string;
  date_to: string;
  store_id?: number;
  warehouse_id?: number;
}
export type Unit = 'money' | 'count' | 'quantity' | 'percent' | 'ratio' | 'days' | 'text';
/** A figure: money in minor units of `currency` (a fraction only for averages), others as shown. */
export interface Fig {
  unit: Unit;
  value: number | string | null;
}
export interface ExpectedFigure extends Fig {
  key: string;
  currency: string | null;
}
export interface ExpectedRow {
  /** The identity of the row: the values of Expected.rowKey joined by '|'. */
  id: string;
  /** The currency of the row's money fields. */
  currency: string | null;
  fields: Record<string, Fig>;
}
/** A chart checked by its total: the sum of the y values of its series (of one series when named). */
export interface ExpectedChart {
  title: string;
  series?: string;
  unit: Unit;
  currency: string | null;
  total: number;
}
export interface Expected {
  path: string;
  summary: ExpectedFigure[];
  rowKey: string[];
  rows: ExpectedRow[];
  /** Rows whose numbers are all zero (or null) may be absent from either side. */
  zeroRowsOptional: boolean;
  /** Row fields the comparison leaves alone (labels, timestamps), so every other field is covered. */
  ignoredRowFields: string[];
  charts: ExpectedChart[];
  /** Decimals of each currency, to read the payload's money. */
  decimals: Record<string, number>;
}

// ---------------------------------------------------------------------------------------------
// Scope, dates, money

export const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
/** Datetimes come back as Date (mysql2, timezone Z) or as 'YYYY-MM-DD HH:MM:SS[.sss]' UTC text (SQLite). */
export function toDate(v: unknown): Date {
  if (v instanceof Date) return v;
  const s = String(v);
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s : s.replace(' ', 'T') + 'Z');
}
const formats = new Map<string, Intl.DateTimeFormat>();
/** The calendar day of an instant in a time zone, YYYY-MM-DD. */
export function dayIn(at: Date, tz: string): string {
  let f = formats.get(tz);
  if (!f) formats.set(tz, (f = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' })));
  return f.format(at);
}
export const dayNumber = (day: string): number => Date.UTC(+day.slice(0, 4), +day.slice(5, 7) - 1, +day.slice(8, 10)) / 86_400_000;
export const dayOf = (n: number): string => new Date(n * 86_400_000).toISOString().slice(0, 10);

export interface StoreRow {
  id: number;
  name: string;
  currency: string;
  tz: string;
}
export interface WarehouseRow {
  id: number;
  name: string;
  storeId: number | null;
}
export interface Scope {
  stores: Map<number, StoreRow>;
  /** Every store (records of stores out of scope are dropped by the filters, not by lookups). */
  allStores: Map<number, StoreRow>;
  warehouses: Map<number, WarehouseRow>;
  /** The time zone of dates not tied to one store: the store's when exactly one is in scope, else UTC. */
  tz: string;
  /** Today: in that zone, or the latest of the stores' current days (README, Filters). */
  today: string;
  days: number;
  decimals: Record<string, number>;
  baseCurrency: string;
  filters: ReportFilters;
}

export async function scopeOf(q: Q, filters: ReportFilters, now: Date): Promise<Scope> {
  const allStores = new Map<number, StoreRow>();
  for (const s of await q('SELECT id, name, currency_code, timezone, deleted_at FROM stores')) {
    if (s.deleted_at === null) allStores.set(num(s.id), { id: num(s.id), name: s.name, currency: s.currency_code, tz: s.timezone });
  }
  const links = (await q('SELECT warehouse_id, store_id FROM warehouse_stores')).map((r) => [num(r.warehouse_id), num(r.store_id)]);
  const allWarehouses = (await q('SELECT id, name, store_id, deleted_at FROM warehouses'))
    .filter((w) => w.deleted_at === null)
    .map((w): WarehouseRow => ({ id: num(w.id), name: w.name, storeId: w.store_id === null ? null : num(w.store_id) }));
  const serves = (w: WarehouseRow, storeId: number) => w.storeId === storeId || links.some(([wh, st]) => wh === w.id && st === storeId);
  let warehouses = allWarehouses;
  let storeIds = [...allStores.keys()];
  if (filters.warehouse_id !== undefined) {
    warehouses = allWarehouses.filter((w) => w.id === filters.warehouse_id);
    storeIds = storeIds.filter((s) => warehouses.some((w) => serves(w, s)));
  }
  if (filters.store_id !== undefined) {
    storeIds = storeIds.filter((s) => s === filters.store_id);
    warehouses = warehouses.filter((w) => serves(w, filters.store_id!));
  }
  const stores = new Map(storeIds.map((id) => [id, allStores.get(id)!]));
  const tz = stores.size === 1 ? [...stores.values()][0].tz : 'UTC';
  const todays = [...stores.values()].map((s) => dayIn(now, s.tz)).sort();
  const today = stores.size === 1 || todays.length === 0 ? dayIn(now, tz) : todays[todays.length - 1];
  const currencies = await q('SELECT code, decimals, is_base FROM currencies');
  const decimals = Object.fromEntries(currencies.map((c) => [c.code, num(c.decimals)]));
  const base = currencies.find((c) => c.is_base === true || num(c.is_base) === 1);
  if (!base) throw new Error('No base currency: stock values have no currency to be read in.');
  return {
    stores,
    allStores,
    warehouses: new Map(warehouses.map((w) => [w.id, w])),
    tz,
    today,
    days: dayNumber(filters.date_to) - dayNumber(filters.date_from) + 1,
    decimals,
    baseCurrency: String(base.code),
    filters,
  };
}

export const inPeriod = (day: string, f: ReportFilters): boolean => day >= f.date_from && day <= f.date_to;
export const money = (value: number | null): Fig => ({ unit: 'money', value });
export const count = (value: number): Fig => ({ unit: 'count', value });
export const qty = (value: number): Fig => ({ unit: 'quantity', value });
export const pct = (part: number, whole: number): Fig => ({ unit: 'percent', value: whole === 0 ? null : (part * 100) / whole });
export const text = (value: string | number | null): Fig => ({ unit: 'text', value });
export const sum = <T>(xs: T[], f: (x: T) => number): number => xs.reduce((a, x) => a + f(x), 0);
export function groupBy<T>(xs: T[], key: (x: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const x of xs) m.set(key(x), [...(m.get(key(x)) ?? []), x]);
  return m;
}
/** Summary figures of one currency from a record of figures. */
export const figures = (currency: string | null, figs: Record<string, Fig>): ExpectedFigure[] =>
  Object.entries(figs).map(([key, f]) => ({ key, currency, ...f }));
export const row = (id: string, currency: string | null, fields: Record<string, Fig>): ExpectedRow => ({ id, currency, fields });
/** An expectation with nothing in it but what `e` gives. */
export const expectation = (path: string, scope: Scope, e: Partial<Expected>): Expected => ({
  path,
  summary: [],
  rowKey: [],
  rows: [],
  zeroRowsOptional: false,
  ignoredRowFields: [],
  charts: [],
  decimals: scope.decimals,
  ...e,
});

// ---------------------------------------------------------------------------------------------
// Comparison of a payload with an expectation

type Json = any;
/** The coarsest precision a report may show each kind of figure in (it may show more). */
const PRECISION: Partial<Record<Unit, number>> = { percent: 2, ratio: 2, days: 1 };

function sameFigure(actual: unknown, exp: Fig, currency: string | null, decimals: Record<string, number>): boolean {
  if (exp.value === null || actual === null || actual === undefined) return (actual ?? null) === exp.value;
  if (exp.unit === 'text') return String(actual) === String(exp.value);
  if (typeof actual !== 'number') return false;
  const e = Number(exp.value);
  if (exp.unit === 'money') {
    const d = currency === null ? undefined : decimals[currency];
    if (d === undefined) return false;
    const minor = Math.round(actual * 10 ** d);
    // Money is exact; an average (a fraction of a minor unit) may be rounded either way of its half.
    return Number.isInteger(e) ? minor === e : Math.abs(minor - e) <= 0.5 + 1e-9 && Math.abs(actual * 10 ** d - minor) < 1e-6;
  }
  const p = PRECISION[exp.unit];
  if (p === undefined) return actual === e;
  return Math.abs(actual - e) <= 0.5 * 10 ** -p + 1e-9;
}
function show(f: Fig, currency: string | null, decimals: Record<string, number>): string {
  if (f.value === null || f.unit !== 'money') return String(f.value);
  const d = currency === null ? undefined : decimals[currency];
  return d === undefined ? `${f.value} minor units of ${currency}` : `${Number(f.value) / 10 ** d} ${currency}`;
}
const isZero = (v: unknown) => v === null || v === undefined || v === 0 || typeof v === 'string' || typeof v === 'boolean';

/** Every difference between a report payload (the response body or its data) and the recomputation. */
export function compareReport(payload: Json, exp: Expected): string[] {
  const data = payload?.data?.summary ? payload.data : payload;
  const out: string[] = [];
  const p = exp.path;
  if (!data || !Array.isArray(data.summary) || !Array.isArray(data.rows)) return [`${p}: not a report payload`];
  const summary: Json[] = data.summary;
  const expectedKeys = new Set(exp.summary.map((f) => f.key));
  for (const f of exp.summary) {
    const found = summary.filter((s) => s.key === f.key && (s.currency ?? null) === f.currency);
    if (found.length === 0) {
      if (!isZero(f.value)) out.push(`${p} summary ${f.key} [${f.currency}]: expected ${show(f, f.currency, exp.decimals)}, missing`);
    } else if (found.length > 1) out.push(`${p} summary ${f.key} [${f.currency}]: ${found.length} entries`);
    else if (!sameFigure(found[0].value, f, f.currency, exp.decimals))
      out.push(`${p} summary ${f.key} [${f.currency}]: expected ${show(f, f.currency, exp.decimals)}, actual ${found[0].value}`);
  }
  for (const s of summary) {
    if (!expectedKeys.has(s.key)) out.push(`${p} summary ${s.key}: not recomputed (a figure this suite does not know)`);
    else if (!exp.summary.some((f) => f.key === s.key && f.currency === (s.currency ?? null)) && !isZero(s.value))
      out.push(`${p} summary ${s.key} [${s.currency}]: expected nothing, actual ${s.value}`);
  }
  const idOf = (r: Json) => exp.rowKey.map((k) => String(r[k] ?? null)).join('|');
  const actualRows = new Map<string, Json>();
  for (const r of data.rows as Json[]) {
    if (actualRows.has(idOf(r))) out.push(`${p} row ${idOf(r)}: twice`);
    actualRows.set(idOf(r), r);
  }
  const expectedRows = new Map(exp.rows.map((r) => [r.id, r]));
  const unknownFields = new Set<string>();
  for (const r of exp.rows) {
    const a = actualRows.get(r.id);
    if (!a) {
      if (!exp.zeroRowsOptional || Object.values(r.fields).some((f) => f.unit !== 'text' && !isZero(f.value)))
        out.push(
          `${p} row ${r.id}: missing (expected ${JSON.stringify(Object.fromEntries(Object.entries(r.fields).map(([k, f]) => [k, show(f, r.currency, exp.decimals)])))})`,
        );
      continue;
    }
    for (const [k, f] of Object.entries(r.fields)) {
      if (!(k in a)) out.push(`${p} row ${r.id} ${k}: missing`);
      else if (!sameFigure(a[k], f, r.currency, exp.decimals)) out.push(`${p} row ${r.id} ${k}: expected ${show(f, r.currency, exp.decimals)}, actual ${a[k]}`);
    }
    for (const k of Object.keys(a)) {
      if (!(k in r.fields) && !exp.rowKey.includes(k) && !exp.ignoredRowFields.includes(k)) unknownFields.add(k);
    }
  }
  for (const k of unknownFields) out.push(`${p} row field ${k}: not recomputed (a field this suite does not know)`);
  for (const [id, a] of actualRows) {
    if (expectedRows.has(id)) continue;
    const zero = Object.entries(a).every(([k, v]) => exp.rowKey.includes(k) || exp.ignoredRowFields.includes(k) || isZero(v));
    if (!exp.zeroRowsOptional || !zero) out.push(`${p} row ${id}: not expected (${JSON.stringify(a)})`);
  }
  for (const c of exp.charts) {
    const chart = (data.charts as Json[] | undefined)?.find((x) => x.title === c.title);
    if (!chart) {
      out.push(`${p} chart "${c.title}": missing`);
      continue;
    }
    const series = (chart.series as Json[]).filter(
      (s) => (c.series === undefined || s.name === c.series) && (c.currency === null || s.currency === c.currency),
    );
    const total = sum(series, (s) => sum(s.data as Json[], (pt) => num(pt.y)));
    if (!sameFigure(Math.round(total * 1e6) / 1e6, { unit: c.unit, value: c.total }, c.currency, exp.decimals))
      out.push(
        `${p} chart "${c.title}"${c.series ? ` ${c.series}` : ''}: total expected ${show({ unit: c.unit, value: c.total }, c.currency, exp.decimals)}, actual ${total}`,
      );
  }
  return out;
}
