import { Injectable } from '@nestjs/common';
import { StockMovedFacts, StockMovementRecord } from '@pos/catalog';
import { OnDomainEvent } from '@pos/platform';
import { ReturnFacts, ReturnProcessedFacts } from '@pos/returns';
import { SaleFacts, SaleFactsReader, SaleRecordedFacts, SaleVoidedFacts } from '@pos/sales';
import { ZoneCalendar } from '../domain/calendar';
import { RollupBatch } from '../domain/rollup-batch';
import { addMovements, addReturn, addSale, addVoid, creditNoteOf, lastSaleCandidates } from '../domain/rollup-deltas';
import { RollupStore } from './rollup.ports';
import { StoreFactsCache } from './store-facts';

/**
 * Keeps the report rollups current: subscribes to the sales, returns and catalog domain facts
 * and adds their measures in the publisher's transaction, so a report never disagrees with the
 * sales it sums (a failure here rolls the sale back with it). Rows are written in one order
 * (table, key) and after the publisher's own locks, so concurrent sales do not deadlock on them.
 */
@Injectable()
export class RollupKeeper {
  constructor(
    private readonly rollups: RollupStore,
    private readonly stores: StoreFactsCache,
    private readonly sales: SaleFactsReader,
  ) {}

  @OnDomainEvent(SaleRecordedFacts)
  async saleRecorded(facts: SaleFacts): Promise<void> {
    const store = await this.stores.store(facts.sale.storeId);
    const batch = new RollupBatch();
    addSale(batch, facts, store);
    await this.rollups.add(batch.list());
    await this.rollups.raiseLastSale(lastSaleCandidates(facts, store));
  }

  @OnDomainEvent(SaleVoidedFacts)
  async saleVoided(facts: SaleFacts): Promise<void> {
    const store = await this.stores.store(facts.sale.storeId);
    const batch = new RollupBatch();
    addVoid(batch, facts, store);
    const rows = batch.list();
    await this.rollups.add(rows);
    await this.rollups.removeEmpty(rows);
    await this.rollups.recomputeLastSale(lastSaleCandidates(facts, store));
  }

  @OnDomainEvent(ReturnProcessedFacts)
  async returnProcessed(facts: ReturnFacts): Promise<void> {
    const r = facts.saleReturn;
    const store = await this.stores.store(r.storeId);
    const sale = await this.sales.sale(r.saleId);
    const rates = new Map(sale?.items.map((l) => [l.id, l.taxRateBp]) ?? []);
    const batch = new RollupBatch();
    addReturn(batch, facts, store, (id) => rates.get(id) ?? 0);
    await this.rollups.add(batch.list());
    const note = creditNoteOf(facts, store);
    if (note) await this.rollups.addCreditNotes([note]);
  }

  @OnDomainEvent(StockMovedFacts)
  async stockMoved(facts: { movements: StockMovementRecord[] }): Promise<void> {
    const zones = new Map<number, ZoneCalendar>();
    for (const id of new Set(facts.movements.map((m) => m.warehouseId))) zones.set(id, await this.stores.zoneOfWarehouse(id));
    const batch = new RollupBatch();
    addMovements(batch, facts.movements, (id) => zones.get(id)!);
    await this.rollups.add(batch.list());
  }
}
