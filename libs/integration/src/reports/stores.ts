import { SALES } from '../domain/rollup-tables';
import { defineReport } from './definition';
import { SALES_FIGURES } from './figures/sales.figures';
import { BY_STORE } from './grain';
import { rollupReport } from './rollup-report';

export default defineReport({
  route: 'stores',
  operation: 'getStoresReport',
  title: 'Stores',
  description: 'Per store: sales, units, net sales, tax, total, refunds, net revenue, gross profit, margin, average sale, voids, returns.',
  permission: 'reports.stores',
  ...rollupReport({
    table: SALES,
    figures: SALES_FIGURES,
    summary: ['stores', 'net_revenue', 'gross_profit', 'sales_count', 'total'],
    rows: {
      grain: BY_STORE,
      columns: [
        'store_id',
        'store_name',
        'store_code',
        'currency',
        'sales_count',
        'items_sold',
        'net_sales',
        'tax',
        'total',
        'refunds',
        'net_revenue',
        'gross_profit',
        'margin_percent',
        'average_sale',
        'voids',
        'returns',
      ],
    },
    charts: [{ type: 'bar', title: 'Net revenue by store', metric: 'net_revenue', grain: BY_STORE, x: 'store_name' }],
  }),
});
