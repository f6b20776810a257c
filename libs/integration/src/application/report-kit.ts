import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig, KeyedCache } from '@pos/platform';
import { ItemCatalog, StockReadModel } from '@pos/catalog';
import { ConflictError, fromMinor } from '@pos/kernel';
import { CurrencyDecimals, ReferenceService } from '@pos/pricing';
import { EpochDay, formatDay } from '../domain/calendar';
import { Chart, ChartPoint, ChartSeries, ChartType, ReportResult, ReportRow, SummaryFigure } from '../domain/report-payload';
import { columnsOf } from '../domain/report-figures';
import { ColumnOf, CUSTOMERS, CUSTOMERS_ALL, ITEMS, ITEMS_ALL, MeasureOf, RollupTable } from '../domain/rollup-tables';
import { NameDirectory } from './name.directory';
import { reportMeta, ReportScope } from './report-scope';
import { Filter, RollupReader, RollupResult, SumRow, sumOf, TypedRollupQuery } from './rollup.ports';

export type Row = RollupResult;

/** A measure of a rollup result row as a number (0 when absent). */
export const n = <R extends object>(r: R | undefined, m: keyof R & string): number => (r ? Number((r as Record<string, unknown>)[m] ?? 0) : 0);

/**
 * JSON amounts in each currency's decimals (views are built from minor units, never the reverse).
 * Built for the currencies a report shows; there is no default scale, so an amount in any other
 * currency is a programming error, said loudly rather than shown at a guessed scale.
 */
export class Money {
  constructor(private readonly decimals: Map<string, number>) {}

  of(minor: number | null, currency: string): number | null {
    return minor === null ? null : this.v(minor, currency);
  }

  /** Same, for values known to be present. */
  v(minor: number, currency: string): number {
    const decimals = this.decimals.get(currency);
    if (decimals === undefined) throw new Error(`No decimals for currency "${currency}" in this report`);
    return fromMinor(Math.round(minor), decimals);
  }
}

export interface ItemInfo {
  sku: string;
  name: string;
  /** Current cost of one base unit (base currency). */
  cost: number;
  categoryId: number | null;
  categoryName: string | null;
}

/** Labels of ids (only the ids found), reading those not held with `load`. */
type Labels<V> = (ids: number[], load: (missing: number[]) => Promise<Map<number, V>>) => Promise<Map<number, V>>;

/** Labels kept at most this many per kind (a catalogue of 100,000 items fits; past it the oldest go first). */
const LABELS_MAX = 250_000;

/**
 * Labels of report rows (item SKU, name and category; customer and cashier names), read for the
 * ids a report shows and kept per process for REPORTS_DIRECTORY_TTL_MS, like the store directory:
 * a renamed item or customer shows under its new name within that time. Only the ids not held
 * (or held too long) are read, in one query per thousand. An id not found is not kept (read again
 * next time), and the map answered holds only the ids found, as callers read it.
 */
function labelCache<V>(ttlMs: number): Labels<V> {
  const cache = new KeyedCache<V>(ttlMs, { max: LABELS_MAX, keepAbsent: false });
  return async (ids, load) => {
    const out = new Map<number, V>();
    for (const [id, value] of await cache.getMany(ids, load)) if (value !== null) out.set(id, value);
    return out;
  };
}

/** The base currency changes (almost) never: read once a minute per process. */
const BASE_CURRENCY_TTL_MS = 60_000;

/** Shared plumbing of the report services: rollup queries in a scope, money, names, chart shapes. */
@Injectable()
export class ReportKit {
  private readonly baseCurrency = new KeyedCache<string, 'base'>(BASE_CURRENCY_TTL_MS, { max: 1 });
  private readonly itemLabels: Labels<ItemInfo>;
  private readonly userLabels: Labels<string>;
  private readonly customerLabels: Labels<string>;

  constructor(
    readonly rollups: RollupReader,
    private readonly decimals: CurrencyDecimals,
    private readonly names: NameDirectory,
    private readonly items: ItemCatalog,
    private readonly stock: StockReadModel,
    private readonly reference: ReferenceService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.itemLabels = labelCache(config.reportsDirectoryTtlMs);
    this.userLabels = labelCache(config.reportsDirectoryTtlMs);
    this.customerLabels = labelCache(config.reportsDirectoryTtlMs);
  }

  async money(currencies: string[]): Promise<Money> {
    const map = new Map<string, number>();
    for (const c of new Set(currencies)) map.set(c, await this.decimals.of(c));
    return new Money(map);
  }

  /** Store and warehouse filters of store-keyed rollups. */
  where(scope: ReportScope, extra: Record<string, Filter | undefined> = {}): Record<string, Filter | undefined> {
    return { store_id: scope.storeIds, warehouse_id: scope.warehouseId ?? undefined, ...extra };
  }

  /** A store-keyed table's sums over the scope's period, stores and warehouse (names checked against the table). */
  sum<T extends RollupTable, const M extends MeasureOf<T>, const G extends ColumnOf<T> = never>(
    scope: ReportScope,
    q: Omit<TypedRollupQuery<T, M, G>, 'from' | 'to'>,
  ): Promise<SumRow<M, G>[]> {
    return sumOf(this.rollups, { ...q, from: scope.period.from, to: scope.period.to, where: this.where(scope, q.where) } as TypedRollupQuery<T, M, G>);
  }

