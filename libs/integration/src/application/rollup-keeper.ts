import { Injectable } from '@nestjs/common';
import { StockMovedFacts, StockMovementRecord } from '@pos/catalog';
import { OnDomainEvent, perTransaction } from '@pos/platform';
import { ReturnFacts, ReturnProcessedFacts } from '@pos/returns';
import { SaleFacts, SaleFactsReader, SaleRecordedFacts, SaleVoidedFacts } from '@pos/sales';
import { JournalEntry, movesEntry, returnEntry, saleEntry } from '../domain/rollup-journal';
import { RollupJournalStore } from './rollup.ports';

/**
 * Keeps the report rollups current, in two steps. Here, in the publisher's transaction: the
 * sales, returns and catalog facts are written to the report journal, all of one transaction in
 * one row just before it commits (a checkout's sale and stock movements: one INSERT), so a fact
 * is journalled if and only if it commits, and a sale never waits on a rollup row another sale
 * holds. Then the RollupApplier adds them to the rollups a moment later (ROLLUP_APPLY_INTERVAL_MS;
 * reports say how fresh they are in meta.as_of).
 */
@Injectable()
export class RollupKeeper {
  constructor(
    private readonly journal: RollupJournalStore,
    private readonly sales: SaleFactsReader,
  ) {}

  @OnDomainEvent(SaleRecordedFacts)
  saleRecorded(facts: SaleFacts): Promise<void> {
    return this.record(saleEntry('sale', facts));
  }

  @OnDomainEvent(SaleVoidedFacts)
  saleVoided(facts: SaleFacts): Promise<void> {
    return this.record(saleEntry('void', facts));
  }

  @OnDomainEvent(ReturnProcessedFacts)
  async returnProcessed(facts: ReturnFacts): Promise<void> {
    const sale = await this.sales.sale(facts.saleReturn.saleId);
    await this.record(returnEntry(facts, { exempt: sale?.sale.taxExempt ?? false, lines: sale?.items ?? [] }));
  }

  @OnDomainEvent(StockMovedFacts)
  stockMoved(facts: { movements: StockMovementRecord[] }): Promise<void> {
    return this.record(movesEntry(facts.movements));
  }

  /** Kept for the transaction's end when it has one that collects (withTransactionRetry), else written now. */
  private async record(entry: JournalEntry): Promise<void> {
    const pending = perTransaction(
      this,
      (): JournalEntry[] => [],
      (entries) => this.journal.append(entries),
    );
    if (pending) pending.push(entry);
    else await this.journal.append([entry]);
  }
}
