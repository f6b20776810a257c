import { InvoiceReportsService } from '../../application/invoice-reports.service';
import { defineReport } from '../definition';

// Not yet a definition: delegates to its report service (to port: declare summary and columns, build from them).
export default defineReport({
  route: 'invoices/funnel',
  operation: 'getInvoiceFunnelReport',
  title: 'Invoices: funnel',
  description:
    'On-account invoices issued in the period: voided, received a payment after the sale, paid in full (a credit note cancelling the invoice whole is not a payment), unpaid, partially paid, past due (state now).',
  permission: 'reports.sales',
  summary: [],
  columns: [],
  build: (ctx) => ctx.use(InvoiceReportsService).funnel(ctx.principal, ctx.filters),
});