  /** Item rollups of the scope (only these items when given): per currency when every store is in scope, else per store. */
  itemSums<const M extends MeasureOf<typeof ITEMS>, const G extends ColumnOf<typeof ITEMS_ALL> & ColumnOf<typeof ITEMS> = never>(
    scope: ReportScope,
    groupBy: readonly G[],
    measures: readonly M[],
    itemIds?: number[],
  ): Promise<SumRow<M, G>[]> {
    return this.perCurrencyOrStore(scope, ITEMS_ALL, ITEMS, groupBy, measures, itemIds) as Promise<SumRow<M, G>[]>;
  }

  customerSums<const M extends MeasureOf<typeof CUSTOMERS>, const G extends ColumnOf<typeof CUSTOMERS_ALL> & ColumnOf<typeof CUSTOMERS> = never>(
    scope: ReportScope,
    groupBy: readonly G[],
    measures: readonly M[],
  ): Promise<SumRow<M, G>[]> {
    return this.perCurrencyOrStore(scope, CUSTOMERS_ALL, CUSTOMERS, groupBy, measures) as Promise<SumRow<M, G>[]>;
  }

  private perCurrencyOrStore(
    scope: ReportScope,
    all: RollupTable,
    perStore: RollupTable,
    groupBy: readonly string[],
    measures: readonly string[],
    itemIds?: number[],
  ): Promise<Row[]> {
    const q = { from: scope.period.from, to: scope.period.to, groupBy, measures };
    const items = itemIds ? { item_id: itemIds } : {};
    return scope.unrestricted
      ? this.rollups.sum({ ...q, table: all, where: items })
      : this.rollups.sum({ ...q, table: perStore, where: this.where(scope, items) });
  }

  users(ids: number[]): Promise<Map<number, string>> {
    return this.userLabels(ids, (missing) => this.names.users(missing));
  }

  customers(ids: number[]): Promise<Map<number, string>> {
    return this.customerLabels(ids, (missing) => this.names.customers(missing));
  }

  /** SKU, name and category of items (deleted ones too: old sales point at them). */
  itemInfo(ids: number[]): Promise<Map<number, ItemInfo>> {
    return this.itemLabels(ids, (missing) => this.readItemInfo(missing));
  }

  private async readItemInfo(unique: number[]): Promise<Map<number, ItemInfo>> {
    const out = new Map<number, ItemInfo>();
    const records = [];
    for (let i = 0; i < unique.length; i += 1000) records.push(...(await this.items.findByIds(unique.slice(i, i + 1000), true)));
    const categories = new Map(
      (await this.stock.categoriesByIds([...new Set(records.map((r) => r.categoryId).filter((c): c is number => c !== null))])).map((c) => [c.id, c.name]),
    );
    for (const r of records)
      out.set(r.id, {
        sku: r.sku,
        name: r.name,
        cost: r.cost,
        categoryId: r.categoryId,
        categoryName: r.categoryId === null ? null : (categories.get(r.categoryId) ?? null),
      });
    return out;
  }

  /** The base currency: item costs (stock values) are in it. Cached a minute. */
  baseCurrencyCode(): Promise<string> {
    return this.baseCurrency.get('base', async () => {
      const base = (await this.reference.currencies()).find((c) => c.is_base);
      // No guessed currency: stock values are in the base currency or not shown (as the catalog says).
      if (!base) throw new ConflictError('base_currency_missing', 'No base currency is configured (currencies.is_base): stock values are kept in it.');
      return base.code;
    });
  }
}

/** A report's payload and meta: the rows' columns labelled from the metric catalogue. */
export function reportResult(scope: ReportScope, summary: SummaryFigure[], rows: ReportRow[], charts: Chart[], note?: string): ReportResult {
  return { data: { summary, rows, columns: columnsOf(rows), charts }, meta: reportMeta(scope, note) };
}

export function chart(type: ChartType, title: string, series: ChartSeries[]): Chart {
  return { type, title, series };
}

/** A chart's series, one per currency of the scope (never a sum of unlike money). */
export function perCurrency(scope: ReportScope, data: (currency: string) => ChartPoint[]): ChartSeries[] {
  return scope.currencies.map((c) => ({ name: c, currency: c, data: data(c) }));
}

/** One point per day of the period (0 where nothing happened), from rows with `day`. */
export function dailyPoints<R extends object>(scope: ReportScope, rows: readonly R[], value: (r: R) => number | null): ChartPoint[] {
  const byDay = new Map<number, R>();
  for (const r of rows) byDay.set(Number((r as { day?: unknown }).day), r);
  const out: ChartPoint[] = [];
  for (let d: EpochDay = scope.period.from; d <= scope.period.to; d++) {
    const r = byDay.get(d);
    out.push({ x: formatDay(d), y: r ? value(r) : 0 });
  }
  return out;
}

/** Rows grouped by a column (e.g. currency_code). */
export function groupRows<R extends object>(rows: readonly R[], col: keyof R & string): Map<string, R[]> {
  const out = new Map<string, R[]>();
  for (const r of rows) {
    const k = String(r[col]);
    const list = out.get(k) ?? [];
    list.push(r);
    out.set(k, list);
  }
  return out;
}

/** Measures summed over rows. */
export function total<R extends object, M extends keyof R & string>(rows: readonly R[], measures: readonly M[]): Record<M, number> {
  const out = {} as Record<M, number>;
  for (const m of measures) out[m] = rows.reduce<number>((a, r) => a + n(r, m), 0);
  return out;
}
