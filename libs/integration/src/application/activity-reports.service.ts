import { Injectable } from '@nestjs/common';
import { Principal } from '@pos/identity';
import { formatDay, WEEKDAYS } from '../domain/calendar';
import { figure, row } from '../domain/report-figures';
import { percent } from '../domain/report-math';
import { ReportResult, ReportRow, SummaryFigure } from '../domain/report-payload';
import { HOURS } from '../domain/rollup-tables';
import { chart, groupRows, n, reportResult, Row, total } from './report-kit';
import { ReportFilters } from './report-scope';
import { SalesRollups } from './sales-rollups';

const KINDS = [
  ['discount_rule', 'discounts_rule', 'Pricing rules'],
  ['discount_bundle', 'discounts_bundle', 'Bundles'],
  ['discount_manual', 'discounts_manual', 'Manual line discounts'],
  ['discount_cart', 'discounts_cart', 'Cart discounts'],
] as const;

/** How sales happened (contract 4.10): discounts by kind, and the weekday x hour heatmap. Figures: metrics.ts. */
@Injectable()
export class ActivityReportsService {
  constructor(private readonly base: SalesRollups) {}

  async discounts(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.base.open(p, f);
    const measures = ['sales_count', 'gross', 'discount_rule', 'discount_bundle', 'discount_manual', 'discount_cart', 'discounted_count'];
    const daily = await this.base.dailySales(scope, measures);
    const byCur = groupRows(daily, 'currency_code');
    const all = (r: Row) => KINDS.reduce((a, [m]) => a + n(r, m), 0);
    const summary = scope.currencies.flatMap((c) => {
      const t = total(byCur.get(c) ?? [], measures);
      return [
        figure('discounts', money.v(all(t), c), c),
        ...KINDS.map(([m, key]) => figure(key, money.v(n(t, m), c), c)),
        figure('discount_rate', percent(all(t), n(t, 'gross')), c),
        figure('discounted_sales', n(t, 'discounted_count'), c),
        figure('discounted_share', percent(n(t, 'discounted_count'), n(t, 'sales_count')), c),
      ];
    });
    const rows = daily
      .sort((a, b) => n(a, 'day') - n(b, 'day'))
      .map((r) => {
        const c = String(r.currency_code);
        return row({
          date: formatDay(n(r, 'day')),
          currency: c,
          gross_sales: money.v(n(r, 'gross'), c),
          pricing_rules: money.v(n(r, 'discount_rule'), c),
          bundles: money.v(n(r, 'discount_bundle'), c),
          manual: money.v(n(r, 'discount_manual'), c),
          cart: money.v(n(r, 'discount_cart'), c),
          discounts: money.v(all(r), c),
          discount_rate: percent(all(r), n(r, 'gross')),
          discounted_sales: n(r, 'discounted_count'),
        });
      });
    return reportResult(scope, summary, rows, [
      chart(
        'pie',
        'Discounts by kind',
        scope.currencies.map((c) => {
          const t = total(byCur.get(c) ?? [], measures);
          return { name: c, currency: c, data: KINDS.map(([m, , label]) => ({ x: label, y: money.v(n(t, m), c) })) };
        }),
      ),
      this.base.dailyChart(scope, 'Discounts per day', daily, (r, c) => money.v(all(r), c)),
    ]);
  }

  async heatmap(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.base.open(p, f);
    const cells = await this.base.kit.sum(scope, { table: HOURS, groupBy: ['weekday', 'hour', 'currency_code'], measures: ['sales_count', 'net', 'total'] });
    const rows: ReportRow[] = [];
    const summary: SummaryFigure[] = [];
    const series = [];
    for (const c of scope.currencies) {
      const mine = cells.filter((r) => r.currency_code === c);
      const at = new Map(mine.map((r) => [`${r.weekday}:${r.hour}`, r]));
      const data = [];
      for (let w = 0; w < 7; w++)
        for (let h = 0; h < 24; h++) {
          const r = at.get(`${w}:${h}`);
          rows.push(
            row({
              weekday: WEEKDAYS[w],
              weekday_index: w,
              hour: h,
              currency: c,
              sales_count: n(r, 'sales_count'),
              net_sales: money.v(n(r, 'net'), c),
              total: money.v(n(r, 'total'), c),
            }),
          );
          data.push({ x: h, y: WEEKDAYS[w], value: n(r, 'sales_count') });
        }
      const busiest = [...mine].sort(
        (a, b) => n(b, 'sales_count') - n(a, 'sales_count') || n(a, 'weekday') - n(b, 'weekday') || n(a, 'hour') - n(b, 'hour'),
      )[0];
      summary.push(
        figure(
          'sales_count',
          mine.reduce((a, r) => a + n(r, 'sales_count'), 0),
          c,
        ),
        figure('busiest_weekday', busiest ? n(busiest, 'weekday') : null, c),
        figure('busiest_hour', busiest ? n(busiest, 'hour') : null, c),
        figure('busiest_sales', busiest ? n(busiest, 'sales_count') : 0, c),
      );
      series.push({ name: c, currency: c, data });
    }
    return reportResult(scope, summary, rows, [chart('heatmap', 'Sales by weekday and hour (store local time)', series)]);
  }
}
