import { CustomerReportService } from '../application/customer-report.service';
import { defineReport } from './definition';

// Not yet a definition: delegates to its report service (to port: declare summary and columns, build from them).
export default defineReport({
  route: 'customers',
  operation: 'getCustomersReport',
  title: 'Customers',
  description:
    'Sales to named customers: customers served, share of sales, net sales (before tax) and per customer, on account, refunds; rows: the top 100 customers by total per currency.',
  permission: 'reports.customers',
  summary: [],
  columns: [],
  build: (ctx) => ctx.use(CustomerReportService).customers(ctx.principal, ctx.filters),
});
