import { dailyPoints } from '../application/report-kit';
import { sumOf } from '../application/rollup.ports';
import { metric, MetricKey } from '../domain/metrics';
import { figure } from '../domain/report-figures';
import type { SummaryFigure } from '../domain/report-payload';
import type { Chart, ChartType, ReportRow } from '../domain/report-payload';
import type { ColumnOf, MeasureOf, RollupTable } from '../domain/rollup-tables';
import type { ColumnKey, ReportContext, ReportParts } from './definition';
import { evaluate, FigureSet, Formula, FormulaContext, measuresOf, Sums } from './formula';
import { BY_DAY, Grain, Group } from './grain';

type Metric<F> = Extract<keyof F, MetricKey>;

export interface ChartSpec<F> {
  type: ChartType;
  title: string;
  metric: Metric<F>;
  /** Points per group of this grain; a line chart without one has a point per day of the period. */
  grain?: Grain;
  /** The dimension on the x axis (grain charts); of a pair, the second (as text) where the first is null. */
  x?: ColumnKey | readonly [ColumnKey, ColumnKey];
  /** A line per value of this dimension of `grain` (a daily grain) and currency, named "<value> (<currency>)". */
  split?: ColumnKey;
}

/** A chart of several figures of each currency's totals: one point per figure, labelled. */
export interface SlicesSpec<F> {
  type: ChartType;
  title: string;
  slices: readonly { metric: Metric<F>; label: string }[];
}

/** A summary figure, or a template figure once per set of values of its `{x}`. */
export type SummarySpec<F> = Metric<F> | { metric: Metric<F>; vars: readonly Readonly<Record<string, string>>[] };

/**
 * A report read from one rollup table: its summary figures per currency, its rows at a grain,
 * its charts. Every value is a figure of the table's figure set (formula and unit from the
 * catalogue) or a dimension of the grain; the renderer does the queries, the per-currency
 * grouping, the money conversion and the daily points once for every such report.
 */
export interface RollupReportSpec<T extends RollupTable, F extends FigureSet<MeasureOf<T>>> {
  table: T;
  figures: F;
  summary: readonly SummarySpec<F>[];
  rows: {
    grain: Grain;
    columns: readonly (Metric<F> | Exclude<ColumnKey, MetricKey>)[];
    /** Rows by this figure, highest first (ties: the grain's order); default the grain's order. */
    rankBy?: Metric<F>;
    /** At most this many rows per currency. */
    limit?: number;
    /** Rows only of the groups where this figure is above 0 (the summary still counts every group). */
    only?: Metric<F>;
  };
  charts: readonly (ChartSpec<F> | SlicesSpec<F>)[];
  /** Extra filters on the table's columns. */
  where?: Partial<Record<ColumnOf<T>, number | string>>;
}

// A line chart without a grain reads the days: with rows by day too, one query serves both.
const DAY: Grain = BY_DAY;

/** What a rollup report declares and how it is built (spread into defineReport). */
export function rollupReport<T extends RollupTable, F extends FigureSet<MeasureOf<T>>>(spec: RollupReportSpec<T, F>) {
  return {
    summary: spec.summary.map((s) => (typeof s === 'object' ? s.metric : s)) as readonly MetricKey[],
    columns: spec.rows.columns as readonly ColumnKey[],
    build: (ctx: ReportContext) => render(spec, ctx),
  };
}

