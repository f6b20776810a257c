/**
 * The report payload of contract 2.6: `summary` (named aggregates), `rows`, `charts` (ready to
 * plot), as JSON values. Money is a JSON number in its currency's decimals, always next to the
 * currency code it is in: reports over stores of several currencies give one figure per
 * currency, never a sum of unlike money.
 */
export type FigureUnit = 'money' | 'count' | 'quantity' | 'percent' | 'days' | 'ratio';

export interface SummaryFigure {
  key: string;
  label: string;
  value: number | null;
  unit: FigureUnit;
  /** The currency of a money figure (and of ratios of money), else null. */
  currency: string | null;
}

export interface ChartPoint {
  /** Category or date (YYYY-MM-DD) on the x axis; the hour (0-23) on a heatmap. */
  x: string | number;
  /** The value; on a heatmap the weekday (Mon..Sun) and `value` holds the value. */
  y: number | string | null;
  value?: number | null;
}

export interface ChartSeries {
  name: string;
  currency: string | null;
  data: ChartPoint[];
}

export type ChartType = 'line' | 'bar' | 'pie' | 'heatmap';

export interface Chart {
  type: ChartType;
  title: string;
  series: ChartSeries[];
}

export type ReportRow = Record<string, unknown>;

/** A field of the rows: a catalogued figure (its label and unit) or a dimension (unit null). */
export interface ReportColumn {
  key: string;
  label: string;
  unit: FigureUnit | null;
}

export interface ReportPayload {
  summary: SummaryFigure[];
  rows: ReportRow[];
  /** The rows' fields, labelled from the metric catalogue. */
  columns: ReportColumn[];
  charts: Chart[];
}

/** Which rows a report answered (the pagination meta of list answers, contract 2.2, for `data.rows`). */
export interface ReportRowsMeta {
  current_page: number;
  last_page: number;
  per_page: number;
  /** Rows over the whole filtered period (summary and charts are always over all of them). */
  total: number;
}

export interface ReportMeta {
  filters: {
    date_from: string;
    date_to: string;
    store_id: number | null;
    warehouse_id: number | null;
    /** The calendar the dates are read in: the store's time zone when one store is in scope, else UTC. */
    time_zone: string;
  };
  generated_at: string;
  /** Figures include every sale, void, return and stock movement committed before this moment (the report journal's oldest pending row, else generated_at). */
  as_of: string;
  /** Reports of current stock or receivables state say what moment they describe. */
  note?: string;
  /** The page of `data.rows` answered (the runner sets it on every report). */
  rows?: ReportRowsMeta;
}

export interface ReportResult {
  data: ReportPayload;
  meta: ReportMeta;
}
