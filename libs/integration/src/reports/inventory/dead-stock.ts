import { StockReportsService } from '../../application/stock-reports.service';
import { defineReport } from '../definition';

// Not yet a definition: delegates to its report service (to port: declare summary and columns, build from them).
export default defineReport({
  route: 'inventory/dead-stock',
  operation: 'getDeadStockReport',
  title: 'Inventory: dead stock',
  description: 'Item x warehouse with stock on hand and no sale in the last 90 days (or never).',
  permission: 'inventory.reports',
  summary: [],
  columns: [],
  build: (ctx) => ctx.use(StockReportsService).deadStock(ctx.principal, ctx.filters),
});
