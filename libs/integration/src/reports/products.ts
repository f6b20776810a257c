import { productsReport } from '../application/product-reports';
import { defineReport } from './definition';

// The item rollup (per currency or per store by scope) with item labels: a compute report.
export default defineReport({
  route: 'products',
  operation: 'getProductsReport',
  title: 'Products',
  description: 'Per item: units sold and returned, gross, discounts, net sales, refunds, revenue, tax, COGS, gross profit, margin; by revenue.',
  permission: 'reports.inventory',
  summary: ['distinct_items_sold', 'units_sold', 'units_returned', 'revenue', 'gross_profit'],
  columns: [
    'item_id',
    'sku',
    'name',
    'category',
    'currency',
    'units_sold',
    'units_returned',
    'net_units',
    'lines',
    'gross_sales',
    'discounts',
    'net_sales',
    'refund_net',
    'revenue',
    'tax',
    'cogs',
    'gross_profit',
    'margin_percent',
  ],
  build: productsReport,
});
