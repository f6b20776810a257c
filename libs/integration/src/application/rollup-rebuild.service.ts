import { Injectable, Logger } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { StockReadModel } from '@pos/catalog';
import { ReturnFactsReader } from '@pos/returns';
import { SaleFactsReader } from '@pos/sales';
import { ZoneCalendar } from '../domain/calendar';
import { RollupBatch } from '../domain/rollup-batch';
import { addMovements, addSaleAsItStands } from '../domain/rollup-deltas';
import { addReturn, CreditNoteRow, creditNoteOf, returnedSale } from '../domain/return-deltas';
import { RollupJournalStore, RollupStore } from './rollup.ports';
import { StoreFactsCache } from './store-facts';

export interface RebuildReport {
  sales: number;
  returns: number;
  movements: number;
  rows: number;
  seconds: number;
}

const BATCH = 2000;

/**
 * Rebuilds every rollup from the raw records, read through what their owners publish: sales
 * (SaleFactsReader, in id order and batches), processed returns (the returns context's
 * ReturnFactsReader, the same facts processing published), stock movements (StockReadModel). The same pure functions as the
 * incremental subscribers compute the rows (a voided sale counts as its void only), so the result
 * equals what the journal applier keeps. It runs in one transaction that first takes the
 * appliers' lock, then reads the journal's ids and every raw record from one snapshot (REPEATABLE
 * READ on MySQL; SQLite's transactions are serializable): the rows it writes already hold what
 * those journal rows say, so it deletes exactly them, and rows committed after its snapshot stay
 * for the applier. Sales may go on meanwhile. Sums are built in memory.
 */
@Injectable()
export class RollupRebuildService {
  private readonly logger = new Logger('RollupRebuild');

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly rollups: RollupStore,
    private readonly stores: StoreFactsCache,
    private readonly sales: SaleFactsReader,
    private readonly stock: StockReadModel,
    private readonly returnFacts: ReturnFactsReader,
    private readonly journal: RollupJournalStore,
  ) {}

  async rebuild(progress: (message: string) => void = (m) => this.logger.log(m)): Promise<RebuildReport> {
    const mysql = this.txHost.tx.connection.options.type === 'mysql';
    return mysql
      ? this.txHost.withTransaction({ isolationLevel: 'REPEATABLE READ' }, () => this.run(progress))
      : this.txHost.withTransaction(() => this.run(progress));
  }

  private async run(progress: (message: string) => void): Promise<RebuildReport> {
    const started = Date.now();
    this.stores.clear();
    await this.journal.lock();
    // the snapshot starts here (MySQL: at the transaction's first plain read)
    const journalled = await this.journal.ids();
    const batch = new RollupBatch('daily');
    let sales = 0;
    for (let after = 0; ;) {
      const facts = await this.sales.batch(after, BATCH);
      if (!facts.length) break;
      for (const f of facts) addSaleAsItStands(batch, f, await this.stores.store(f.sale.storeId));
      sales += facts.length;
      after = facts[facts.length - 1].sale.id;
      if (sales % 100_000 < BATCH) progress(`sales: ${sales}`);
    }

    const notes: CreditNoteRow[] = [];
    let returns = 0;
    for (let after = 0; ;) {
      const list = await this.returnFacts.batch(after, BATCH);
      if (!list.length) break;
      for (const { facts } of list) {
        const store = await this.stores.store(facts.saleReturn.storeId);
        const found = await this.sales.sale(facts.saleReturn.saleId);
        const sale = returnedSale(found?.sale.taxExempt ?? false, found?.items ?? []);
        addReturn(batch, facts, store, sale);
        const note = creditNoteOf(facts, store, sale);
        if (note) notes.push(note);
      }
      returns += list.length;
      after = list[list.length - 1].id;
    }

    let movements = 0;
    const zones = new Map<number, ZoneCalendar>();
    for (let after = 0; ;) {
      const list = await this.stock.movementsAfter(after, BATCH * 5);
      if (!list.length) break;
      for (const id of new Set(list.map((m) => m.warehouseId))) if (!zones.has(id)) zones.set(id, await this.stores.zoneOfWarehouse(id));
      addMovements(batch, list, (id) => zones.get(id)!);
      movements += list.length;
      after = list[list.length - 1].id;
      if (movements % 500_000 < BATCH * 5) progress(`stock movements: ${movements}`);
    }

    const rows = batch.list();
    progress(`writing ${rows.length} rollup rows`);
    await this.rollups.clear();
    await this.rollups.insert(rows);
    await this.rollups.addCreditNotes(notes);
    await this.rollups.rebuildLastSale();
    await this.journal.remove(journalled);
    const report = { sales, returns, movements, rows: rows.length, seconds: Math.round((Date.now() - started) / 100) / 10 };
    progress(`rebuilt: ${JSON.stringify(report)}`);
    return report;
  }
}
