import { InvoiceReportsService } from '../../application/invoice-reports.service';
import { defineReport } from '../definition';

// Not yet a definition: delegates to its report service (to port: declare summary and columns, build from them).
export default defineReport({
  route: 'invoices/dso',
  operation: 'getInvoiceDsoReport',
  title: 'Invoices: DSO',
  description: 'Days sales outstanding = open receivables / credit (on-account) sales of the period x days in the period, per store and currency.',
  permission: 'reports.sales',
  summary: [],
  columns: [],
  build: (ctx) => ctx.use(InvoiceReportsService).dso(ctx.principal, ctx.filters),
});
