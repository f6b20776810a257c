import { returnRateReport } from '../application/returns-report';
import { defineReport } from './definition';

// The returned items (rpt_returns) then their sales (item rollups), and daily sales: a compute report.
export default defineReport({
  route: 'return-rate',
  operation: 'getReturnRateReport',
  title: 'Return rate',
  description: 'Units returned / units sold and refunds / sales total, overall, per day and per returned item.',
  permission: 'reports.sales',
  summary: ['unit_return_rate', 'value_return_rate', 'returns_per_100_sales', 'units_returned', 'refund_total'],
  columns: ['item_id', 'sku', 'name', 'currency', 'units_sold', 'units_returned', 'unit_return_rate', 'refunds', 'value_return_rate'],
  build: returnRateReport,
});
