import { ReturnsReportsService } from '../application/returns-reports.service';
import { defineReport } from './definition';

// Not yet a definition: delegates to its report service (to port: declare summary and columns, build from them).
export default defineReport({
  route: 'return-rate',
  operation: 'getReturnRateReport',
  title: 'Return rate',
  description: 'Units returned / units sold and refunds / sales total, overall, per day and per returned item.',
  permission: 'reports.sales',
  summary: [],
  columns: [],
  build: (ctx) => ctx.use(ReturnsReportsService).returnRate(ctx.principal, ctx.filters),
});
