import { TaxReportService } from '../application/tax-report.service';
import { defineReport } from './definition';

// Not yet a definition: delegates to its report service (to port: declare summary and columns, build from them).
export default defineReport({
  route: 'tax',
  operation: 'getTaxReport',
  title: 'Tax',
  description:
    'Per store and rate: taxable sales, tax collected, effective rate, refunded, net tax; the lines of tax-exempt sales in a row of their own (rate `exempt`), not in taxable sales.',
  permission: 'reports.tax',
  summary: [],
  columns: [],
  build: (ctx) => ctx.use(TaxReportService).tax(ctx.principal, ctx.filters),
});
