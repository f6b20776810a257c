import { ActivityReportsService } from '../application/activity-reports.service';
import { defineReport } from './definition';

// Not yet a definition: delegates to its report service (to port: declare summary and columns, build from them).
export default defineReport({
  route: 'heatmap',
  operation: 'getHeatmapReport',
  title: 'Heatmap',
  description: 'Sales by weekday x hour of the day in the store’s local time (7 x 24 cells per currency).',
  permission: 'reports.sales',
  summary: [],
  columns: [],
  build: (ctx) => ctx.use(ActivityReportsService).heatmap(ctx.principal, ctx.filters),
});
