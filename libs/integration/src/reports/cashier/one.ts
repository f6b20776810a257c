import { CashierReportsService } from '../../application/cashier-reports.service';
import { defineReport } from '../definition';

// Not yet a definition: delegates to its report service (to port: declare summary and columns, build from them).
export default defineReport({
  route: 'cashier/:cashier',
  operation: 'getCashierReport',
  title: 'One cashier',
  description: 'The cashier’s figures and one row per business day. The cashier is a user id.',
  permission: 'reports.sales',
  param: { name: 'cashier', notFound: 'No user with that id (or not a positive integer)' },
  summary: [],
  columns: [],
  build: (ctx) => ctx.use(CashierReportsService).cashier(ctx.principal, ctx.filters, ctx.param as number),
});
