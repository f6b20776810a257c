import { Abstract, Injectable, Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Principal } from '@pos/identity';
import { Page } from '@pos/kernel';
import { reportResult, ReportKit } from '../application/report-kit';
import { ReportFilters, ReportScopeResolver } from '../application/report-scope';
import { columnsOf } from '../domain/report-figures';
import type { ReportResult } from '../domain/report-payload';
import { REPORT_ROWS, ReportContext, ReportDefinition, rowsOnPage, RowsPage } from './definition';

/**
 * Runs a report definition for a caller: resolves and checks the scope once (403/422 as
 * report-scope.ts says), gives the definition its context, and wraps what it makes with the
 * columns (labelled from the metric catalogue) and meta; then answers the page of rows asked for.
 */
@Injectable()
export class ReportRunner {
  constructor(
    private readonly scopes: ReportScopeResolver,
    private readonly kit: ReportKit,
    private readonly modules: ModuleRef,
  ) {}

  async run(
    definition: ReportDefinition,
    principal: Principal,
    filters: ReportFilters,
    param?: number,
    rows: RowsPage = { page: 1, perPage: REPORT_ROWS.default },
  ): Promise<ReportResult> {
    const scope = await this.scopes.resolve(principal, filters);
    const ctx: ReportContext = {
      principal,
      filters,
      scope,
      money: await this.kit.money(scope.currencies),
      kit: this.kit,
      rows,
      param,
      use: <T>(type: Type<T> | Abstract<T>) => this.modules.get(type, { strict: false }),
    };
    const made = await definition.build(ctx);
    if ('data' in made) return pageOfRows(made, rows);
    const result = reportResult(scope, made.summary, made.rows, made.charts, made.note);
    if (made.rowsTotal === undefined) return pageOfRows(result, rows);
    // The report built only the asked page: its columns are the declared ones even past the last page.
    if (made.rows.length === 0 && made.rowsTotal > 0) result.data.columns = columnsOf([Object.fromEntries(definition.columns.map((k) => [k, null]))]);
    return { ...result, meta: { ...result.meta, rows: rowsMeta(new Page(made.rows, made.rowsTotal, rows.page, rows.perPage)) } };
  }
}

const rowsMeta = (page: Page<unknown>) => ({ current_page: page.page, last_page: page.lastPage, per_page: page.perPage, total: page.total });

/**
 * The report with only the asked page of its rows, in the report's order (a ranking is ranked
 * before it is paged), and `meta.rows` saying which page it is and how many rows there are.
 * Summary, charts and columns stay those of every row of the period.
 */
export function pageOfRows(result: ReportResult, asked: RowsPage): ReportResult {
  const all = result.data.rows;
  const rows = all.length <= asked.perPage && asked.page === 1 ? all : rowsOnPage(all, asked);
  return { data: { ...result.data, rows }, meta: { ...result.meta, rows: rowsMeta(new Page(rows, all.length, asked.page, asked.perPage)) } };
}
