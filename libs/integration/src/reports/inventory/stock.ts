import { StockReportsService } from '../../application/stock-reports.service';
import { defineReport } from '../definition';

// Not yet a definition: delegates to its report service (to port: declare summary and columns, build from them).
export default defineReport({
  route: 'inventory/stock',
  operation: 'getInventoryStockReport',
  title: 'Inventory: stock',
  description: 'Every item x warehouse level now: on hand, reorder level, status (out <= 0, low <= reorder level, in_stock), unit cost, value.',
  permission: 'inventory.reports',
  summary: [],
  columns: [],
  build: (ctx) => ctx.use(StockReportsService).stockLevels(ctx.principal, ctx.filters),
});
