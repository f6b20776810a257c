import { abcReport } from '../../application/product-reports';
import { defineReport } from '../definition';

// A ranking with cumulative shares per currency: a compute report.
export default defineReport({
  route: 'products/abc',
  operation: 'getProductsAbcReport',
  title: 'Products: ABC',
  description: 'Items ranked by revenue per currency; class A while the cumulative share is <= 80%, B <= 95%, C the rest.',
  permission: 'reports.inventory',
  summary: ['class_{class}_items', 'class_{class}_revenue', 'class_{class}_share'],
  columns: ['rank', 'item_id', 'sku', 'name', 'currency', 'revenue', 'share_percent', 'cumulative_percent', 'class', 'units_sold'],
  build: abcReport,
});
