/**
 * The integration context's published interface: the report use cases of contract 4.10 (over
 * rollups kept current from the sales, returns and catalog domain facts), the journal applier and the rollup rebuild, and
 * the port the returns context binds so the rebuild can replay processed returns.
 */
export { IntegrationModule } from './integration.module';
export { SalesReportsService } from './application/sales-reports.service';
export { CloseoutReportService } from './application/closeout-report.service';
export { InvoiceReportsService } from './application/invoice-reports.service';
export { InventoryReportsService } from './application/inventory-reports.service';
export { RollupRebuildService } from './application/rollup-rebuild.service';
export { RollupApplier } from './application/rollup-applier';
export type { RebuildReport } from './application/rollup-rebuild.service';
export type { ReportFilters } from './application/report-scope';
export type { ReportResult, ReportPayload, ReportMeta, SummaryFigure, Chart, ChartSeries, ChartPoint } from './domain/report-payload';
export { ROLLUP_TABLES, LAST_SALE_TABLE, CREDIT_NOTES_TABLE } from './domain/rollup-tables';
