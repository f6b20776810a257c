import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { APP_CONFIG, AppConfig, PeriodicScheduler, withTransactionRetry, yieldToEventLoop } from '@pos/platform';
import { ZoneCalendar } from '../domain/calendar';
import { RollupBatch } from '../domain/rollup-batch';
import { addMovements, addSale, addVoid, lastSaleCandidates } from '../domain/rollup-deltas';
import { addReturn, CreditNoteRow, creditNoteOf } from '../domain/return-deltas';
import { JournalEntry, returnedSaleOf } from '../domain/rollup-journal';
import { LastSale, RollupJournalStore, RollupStore } from './rollup.ports';
import { StoreFactsCache } from './store-facts';

/** Journal rows applied per transaction. */
const BATCH = 500;

/**
 * Adds the report journal to the rollups: a periodic task (where periodic work runs: the worker,
 * or the API process on the embedded default) every ROLLUP_APPLY_INTERVAL_MS. Each run takes the
 * appliers' lock row, reads up to 500 pending rows in id order, adds their deltas (the same pure
 * functions as the rebuild) as one batch, then deletes those rows, all in one transaction: a row
 * is applied exactly once, whatever the number of replicas, and a failure leaves it pending.
 * Only the applier and the rebuild write the rollup tables, so they are never contended by sales.
 * Additions commute, so rows committed out of id order are simply applied by a later run.
 * The lock row excludes appliers on one database server only: on a multi-primary cluster (Galera)
 * two nodes' appliers would both apply and one be aborted at certification, so the periodic run
 * happens only in the process holding the `rollup-applier` worker lease (the lock row stays, and
 * keeps a direct call, such as a test's, safe).
 */
@Injectable()
export class RollupApplier implements OnModuleInit {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly journal: RollupJournalStore,
    private readonly rollups: RollupStore,
    private readonly stores: StoreFactsCache,
    private readonly scheduler: PeriodicScheduler,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.scheduler.register({
      name: 'reports.rollup-apply',
      everyMs: this.config.rollupApplyIntervalMs,
      lease: 'rollup-applier',
      run: async () => void (await this.applyPending()),
    });
  }

  /** Applies everything pending now; returns the number of journal rows applied. */
  async applyPending(): Promise<number> {
    // a plain read first: an idle run takes no lock and writes nothing
    if (!(await this.journal.oldestPending())) return 0;
    // a rebuild holds the rollups (it commits in chunks): its facts wait for it, no lock is awaited
    if (await this.journal.rebuildRunning(new Date())) return 0;
    let applied = 0;
    for (;;) {
      const n = await withTransactionRetry(this.txHost, () => this.applyBatch());
      applied += n;
      if (n < BATCH) return applied;
      await yieldToEventLoop(); // a backlog is applied without holding up requests (SQLite: see yieldToEventLoop)
    }
  }

  private async applyBatch(): Promise<number> {
    await this.journal.lock();
    if (await this.journal.rebuildRunning(new Date())) return 0;
    return this.applyJournal(BATCH);
  }

  /**
   * Applies up to `limit` pending journal rows and deletes them, in the ambient transaction whose
   * caller holds the lock: the applier's runs, and the rebuild's, which brings the rollups up to
   * its snapshot before it replaces them (it holds the lease, so the runs are skipped meanwhile).
   */
  async applyJournal(limit: number): Promise<number> {
    const rows = await this.journal.pending(limit);
    if (!rows.length) return 0;
    await this.apply(rows.flatMap((r) => r.entries));
    await this.journal.remove(rows.map((r) => r.id));
    return rows.length;
  }

  private async apply(entries: JournalEntry[]): Promise<void> {
    const batch = new RollupBatch('daily');
    const raise: LastSale[] = [];
    const recompute: { warehouseId: number; itemId: number }[] = [];
    const notes: CreditNoteRow[] = [];
    const zones = new Map<number, ZoneCalendar>();
    for (const e of entries) {
      if (e.kind === 'sale') {
        const store = await this.stores.store(e.facts.sale.storeId);
        addSale(batch, e.facts, store);
        raise.push(...lastSaleCandidates(e.facts, store));
      } else if (e.kind === 'void') {
        const store = await this.stores.store(e.facts.sale.storeId);
        addVoid(batch, e.facts, store);
        recompute.push(...lastSaleCandidates(e.facts, store));
      } else if (e.kind === 'return') {
        const store = await this.stores.store(e.facts.saleReturn.storeId);
        const sale = returnedSaleOf(e);
        addReturn(batch, e.facts, store, sale);
        const note = creditNoteOf(e.facts, store, sale);
        if (note) notes.push(note);
      } else {
        for (const id of new Set(e.movements.map((m) => m.warehouseId))) if (!zones.has(id)) zones.set(id, await this.stores.zoneOfWarehouse(id));
        addMovements(batch, e.movements, (id) => zones.get(id)!);
      }
    }
    const rows = batch.list();
    await this.rollups.add(rows);
    // A row can only come down to all zeros (a void, a sale's stock coming back) where something
    // was taken away; such rows go, so the tables hold what a rebuild from the raw records writes.
    await this.rollups.removeEmpty(rows.filter((r) => r.values.some((v) => v < 0)));
    const latest = new Map<string, LastSale>();
    for (const r of raise) {
      const key = `${r.warehouseId}:${r.itemId}`;
      if ((latest.get(key)?.day ?? -Infinity) < r.day) latest.set(key, r);
    }
    const raised = [...latest.values()];
    for (let i = 0; i < raised.length; i += 1000) await this.rollups.raiseLastSale(raised.slice(i, i + 1000));
    for (let i = 0; i < recompute.length; i += 500) await this.rollups.recomputeLastSale(recompute.slice(i, i + 500));
    await this.rollups.addCreditNotes(notes);
  }
}
