import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { StockReadModel } from '@pos/catalog';
import { APP_CONFIG, AppConfig, withTransactionRetry } from '@pos/platform';
import { ReturnFactsReader } from '@pos/returns';
import { SaleFactsReader } from '@pos/sales';
import { ZoneCalendar } from '../domain/calendar';
import { RollupBatch } from '../domain/rollup-batch';
import { addMovements, addSaleAsItStands } from '../domain/rollup-deltas';
import { addReturn, CreditNoteRow, creditNoteOf, returnedSale } from '../domain/return-deltas';
import { CREDIT_NOTES_TABLE, ITEMS, LAST_SALE_TABLE, ROLLUP_TABLES } from '../domain/rollup-tables';
import { RollupApplier } from './rollup-applier';
import { Cell, ReplacedTable, RollupJournalStore, RollupStore } from './rollup.ports';
import { StoreFactsCache } from './store-facts';

export interface RebuildReport {
  sales: number;
  returns: number;
  movements: number;
  rows: number;
  /** Transactions the rebuild committed (the snapshot's, and one per chunk of at most `chunkRows` rows). */
  transactions: number;
  seconds: number;
}

export interface RebuildOptions {
  /** Rows written (or deleted) per transaction; REPORTS_REBUILD_CHUNK_ROWS by default. */
  chunkRows?: number;
  /** Rows done so far, for a progress bar: raw records read (total unknown here: 0), then rollup rows written of `total`. */
  onRows?: (stage: 'read' | 'write', done: number, total: number) => void;
}

/** A progress line; the rebuild waits for what it returns (a test acts at a given stage). */
export type RebuildProgress = (message: string) => unknown;

/** A rebuild already holds the rollups (its lease has not expired). */
export class RebuildRunningError extends Error {
  constructor() {
    super('Another reports:rebuild is running (it holds the rollups until its lease expires); try again when it is done.');
    this.name = 'RebuildRunningError';
  }
}

const BATCH = 2000;
const JOURNAL_BATCH = 500;
/** The lease lasts this long without renewal; every transaction renews it. A rebuild that dies frees the applier within it. */
const LEASE_MS = 10 * 60_000;

