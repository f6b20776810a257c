import { WEEKDAYS } from '../domain/calendar';
import { figure, row } from '../domain/report-figures';
import type { ChartSeries, ReportRow, SummaryFigure } from '../domain/report-payload';
import { HOURS } from '../domain/rollup-tables';
import { chart, n } from '../application/report-kit';
import { defineReport } from './definition';

export default defineReport({
  route: 'heatmap',
  operation: 'getHeatmapReport',
  title: 'Heatmap',
  description: 'Sales by weekday x hour of the day in the store’s local time (7 x 24 cells per currency).',
  permission: 'reports.sales',
  summary: ['sales_count', 'busiest_weekday', 'busiest_hour', 'busiest_sales'],
  columns: ['weekday', 'weekday_index', 'hour', 'currency', 'sales_count', 'net_sales', 'total'],
  // A compute report: every cell of the grid is a row (sold in or not), and the busiest cell is
  // chosen among the cells the rollup holds.
  build: async ({ scope, money, kit }) => {
    const cells = await kit.sum(scope, { table: HOURS, groupBy: ['weekday', 'hour', 'currency_code'], measures: ['sales_count', 'net', 'total'] });
    const rows: ReportRow[] = [];
    const summary: SummaryFigure[] = [];
    const series: ChartSeries[] = [];
    for (const c of scope.currencies) {
      const mine = cells.filter((r) => r.currency_code === c);
      const at = new Map(mine.map((r) => [`${r.weekday}:${r.hour}`, r]));
      const data = [];
      for (let w = 0; w < 7; w++)
        for (let h = 0; h < 24; h++) {
          const r = at.get(`${w}:${h}`);
          const sales = n(r, 'sales_count');
          rows.push(
            row({
              weekday: WEEKDAYS[w],
              weekday_index: w,
              hour: h,
              currency: c,
              sales_count: sales,
              net_sales: money.v(n(r, 'net'), c),
              total: money.v(n(r, 'total'), c),
            }),
          );
          data.push({ x: h, y: WEEKDAYS[w], value: sales });
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
    return { summary, rows, charts: [chart('heatmap', 'Sales by weekday and hour (store local time)', series)] };
  },
});
