import { CASHIERS } from '../domain/rollup-tables';
import { defineReport } from './definition';
import { CASHIER_FIGURES } from './figures/sales.figures';
import { BY_CASHIER } from './grain';
import { rollupReport } from './rollup-report';

/** A cashier's row, here and (by day) in cashier/:cashier. */
export const CASHIER_COLUMNS = [
  'cashier_id',
  'cashier_name',
  'currency',
  'sales_count',
  'items_sold',
  'net_sales',
  'total',
  'average_sale',
  'discounts',
  'manual_discounts',
  'voids',
  'voided_total',
  'returns_processed',
  'refunds',
] as const;

export default defineReport({
  route: 'cashier',
  operation: 'getCashiersReport',
  title: 'Cashiers',
  description: 'Per cashier: sales, units, net, total, average sale, discounts, voids, returns processed, refunds.',
  permission: 'reports.sales',
  ...rollupReport({
    table: CASHIERS,
    figures: CASHIER_FIGURES,
    summary: ['cashiers', 'sales_count', 'total', 'average_sale', 'voids'],
    rows: {
      grain: BY_CASHIER,
      columns: CASHIER_COLUMNS,
      rankBy: 'total',
    },
    charts: [{ type: 'bar', title: 'Total by cashier (incl. tax)', metric: 'total', grain: BY_CASHIER, x: ['cashier_name', 'cashier_id'] }],
  }),
});
