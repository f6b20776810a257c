import { StockFlowReportsService } from '../../application/stock-flow-reports.service';
import { defineReport } from '../definition';

// Not yet a definition: delegates to its report service (to port: declare summary and columns, build from them).
export default defineReport({
  route: 'inventory/replenishment',
  operation: 'getInventoryReplenishmentReport',
  title: 'Inventory: replenishment',
  description: 'Levels at or below the reorder level: suggested order = max(reorder quantity, reorder level - on hand); sales rate over the period.',
  permission: 'inventory.reports',
  summary: [],
  columns: [],
  build: (ctx) => ctx.use(StockFlowReportsService).replenishment(ctx.principal, ctx.filters),
});
