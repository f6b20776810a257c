import { StockFlowReportsService } from '../../application/stock-flow-reports.service';
import { defineReport } from '../definition';

// Not yet a definition: delegates to its report service (to port: declare summary and columns, build from them).
export default defineReport({
  route: 'inventory/damage-spoilage',
  operation: 'getDamageSpoilageReport',
  title: 'Inventory: damage and spoilage',
  description: 'Units written off as damaged or spoiled in the period per item, valued at current cost.',
  permission: 'inventory.reports',
  summary: [],
  columns: [],
  build: (ctx) => ctx.use(StockFlowReportsService).damageSpoilage(ctx.principal, ctx.filters),
});
