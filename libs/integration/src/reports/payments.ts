import { PaymentReportService } from '../application/payment-report.service';
import { defineReport } from './definition';

// Not yet a definition: delegates to its report service (to port: declare summary and columns, build from them).
export default defineReport({
  route: 'payments',
  operation: 'getPaymentsReport',
  title: 'Payments',
  description: 'Per payment method: payments, money taken (after change), change given, refunds, net, share; voided sales’ payments are reversed.',
  permission: 'reports.payments',
  summary: [],
  columns: [],
  build: (ctx) => ctx.use(PaymentReportService).payments(ctx.principal, ctx.filters),
});
