import { StockReportsService } from '../../application/stock-reports.service';
import { defineReport } from '../definition';

// Not yet a definition: delegates to its report service (to port: declare summary and columns, build from them).
export default defineReport({
  route: 'inventory/overview',
  operation: 'getInventoryOverviewReport',
  title: 'Inventory: overview',
  description:
    'Stock now (items in stock, units, value at current cost, out, low, dead) per warehouse, and in the period: units sold out of these warehouses (voided sales excluded), received (receive adjustments; a transfer is not a receipt) and written off.',
  permission: 'inventory.reports',
  summary: [],
  columns: [],
  build: (ctx) => ctx.use(StockReportsService).overview(ctx.principal, ctx.filters),
});
