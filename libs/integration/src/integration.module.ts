import { Module } from '@nestjs/common';
import { CatalogModule } from '@pos/catalog';
import { PricingModule } from '@pos/pricing';
import { ReturnsModule } from '@pos/returns';
import { SalesModule } from '@pos/sales';
import { CloseoutReportService } from './application/closeout-report.service';
import { InventoryReportsService } from './application/inventory-reports.service';
import { InvoiceReportsService } from './application/invoice-reports.service';
import { NameDirectory } from './application/name.directory';
import { ReportKit } from './application/report-kit';
import { ReportScopeResolver } from './application/report-scope';
import { RollupApplier } from './application/rollup-applier';
import { RollupKeeper } from './application/rollup-keeper';
import { RollupRebuildService } from './application/rollup-rebuild.service';
import { RollupJournalStore, RollupReader, RollupStore } from './application/rollup.ports';
import { SalesReportsService } from './application/sales-reports.service';
import { SessionDrawerReader } from './application/session-drawer.reader';
import { StoreFactsCache } from './application/store-facts';
import { SqlNameDirectory } from './infrastructure/sql-name.directory';
import { SqlSessionDrawerReader } from './infrastructure/sql-session-drawer.reader';
import { SqlRollupJournal } from './infrastructure/sql-rollup-journal';
import { SqlRollupStore } from './infrastructure/sql-rollup.store';

/**
 * Integration reports: rollups kept from the sales, returns and catalog domain facts (journalled
 * in their transactions, applied a moment later), their rebuild, and the 32 report use cases of
 * contract 4.10.
 */
@Module({
  imports: [CatalogModule, PricingModule, ReturnsModule, SalesModule],
  providers: [
    SqlRollupStore,
    { provide: RollupStore, useExisting: SqlRollupStore },
    { provide: RollupReader, useExisting: SqlRollupStore },
    { provide: RollupJournalStore, useClass: SqlRollupJournal },
    { provide: NameDirectory, useClass: SqlNameDirectory },
    { provide: SessionDrawerReader, useClass: SqlSessionDrawerReader },
    StoreFactsCache,
    RollupKeeper,
    RollupApplier,
    RollupRebuildService,
    ReportScopeResolver,
    ReportKit,
    SalesReportsService,
    CloseoutReportService,
    InvoiceReportsService,
    InventoryReportsService,
  ],
  exports: [RollupRebuildService, RollupApplier, SalesReportsService, CloseoutReportService, InvoiceReportsService, InventoryReportsService],
})
export class IntegrationModule {}