/**
 * Rebuilds every rollup from the raw records, read through what their owners publish: sales
 * (SaleFactsReader, in id order and batches), processed returns (the returns context's
 * ReturnFactsReader), stock movements (StockReadModel). The same pure functions as the journal
 * applier compute the rows (a voided sale counts as its void only), so the result equals what the
 * applier keeps.
 *
 * It commits in chunks (issue 24: one transaction over millions of rollup rows is more than a
 * Galera write set or a replica can take), and stays exact:
 * 1. It takes the rebuild lease on the lock row (rpt_rollup_state); the applier skips its runs
 *    while the lease is held, so nothing else writes the rollups until the rebuild is done.
 * 2. It applies the journal pending so far, in transactions of 500 journal rows.
 * 3. One snapshot transaction (REPEATABLE READ on MySQL; SQLite's are serializable): the lock,
 *    the rest of the journal applied, then every raw record read from that snapshot S. Writes
 *    are only the journal's, so the write set stays small however long the read takes. The
 *    rollups now hold every fact up to S, as the applier would have made them.
 * 4. Every table is replaced row by row from the sums of S, in transactions of `chunkRows`
 *    rows: an upsert of the rows S gives, then the deletion of the rows S does not have.
 * 5. It gives the lease up; the applier adds the facts committed after S (still in the journal).
 *
 * What readers see meanwhile: each row is either as the applier left it at S (step 3) or as the
 * rebuild computes it at S, so on healthy rollups the figures do not move; where the rollups had
 * drifted, a report that spans rows of both kinds mixes old and rebuilt rows until the last
 * chunk. Facts committed after S appear when the rebuild ends (meta.as_of says how fresh a
 * report is). If the rebuild fails or dies, every row is still one of those two kinds plus what
 * the applier adds after it: the lease is given up at once (or expires after LEASE_MS) and the
 * applier carries on; nothing is counted twice or lost. Sales may go on throughout.
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
    private readonly applier: RollupApplier,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async rebuild(progress: RebuildProgress = (m) => this.logger.log(m), options: RebuildOptions = {}): Promise<RebuildReport> {
    const started = Date.now();
    const chunkRows = Math.max(1, Math.floor(options.chunkRows ?? this.config.reportsRebuildChunkRows));
    const holder = `rebuild:${hostname().slice(0, 60)}:${process.pid}:${randomBytes(4).toString('hex')}`;
    let transactions = 0;
    // one transaction holding the lock row and the lease (renewed) around `work`
    const step = async <T>(work: () => Promise<T>): Promise<T> => {
      const result = await withTransactionRetry(this.txHost, async () => {
        await this.hold(holder);
        return work();
      });
      transactions++;
      return result;
    };
    await step(async () => undefined);
    try {
      while ((await step(() => this.applier.applyJournal(JOURNAL_BATCH))) === JOURNAL_BATCH);
      const target = await this.snapshot(holder, progress, options.onRows);
      transactions++;
      await progress(`writing ${target.rows} rollup rows, ${chunkRows} per transaction`);
      let written = 0;
      const wrote = (n: number) => options.onRows?.('write', (written += n), target.rows);
      for (const [table, rows] of target.tables) await this.replace(table, rows, chunkRows, step, wrote);
      const report = { ...target.counts, rows: target.rows, transactions, seconds: Math.round((Date.now() - started) / 100) / 10 };
      await progress(`rebuilt: ${JSON.stringify(report)}`);
      return report;
    } finally {
      await withTransactionRetry(this.txHost, async () => {
        await this.journal.lock();
        await this.journal.releaseRebuild(holder);
      });
    }
  }

  /** Takes the lock row and takes or renews the lease; refused when another rebuild holds it. */
  private async hold(holder: string): Promise<void> {
    await this.journal.lock();
    const now = new Date();
    if (!(await this.journal.holdRebuild(holder, new Date(now.getTime() + LEASE_MS), now))) throw new RebuildRunningError();
  }

  /** Step 3: the journal applied up to a snapshot, and the rows every table should hold at it. */
  private async snapshot(holder: string, progress: RebuildProgress, onRows: RebuildOptions['onRows']) {
    const read = async () => {
      await this.hold(holder);
      // the snapshot starts at the first plain read (MySQL), just above: the journal visible in it is applied here
      while ((await this.applier.applyJournal(JOURNAL_BATCH)) === JOURNAL_BATCH);
      return this.readAll(progress, (done) => onRows?.('read', done, 0));
    };
    const mysql = this.txHost.tx.connection.options.type === 'mysql';
    return mysql ? this.txHost.withTransaction({ isolationLevel: 'REPEATABLE READ' }, read) : this.txHost.withTransaction(read);
  }

  private async readAll(progress: RebuildProgress, read: (done: number) => void) {
    this.stores.clear();
    const batch = new RollupBatch('daily');
    let sales = 0;
    for (let after = 0; ;) {
      const facts = await this.sales.batch(after, BATCH);
      if (!facts.length) break;
      for (const f of facts) addSaleAsItStands(batch, f, await this.stores.store(f.sale.storeId));
      sales += facts.length;
      after = facts[facts.length - 1].sale.id;
      read(sales);
      if (sales % 100_000 < BATCH) await progress(`sales: ${sales}`);
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
      read(sales + returns);
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
      read(sales + returns + movements);
      if (movements % 500_000 < BATCH * 5) await progress(`stock movements: ${movements}`);
    }

    const rows = batch.list();
    const byName = new Map<string, Cell[][]>(ROLLUP_TABLES.map((t) => [t.name, []]));
    for (const r of rows) byName.get(r.table.name)!.push([...r.key, ...r.attrs, ...r.values]);
    const tables: [ReplacedTable, Cell[][]][] = ROLLUP_TABLES.map((t) => [
      { name: t.name, keys: t.keys, columns: [...t.keys, ...t.attrs, ...t.measures] },
      byName.get(t.name)!,
    ]);
    tables.push([LAST_SALE, lastSales(byName.get(ITEMS.name)!)]);
    tables.push([CREDIT_NOTES, notes.map(noteCells)]);
    return { tables, rows: tables.reduce((n, [, r]) => n + r.length, 0), counts: { sales, returns, movements } };
  }

  /** Step 4 for one table: its rows upserted, then the rows it should not have deleted, `chunkRows` per transaction. */
  private async replace(
    table: ReplacedTable,
    rows: Cell[][],
    chunkRows: number,
    step: <T>(work: () => Promise<T>) => Promise<T>,
    wrote: (rows: number) => void,
  ): Promise<void> {
    for (let i = 0; i < rows.length; i += chunkRows) {
      await step(() => this.rollups.upsert(table, rows.slice(i, i + chunkRows)));
      wrote(Math.min(chunkRows, rows.length - i));
    }
    const wanted = new Set(rows.map((r) => keyId(r.slice(0, table.keys.length))));
    // nothing else writes the table while the lease is held: a plain read outside a transaction
    const extra = (await this.rollups.keysOf(table)).filter((k) => !wanted.has(keyId(k)));
    for (let i = 0; i < extra.length; i += chunkRows) await step(() => this.rollups.removeKeys(table, extra.slice(i, i + chunkRows)));
  }
}

const LAST_SALE: ReplacedTable = { name: LAST_SALE_TABLE, keys: ['warehouse_id', 'item_id'], columns: ['warehouse_id', 'item_id', 'day'] };
const CREDIT_NOTES: ReplacedTable = {
  name: CREDIT_NOTES_TABLE,
  keys: ['id'],
  columns: ['id', 'number', 'day', 'store_id', 'warehouse_id', 'return_id', 'sale_id', 'customer_id', 'currency_code', 'amount', 'created_at'],
};

function noteCells(n: CreditNoteRow): Cell[] {
  return [n.id, n.number, n.day, n.storeId, n.warehouseId, n.returnId, n.saleId, n.customerId, n.currencyCode, n.amount, n.createdAt];
}

/** The last business day each item sold from each warehouse: the daily item rows with units sold (as the applier keeps it). */
function lastSales(items: Cell[][]): Cell[][] {
  const [span, day, warehouse, item] = (['span', 'day', 'warehouse_id', 'item_id'] as const).map((k) => ITEMS.keys.indexOf(k));
  const units = ITEMS.keys.length + ITEMS.attrs.length + ITEMS.measures.indexOf('units');
  const latest = new Map<string, Cell[]>();
  for (const r of items) {
    if (r[span] !== 0 || !((r[units] as number) > 0)) continue;
    const id = `${String(r[warehouse])}|${String(r[item])}`;
    const known = latest.get(id);
    if (!known || (known[2] as number) < (r[day] as number)) latest.set(id, [r[warehouse], r[item], r[day]]);
  }
  return [...latest.values()].sort((a, b) => (a[0] as number) - (b[0] as number) || (a[1] as number) - (b[1] as number));
}

/** A key as text, the same whether it was built here or read back (drivers may read integers as strings). */
function keyId(key: Cell[]): string {
  return key.map((v) => (v instanceof Date ? v.toISOString() : String(v))).join('\u0001');
}
