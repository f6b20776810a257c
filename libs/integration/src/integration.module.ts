import { Module } from '@nestjs/common';
import { CatalogModule } from '@pos/catalog';
import { PricingModule } from '@pos/pricing';
import { ReturnsModule } from '@pos/returns';
import { SalesModule } from '@pos/sales';
import { InventoryKit } from './application/inventory-kit';
import { SalesRollups } from './application/sales-rollups';
import { NameDirectory } from './application/name.directory';
import { ReportKit } from './application/report-kit';
import { ReportScopeResolver } from './application/report-scope';
import { RollupApplier } from './application/rollup-applier';
import { RollupKeeper } from './application/rollup-keeper';
import { RollupRebuildService } from './application/rollup-rebuild.service';
import { RollupJournalStore, RollupReader, RollupStore } from './application/rollup.ports';
import { SessionDrawerReader } from './application/session-drawer.reader';
import { InvoiceSettlementReader } from './application/invoice-settlement.reader';
import { StoreFactsCache } from './application/store-facts';
import { SqlNameDirectory } from './infrastructure/sql-name.directory';
import { SqlSessionDrawerReader } from './infrastructure/sql-session-drawer.reader';
import { SqlInvoiceSettlementReader } from './infrastructure/sql-invoice-settlement.reader';
import { SqlRollupJournal } from './infrastructure/sql-rollup-journal';
import { SqlRollupStore } from './infrastructure/sql-rollup.store';
import { ReportRunner } from './reports/report-runner';

/**
 * Integration reports: rollups kept from the sales, returns and catalog domain facts (journalled
 * in their transactions, applied a moment later), their rebuild, and what the 32 report definitions of
 * contract 4.10 read (reports/registry.ts; ReportRunner runs them).
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
    { provide: InvoiceSettlementReader, useClass: SqlInvoiceSettlementReader },
    StoreFactsCache,
    RollupKeeper,
    RollupApplier,
    RollupRebuildService,
    ReportScopeResolver,
    ReportKit,
    SalesRollups,
    InventoryKit,
    ReportRunner,
  ],
  exports: [RollupRebuildService, RollupApplier, ReportRunner],
})
export class IntegrationModule {}
