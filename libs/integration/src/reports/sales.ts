import { SALES } from '../domain/rollup-tables';
import { defineReport } from './definition';
import { SALES_FIGURES } from './figures/sales.figures';
import { BY_DAY } from './grain';
import { rollupReport } from './rollup-report';

export default defineReport({
  route: 'sales',
  operation: 'getSalesReport',
  title: 'Sales',
  description:
    'Sales per business day: count, units, gross, discounts, net (excl. tax), tax, total, refunds, voids. Voided sales are excluded and counted as voids.',
  permission: 'reports.sales',
  ...rollupReport({
    table: SALES,
    figures: SALES_FIGURES,
    summary: [
      'sales_count',
      'items_sold',
      'gross_sales',
      'discounts',
      'net_sales',
      'tax',
      'total',
      'average_sale',
      'refunds',
      'total_after_refunds',
      'voids',
      'voided_total',
    ],
    rows: {
      grain: BY_DAY,
      columns: [
        'date',
        'currency',
        'sales_count',
        'items_sold',
        'gross_sales',
        'discounts',
        'net_sales',
        'tax',
        'total',
        'refunds',
        'total_after_refunds',
        'voids',
      ],
    },
    charts: [{ type: 'line', title: 'Sales total per day (incl. tax)', metric: 'total' }],
  }),
});
