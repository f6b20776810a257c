/**
 * The integration context's published interface: the report use cases of contract 4.10 (over
 * rollups kept current from the sales, returns and catalog domain facts), the journal applier and the rollup rebuild, and
 * the port the returns context binds so the rebuild can replay processed returns.
 */
export { IntegrationModule } from './integration.module';
export { METRICS, metric } from './domain/metrics';
export { weekdayOf, ZoneCalendar } from './domain/calendar';
export type { MetricKey } from './domain/metrics';
export { REPORTS } from './reports/registry';
export { ReportRunner } from './reports/report-runner';
export { REPORT_ROWS } from './reports/definition';
export type { ReportDefinition, ColumnKey, RowsPage } from './reports/definition';
export { DIMENSIONS } from './domain/report-figures';
export { RollupRebuildService } from './application/rollup-rebuild.service';
export { RollupApplier } from './application/rollup-applier';
export type { RebuildReport } from './application/rollup-rebuild.service';
export type { ReportFilters } from './application/report-scope';
export type {
  ReportResult,
  ReportPayload,
  ReportMeta,
  ReportRowsMeta,
  SummaryFigure,
  ReportColumn,
  Chart,
  ChartSeries,
  ChartPoint,
} from './domain/report-payload';
export { ROLLUP_TABLES, LAST_SALE_TABLE, CREDIT_NOTES_TABLE } from './domain/rollup-tables';
