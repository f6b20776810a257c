import { ActivityReportsService } from '../application/activity-reports.service';
import { defineReport } from './definition';

// Not yet a definition: delegates to its report service (to port: declare summary and columns, build from them).
export default defineReport({
  route: 'discounts',
  operation: 'getDiscountsReport',
  title: 'Discounts',
  description: 'Discounts by kind (pricing rules, bundles, manual line, cart) per day; discount rate and share of discounted sales.',
  permission: 'reports.sales',
  summary: [],
  columns: [],
  build: (ctx) => ctx.use(ActivityReportsService).discounts(ctx.principal, ctx.filters),
});
