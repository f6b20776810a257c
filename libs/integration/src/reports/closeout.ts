import { CloseoutReportService } from '../application/closeout-report.service';
import { defineReport } from './definition';

// Not yet a definition: delegates to its report service (to port: declare summary and columns, build from them).
export default defineReport({
  route: 'closeout',
  operation: 'getCloseoutReport',
  title: 'Closeout',
  description:
    'Per business day and cashier session: the day’s sales (totals by payment method, tax, discounts, refunds), and every session closed in the period (or still open and opened in it) with its drawer: opening float, cash in/out, cash sales and refunds, change, expected vs counted cash, discrepancy, on the row of the day it closed only (drawer_figures).',
  permission: 'reports.sales',
  summary: [],
  columns: [],
  build: (ctx) => ctx.use(CloseoutReportService).closeout(ctx.principal, ctx.filters),
});
