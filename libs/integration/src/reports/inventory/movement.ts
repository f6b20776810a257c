import { StockFlowReportsService } from '../../application/stock-flow-reports.service';
import { defineReport } from '../definition';

// Not yet a definition: delegates to its report service (to port: declare summary and columns, build from them).
export default defineReport({
  route: 'inventory/movement',
  operation: 'getInventoryMovementReport',
  title: 'Inventory: movement',
  description: 'Stock movements of the period by type (sale, void, return, receive, count, damage, spoilage, transfer_in/out): units in, out, net.',
  permission: 'inventory.reports',
  summary: [],
  columns: [],
  build: (ctx) => ctx.use(StockFlowReportsService).movement(ctx.principal, ctx.filters),
});
