import { InvoiceReportsService } from '../../application/invoice-reports.service';
import { defineReport } from '../definition';

// Not yet a definition: delegates to its report service (to port: declare summary and columns, build from them).
export default defineReport({
  route: 'invoices/aging',
  operation: 'getInvoiceAgingReport',
  title: 'Invoices: aging',
  description: 'Open balances now by days since issue (0-30, 31-60, 61-90, 91-120, 120+) per customer; invoices issued up to date_to.',
  permission: 'reports.sales',
  summary: [],
  columns: [],
  build: (ctx) => ctx.use(InvoiceReportsService).aging(ctx.principal, ctx.filters),
});
