import { SALES } from '../domain/rollup-tables';
import { defineReport } from './definition';
import { SALES_FIGURES } from './figures/sales.figures';
import { BY_DAY, BY_STORE_SOLD } from './grain';
import { rollupReport } from './rollup-report';

export default defineReport({
  route: 'revenue',
  operation: 'getRevenueReport',
  title: 'Revenue',
  description: 'Per day: gross sales, discounts, net sales, refunds before tax, net revenue (before tax), net tax; net revenue by store.',
  permission: 'reports.sales',
  ...rollupReport({
    table: SALES,
    figures: SALES_FIGURES,
    summary: ['gross_sales', 'discounts', 'net_sales', 'refund_net', 'net_revenue', 'average_daily_revenue', 'net_tax'],
    rows: { grain: BY_DAY, columns: ['date', 'currency', 'gross_sales', 'discounts', 'net_sales', 'refund_net', 'net_revenue', 'net_tax'] },
    charts: [
      { type: 'line', title: 'Net revenue per day', metric: 'net_revenue' },
      { type: 'bar', title: 'Net revenue by store', metric: 'net_revenue', grain: BY_STORE_SOLD, x: 'store_name' },
    ],
  }),
});
