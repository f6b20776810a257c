import { Injectable } from '@nestjs/common';
import { Principal } from '@pos/identity';
import { percent, average } from '../domain/report-math';
import { Chart } from '../domain/report-payload';
import { SALES } from '../domain/rollup-tables';
import { chart, dailyPoints, groupRows, Money, n, ReportKit, Row } from './report-kit';
import { ReportFilters, ReportScope, ReportScopeResolver } from './report-scope';

/** What `derive` reads (a report sums no more columns than it shows). */
export const DERIVED = [
  'sales_count',
  'units',
  'gross',
  'discount_rule',
  'discount_bundle',
  'discount_manual',
  'discount_cart',
  'net',
  'tax',
  'total',
  'cost',
  'refund_net',
  'refund_tax',
  'refund_total',
  'refund_cost',
  'void_count',
  'void_total',
  'return_count',
];

/** The catalogue's sales figures (metrics.ts) from sales rollup sums, in minor units. */
export function derive(r: Row) {
  const revenue = n(r, 'net') - n(r, 'refund_net');
  const cogs = n(r, 'cost') - n(r, 'refund_cost');
  return {
    salesCount: n(r, 'sales_count'),
    gross: n(r, 'gross'),
    discounts: n(r, 'discount_rule') + n(r, 'discount_bundle') + n(r, 'discount_manual') + n(r, 'discount_cart'),
    netSales: n(r, 'net'),
    tax: n(r, 'tax'),
    total: n(r, 'total'),
    refundNet: n(r, 'refund_net'),
    refundTax: n(r, 'refund_tax'),
    refundTotal: n(r, 'refund_total'),
    revenue,
    cogs,
    profit: revenue - cogs,
    margin: percent(revenue - cogs, revenue),
    average: average(n(r, 'total'), n(r, 'sales_count')),
    units: n(r, 'units'),
    voids: n(r, 'void_count'),
    voidTotal: n(r, 'void_total'),
    returns: n(r, 'return_count'),
  };
}

export type Derived = ReturnType<typeof derive>;

/**
 * What the sales-side report families share: the scope and money of a request, the sales
 * rollup of a scope per currency, daily line charts. Each family (revenue-reports,
 * tax-report, ...) reads the rollups of its scope (a handful of block rows, never the sales) and
 * reports per currency.
 */
@Injectable()
export class SalesRollups {
  constructor(
    private readonly scopes: ReportScopeResolver,
    readonly kit: ReportKit,
  ) {}

  async open(p: Principal, f: ReportFilters): Promise<{ scope: ReportScope; money: Money }> {
    const scope = await this.scopes.resolve(p, f);
    return { scope, money: await this.kit.money(scope.currencies) };
  }

  /** Per currency: the sums of rpt_sales in scope, grouped further by `by` (e.g. store_id). */
  sales(scope: ReportScope, by: string[] = [], measures = DERIVED): Promise<Row[]> {
    return this.kit.sum(scope, { table: SALES, groupBy: [...by, 'currency_code'], measures });
  }

  dailySales(scope: ReportScope, measures: string[]): Promise<Row[]> {
    return this.kit.sum(scope, { table: SALES, daily: true, groupBy: ['day', 'currency_code'], measures });
  }

  /** Daily line charts, one series per currency. */
  dailyChart(scope: ReportScope, title: string, rows: Row[], value: (r: Row, currency: string) => number | null): Chart {
    const byCur = groupRows(rows, 'currency_code');
    return chart(
      'line',
      title,
      scope.currencies.map((c) => ({ name: c, currency: c, data: dailyPoints(scope, byCur.get(c) ?? [], (r) => value(r, c)) })),
    );
  }
}
