import { StockFlowReportsService } from '../../application/stock-flow-reports.service';
import { defineReport } from '../definition';

// Not yet a definition: delegates to its report service (to port: declare summary and columns, build from them).
export default defineReport({
  route: 'inventory/turns',
  operation: 'getInventoryTurnsReport',
  title: 'Inventory: turns',
  description:
    'Turns = COGS of the period / average inventory value ((opening + closing) / 2 at current cost), per item; days of inventory = days x average value / COGS. A return reverses its cost in the warehouse its line was sold from.',
  permission: 'inventory.reports',
  summary: [],
  columns: [],
  build: (ctx) => ctx.use(StockFlowReportsService).turns(ctx.principal, ctx.filters),
});