async function render<T extends RollupTable, F extends FigureSet<MeasureOf<T>>>(spec: RollupReportSpec<T, F>, ctx: ReportContext): Promise<ReportParts> {
  type M = MeasureOf<T>;
  const formula = (k: Metric<F>) => spec.figures[k] as Formula<M>;
  const metricsOf = (keys: readonly string[]) => keys.filter((k): k is Metric<F> => k in spec.figures);
  // Every grain the report reads, with the measures its consumers need.
  const grains = new Map<Grain, Set<M>>();
  const need = (g: Grain, keys: readonly Metric<F>[]) => {
    const set = grains.get(g) ?? new Set<M>();
    for (const k of keys) for (const m of measuresOf(formula(k))) set.add(m);
    grains.set(g, set);
  };
  const summaryMetrics = spec.summary.map((s) => (typeof s === 'object' ? s.metric : s));
  const only = spec.rows.only ? [spec.rows.only] : [];
  need(spec.rows.grain, [...metricsOf(spec.rows.columns), ...summaryMetrics, ...(spec.rows.rankBy ? [spec.rows.rankBy] : []), ...only]);
  for (const c of spec.charts) {
    if ('slices' in c)
      need(
        spec.rows.grain,
        c.slices.map((s) => s.metric),
      );
    else need(c.grain ?? DAY, [c.metric]);
  }
  const read = new Map<Grain, Group[]>();
  await Promise.all(
    [...grains].map(async ([g, measures]) => {
      const q = {
        table: spec.table,
        from: ctx.scope.period.from,
        to: ctx.scope.period.to,
        daily: g.daily,
        groupBy: [...g.groupBy, 'currency_code'] as ColumnOf<T>[],
        measures: [...measures],
        where: { ...ctx.kit.where(ctx.scope), ...spec.where } as Partial<Record<ColumnOf<T>, number>>,
      };
      const rows = (await sumOf(ctx.kit.rollups, q)) as unknown as Group[];
      const zero = Object.fromEntries([...measures].map((m) => [m, 0]));
      read.set(
        g,
        (g.expand ? g.expand(rows, ctx) : rows).map((r) => ({ ...zero, ...r })),
      );
    }),
  );
  const rowsGrain = spec.rows.grain;
  const groups = read.get(rowsGrain) ?? [];
  const byCurrency = new Map<string, Group[]>(ctx.scope.currencies.map((c) => [c, []]));
  for (const g of groups) byCurrency.get(String(g.currency_code))?.push(g);
  const totals = new Map<string, Sums<M>>();
  for (const [c, list] of byCurrency) {
    const t: Record<string, number> = {};
    for (const m of grains.get(rowsGrain) ?? []) t[m] = list.reduce((a, g) => a + Number(g[m] ?? 0), 0);
    totals.set(c, t as Sums<M>);
  }
  // One context per currency (formulas run per cell and per sort comparison: no object each time).
  const contexts = new Map<string, FormulaContext<M>>();
  const context = (c: string, vars?: Readonly<Record<string, string>>): FormulaContext<M> => {
    const made = contexts.get(c) ?? {
      scope: ctx.scope,
      currency: c,
      total: totals.get(c) ?? ({} as Sums<M>),
      groups: (byCurrency.get(c) ?? []) as FormulaContext<M>['groups'],
    };
    contexts.set(c, made);
    return vars ? { ...made, vars } : made;
  };
  const valueOf = (k: Metric<F>, g: Group, c: string, vars?: Readonly<Record<string, string>>) => {
    const v = evaluate(formula(k), g as Sums<M>, context(c, vars));
    return metric(k).unit === 'money' ? ctx.money.of(v, c) : v;
  };

  const summary = ctx.scope.currencies.flatMap((c) =>
    spec.summary.flatMap((s) =>
      typeof s === 'object'
        ? s.vars.map((v) => anyFigure(s.metric, valueOf(s.metric, totals.get(c) as Group, c, v), c, v))
        : [anyFigure(s, valueOf(s, totals.get(c) as Group, c), c)],
    ),
  );

  const labels = rowsGrain.labels ? await rowsGrain.labels(groups, ctx) : undefined;
  const cell = (key: string, g: Group, grain: Grain, l: unknown) => {
    const c = String(g.currency_code);
    if (key in spec.figures) return valueOf(key as Metric<F>, g, c);
    const dim = grain.dims[key as keyof typeof grain.dims];
    if (!dim) throw new Error(`Grain ${grain.name} has no dimension ${key}`);
    return dim(g, l as never);
  };
  const ranked = (list: Group[]) => {
    const out = [...list].sort(rowsGrain.order);
    const rank = spec.rows.rankBy;
    if (rank)
      out.sort(
        (a, b) =>
          Number(evaluate(formula(rank), b as Sums<M>, context(String(b.currency_code)))) -
          Number(evaluate(formula(rank), a as Sums<M>, context(String(a.currency_code)))),
      );
    return out;
  };
  const kept = spec.rows.only;
  let ordered = ranked(kept ? groups.filter((g) => Number(evaluate(formula(kept), g as Sums<M>, context(String(g.currency_code)))) > 0) : groups);
  if (spec.rows.limit !== undefined) {
    const limit = spec.rows.limit;
    ordered = ctx.scope.currencies.flatMap((c) => ordered.filter((g) => g.currency_code === c).slice(0, limit));
  }
  const rows: ReportRow[] = ordered.map((g) => Object.fromEntries(spec.rows.columns.map((k) => [k, cell(k, g, rowsGrain, labels)])));

  const charts: Chart[] = [];
  for (const c of spec.charts) {
    if ('slices' in c) {
      const series = ctx.scope.currencies.map((cur) => ({
        name: cur,
        currency: cur,
        data: c.slices.map((s) => ({ x: s.label, y: valueOf(s.metric, totals.get(cur) as Group, cur) })),
      }));
      charts.push({ type: c.type, title: c.title, series });
      continue;
    }
    const grain = c.grain ?? DAY;
    // A chart at the rows' grain shows the rows, in their order (a daily line: every day's groups).
    const points = c.grain && grain === rowsGrain ? ordered : (read.get(grain) ?? []);
    const l = grain === rowsGrain ? labels : grain.labels ? await grain.labels(points, ctx) : undefined;
    const xOf = (g: Group): string | number => {
      const x = c.x ?? 'currency';
      if (typeof x === 'string') return cell(x, g, grain, l) as string | number;
      return (cell(x[0], g, grain, l) as string | number | null) ?? String(cell(x[1], g, grain, l));
    };
    const daily = (cur: string, mine: Group[]) => dailyPoints(ctx.scope, mine as never, (g) => valueOf(c.metric, g as Group, cur));
    const split = c.split;
    if (split) {
      const lines = new Map<string, { cur: string; value: string; mine: Group[] }>();
      for (const g of points) {
        const cur = String(g.currency_code);
        const value = String(cell(split, g, grain, l));
        const key = `${cur}|${value}`;
        const line = lines.get(key) ?? { cur, value, mine: [] };
        line.mine.push(g);
        lines.set(key, line);
      }
      const series = [...lines.keys()].sort().map((key) => {
        const { cur, value, mine } = lines.get(key) as { cur: string; value: string; mine: Group[] };
        return { name: `${value} (${cur})`, currency: cur, data: daily(cur, mine) };
      });
      charts.push({ type: c.type, title: c.title, series });
      continue;
    }
    const series = ctx.scope.currencies.map((cur) => {
      const mine = points.filter((g) => g.currency_code === cur);
      const data = c.grain
        ? (grain === rowsGrain ? mine : [...mine].sort(grain.order)).map((g) => ({ x: xOf(g), y: valueOf(c.metric, g, cur) }))
        : daily(cur, mine);
      return { name: cur, currency: cur, data };
    });
    charts.push({ type: c.type, title: c.title, series });
  }
  return { summary, rows, charts };
}

/** A summary figure of a key, its `{x}` (if any) filled from `vars`. */
const anyFigure = figure as (key: MetricKey, value: number | null, currency: string | null, vars?: Readonly<Record<string, string>>) => SummaryFigure;
