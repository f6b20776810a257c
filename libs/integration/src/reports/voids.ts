import { CashierReportsService } from '../application/cashier-reports.service';
import { defineReport } from './definition';

// Not yet a definition: delegates to its report service (to port: declare summary and columns, build from them).
export default defineReport({
  route: 'voids',
  operation: 'getVoidsReport',
  title: 'Voids',
  description: 'Voided sales (on the sale’s day) per cashier: count, total, void rate = voids / (voids + sales kept).',
  permission: 'reports.sales',
  summary: [],
  columns: [],
  build: (ctx) => ctx.use(CashierReportsService).voids(ctx.principal, ctx.filters),
});
