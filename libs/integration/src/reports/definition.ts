import type { Abstract, Type } from '@nestjs/common';
import type { Permission, Principal } from '@pos/identity';
import type { DimensionKey } from '../domain/report-figures';
import type { MetricKey } from '../domain/metrics';
import type { Chart, ReportResult, ReportRow, SummaryFigure } from '../domain/report-payload';
import type { Money, ReportKit } from '../application/report-kit';
import type { ReportFilters, ReportScope } from '../application/report-scope';

/** The page of a report's rows asked for (`page`, `per_page`); summary and charts ignore it. */
export interface RowsPage {
  page: number;
  perPage: number;
}

/** Rows per page of a report: 500 unless asked, at most 1,000 (a larger per_page is 422, not clamped). */
export const REPORT_ROWS = { default: 500, max: 1000 } as const;

/** The rows of a list on the asked page (the runner's slice; a report that builds only those sets `ReportParts.rowsTotal`). */
export function rowsOnPage<T>(all: readonly T[], asked: RowsPage): T[] {
  const start = (asked.page - 1) * asked.perPage;
  return all.slice(start, start + asked.perPage);
}

/** What a report's `build` is given: the request's resolved scope, money in its currencies, the shared plumbing. */
export interface ReportContext {
  principal: Principal;
  filters: ReportFilters;
  scope: ReportScope;
  /** Money in the scope's currencies (a report in another currency asks `kit.money`). */
  money: Money;
  kit: ReportKit;
  /**
   * The page of rows the caller asked for. The runner slices `rows` to it, so a report returns
   * all its rows; one whose rows are costly to build (a long list) may build only this page and
   * say how many there are in `ReportParts.rowsTotal`.
   */
  rows: RowsPage;
  /** The route parameter of a report about one thing (`cashier/:cashier`: the user id). */
  param?: number;
  /** A provider of the integration module (the readers a `compute` report needs). */
  use<T>(type: Type<T> | Abstract<T>): T;
}

/** What a report makes; the runner adds the columns and meta. */
export interface ReportParts {
  summary: SummaryFigure[];
  rows: ReportRow[];
  charts: Chart[];
  /** Said in meta.note: the moment a current-state report (stock, receivables) describes. */
  note?: string;
  /** Set when `rows` is already the page `ctx.rows` asked for: the number of rows over the whole period. */
  rowsTotal?: number;
}

/** A row field a report declares: a catalogued figure or a dimension (what the row is about). */
export type ColumnKey = Exclude<MetricKey, `${string}{${string}}${string}`> | DimensionKey;

/**
 * One report: where it is mounted, who may read it, what it shows and how it is made. Every
 * report is one file under reports/ named after its route; the registry (registry.ts) lists them,
 * and the controllers, the OpenAPI document (its row schema from `columns`) and the docs' report
 * table are generated from it.
 */
export interface ReportDefinition {
  /** Path under /reports and /integration/reports (`products/abc`, `cashier/:cashier`). */
  route: string;
  /** The OpenAPI operationId of the staff route (the partner copy is named from it). */
  operation: string;
  title: string;
  description: string;
  permission: Permission;
  /** A report about one thing: the route parameter, and what a missing one answers (404). */
  param?: { name: string; notFound: string };
  /** The summary figures it shows (per currency; template keys as declared). */
  summary: readonly MetricKey[];
  /** The fields of its rows, in order. */
  columns: readonly ColumnKey[];
  build(ctx: ReportContext): Promise<ReportParts | ReportResult>;
}

/** Checks a definition's shape at compile time (and keeps its literal types). */
export function defineReport<const D extends ReportDefinition>(definition: D): D {
  return definition;
}
