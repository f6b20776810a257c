import { ReturnsReportsService } from '../application/returns-reports.service';
import { defineReport } from './definition';

// Not yet a definition: delegates to its report service (to port: declare summary and columns, build from them).
export default defineReport({
  route: 'returns',
  operation: 'getReturnsReport',
  title: 'Returns',
  description: 'Processed returns by reason and condition (on the day processed): units, restocked units, refunds (net, tax, total), cost returned.',
  permission: 'reports.sales',
  summary: [],
  columns: [],
  build: (ctx) => ctx.use(ReturnsReportsService).returns(ctx.principal, ctx.filters),
});
