import { CashierReportsService } from '../application/cashier-reports.service';
import { defineReport } from './definition';

// Not yet a definition: delegates to its report service (to port: declare summary and columns, build from them).
export default defineReport({
  route: 'cashier',
  operation: 'getCashiersReport',
  title: 'Cashiers',
  description: 'Per cashier: sales, units, net, total, average sale, discounts, voids, returns processed, refunds.',
  permission: 'reports.sales',
  summary: [],
  columns: [],
  build: (ctx) => ctx.use(CashierReportsService).cashiers(ctx.principal, ctx.filters),
});
