import { StockReportsService } from '../../application/stock-reports.service';
import { defineReport } from '../definition';

// Not yet a definition: delegates to its report service (to port: declare summary and columns, build from them).
export default defineReport({
  route: 'inventory/valuation',
  operation: 'getInventoryValuationReport',
  title: 'Inventory: valuation',
  description: 'Stock value now at each item’s current cost (base currency), per item; by category and warehouse.',
  permission: 'inventory.reports',
  summary: [],
  columns: [],
  build: (ctx) => ctx.use(StockReportsService).valuation(ctx.principal, ctx.filters),
});
