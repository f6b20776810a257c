import { InvoiceReportsService } from '../../application/invoice-reports.service';
import { defineReport } from '../definition';

// Not yet a definition: delegates to its report service (to port: declare summary and columns, build from them).
export default defineReport({
  route: 'invoices/credit-notes',
  operation: 'getCreditNotesReport',
  title: 'Invoices: credit notes',
  description: 'Credit notes issued by processed returns in the period: number, sale, return, customer, amount.',
  permission: 'reports.sales',
  summary: [],
  columns: [],
  build: (ctx) => ctx.use(InvoiceReportsService).creditNotes(ctx.principal, ctx.filters),
});
