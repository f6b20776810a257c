import { SALES } from '../domain/rollup-tables';
import { defineReport } from './definition';
import { SALES_FIGURES } from './figures/sales.figures';
import { BY_STORE } from './grain';
import { rollupReport } from './rollup-report';

export default defineReport({
  route: 'overview',
  operation: 'getOverviewReport',
  title: 'Overview',
  description:
    'Headline figures per currency (net sales, refunds before tax, net revenue, COGS, gross profit, margin, net tax, total, sales, average sale, units, voids, returns); rows per store. Each figure: docs/partner.md, "Report figures".',
  permission: 'reports.view',
  ...rollupReport({
    table: SALES,
    figures: SALES_FIGURES,
    summary: [
      'net_sales',
      'refund_net',
      'net_revenue',
      'cogs',
      'gross_profit',
      'margin_percent',
      'net_tax',
      'total',
      'sales_count',
      'average_sale',
      'items_sold',
      'voids',
      'returns',
    ],
    rows: {
      grain: BY_STORE,
      columns: [
        'store_id',
        'store_name',
        'currency',
        'sales_count',
        'net_sales',
        'refund_net',
        'net_revenue',
        'gross_profit',
        'margin_percent',
        'average_sale',
      ],
    },
    charts: [
      { type: 'line', title: 'Net revenue per day', metric: 'net_revenue' },
      { type: 'bar', title: 'Net revenue by store', metric: 'net_revenue', grain: BY_STORE, x: 'store_name' },
    ],
  }),
});
