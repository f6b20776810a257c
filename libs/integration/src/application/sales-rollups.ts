import { Injectable } from '@nestjs/common';
import { Chart } from '../domain/report-payload';
import { MeasureOf, SALES } from '../domain/rollup-tables';
import { chart, dailyPoints, groupRows, ReportKit, perCurrency } from './report-kit';
import { ReportScope } from './report-scope';
import { SumRow } from './rollup.ports';

type SalesMeasure = MeasureOf<typeof SALES>;
type SalesKey = 'store_id' | 'warehouse_id';

/**
 * What the compute reports over the sales rollup share: its sums in scope per currency (grouped
 * further by store or warehouse), its daily sums, and daily line charts one series per currency.
 * Measure names are checked against rpt_sales (rollup-tables.ts) when compiling.
 */
@Injectable()
export class SalesRollups {
  constructor(readonly kit: ReportKit) {}

  /** Per currency: the sums of rpt_sales in scope, grouped further by `by` (e.g. store_id). */
  sales<const M extends SalesMeasure, const G extends SalesKey = never>(
    scope: ReportScope,
    by: readonly G[],
    measures: readonly M[],
  ): Promise<SumRow<M, G | 'currency_code'>[]> {
    return this.kit.sum(scope, { table: SALES, groupBy: [...by, 'currency_code'], measures });
  }

  dailySales<const M extends SalesMeasure>(scope: ReportScope, measures: readonly M[]): Promise<SumRow<M, 'day' | 'currency_code'>[]> {
    return this.kit.sum(scope, { table: SALES, daily: true, groupBy: ['day', 'currency_code'], measures });
  }

  /** Daily line charts, one series per currency. */
  dailyChart<R extends { day: number; currency_code: string }>(
    scope: ReportScope,
    title: string,
    rows: R[],
    value: (r: R, currency: string) => number | null,
  ): Chart {
    const byCur = groupRows(rows, 'currency_code');
    return chart(
      'line',
      title,
      perCurrency(scope, (c) => dailyPoints(scope, byCur.get(c) ?? [], (r) => value(r, c))),
    );
  }
}
