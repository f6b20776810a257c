import { InvoiceReportsService } from '../application/invoice-reports.service';
import { defineReport } from './definition';

// Not yet a definition: delegates to its report service (to port: declare summary and columns, build from them).
export default defineReport({
  route: 'invoices',
  operation: 'getInvoicesReport',
  title: 'Invoices',
  description: 'Invoices issued per day: amount, paid at the till, on account, void; the period’s invoices by status now (open, past due).',
  permission: 'reports.sales',
  summary: [],
  columns: [],
  build: (ctx) => ctx.use(InvoiceReportsService).invoices(ctx.principal, ctx.filters),
});
