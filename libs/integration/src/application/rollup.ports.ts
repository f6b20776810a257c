import type { EpochDay } from '../domain/calendar';
import type { RollupRow } from '../domain/rollup-batch';
import type { ColumnOf, MeasureOf, RollupTable, TextColumn } from '../domain/rollup-tables';
import type { CreditNoteRow } from '../domain/return-deltas';
import type { JournalEntry } from '../domain/rollup-journal';

export type { CreditNoteRow };

/** A credit note as the report lists it. */
export type CreditNoteListing = Omit<CreditNoteRow, 'createdAt'> & { createdAt: string };

export interface LastSale {
  warehouseId: number;
  itemId: number;
  day: EpochDay;
}

/** Writes to the rollup tables (subscribers and the rebuild). */
export abstract class RollupStore {
  /** Adds each row's measures to the row of its key (inserting it at zero first). */
  abstract add(rows: RollupRow[]): Promise<void>;
  /** Deletes the rows of these keys whose measures are now all zero (after a void). */
  abstract removeEmpty(rows: RollupRow[]): Promise<void>;
  /** Moves each (warehouse, item) last-sale day forward to `day` when later. */
  abstract raiseLastSale(entries: LastSale[]): Promise<void>;
  /** Sets the last-sale day of these pairs again from the daily item rows (after a void). */
  abstract recomputeLastSale(pairs: { warehouseId: number; itemId: number }[]): Promise<void>;
  abstract addCreditNotes(notes: CreditNoteRow[]): Promise<void>;
  /** Rebuild: writes these rows (values in `table.columns` order), replacing the row of the same key. */
  abstract upsert(table: ReplacedTable, rows: Cell[][]): Promise<void>;
  /** Rebuild: the key of every row of the table, in `table.keys` order. */
  abstract keysOf(table: ReplacedTable): Promise<Cell[][]>;
  /** Rebuild: deletes the rows of these keys. */
  abstract removeKeys(table: ReplacedTable, keys: Cell[][]): Promise<void>;
}

/** A value the rebuild writes: key and measure numbers, codes, a credit note's customer and time. */
export type Cell = number | string | Date | null;

/** A table as the rebuild replaces it, row by row: its key columns and every column it writes. */
export interface ReplacedTable {
  name: string;
  keys: readonly string[];
  columns: readonly string[];
}

/** One transaction's facts waiting in the report journal. */
export interface JournalRow {
  id: number;
  entries: JournalEntry[];
}

/**
 * The report journal: facts appended in the transactions that produce them, applied to the
 * rollups (and deleted) by the applier, one applier at a time (the lock row).
 */
export abstract class RollupJournalStore {
  /** One row holding these entries, in the ambient transaction. */
  abstract append(entries: JournalEntry[]): Promise<void>;
  /** Takes the appliers' lock for the rest of the ambient transaction. */
  abstract lock(): Promise<void>;
  /** The oldest `limit` rows, in id order. */
  abstract pending(limit: number): Promise<JournalRow[]>;
  /** Every row's id (the rebuild: what its snapshot already holds). */
  abstract ids(): Promise<number[]>;
  abstract remove(ids: number[]): Promise<void>;
  /** When the oldest pending row was written; null when none waits. */
  abstract oldestPending(): Promise<Date | null>;
  /**
   * Takes or renews the rebuild's lease for `holder` until `until` (free, already its own, or
   * expired at `now`); true when `holder` has it. Call with the lock held. The applier skips its
   * runs while a lease is unexpired (see RollupRebuildService).
   */
  abstract holdRebuild(holder: string, until: Date, now: Date): Promise<boolean>;
  /** Gives the rebuild's lease up if `holder` has it. */
  abstract releaseRebuild(holder: string): Promise<void>;
  /** A rebuild holds the rollups at `now` (a plain read: no lock taken). */
  abstract rebuildRunning(now: Date): Promise<boolean>;
}

export type Filter = number | string | readonly (number | string)[];

export interface RollupQuery {
  table: RollupTable;
  from: EpochDay;
  to: EpochDay;
  /** Daily rows only (span 0): for series by day. Otherwise a block table is read by its cover of blocks. */
  daily?: boolean;
  where?: Record<string, Filter | undefined>;
  groupBy: readonly string[];
  /** Sum in the application rather than with GROUP BY (rows near the grain asked for: closeout). */
  sumInApp?: boolean;
  measures: readonly string[];
}

export type RollupResult = Record<string, number | string>;

/**
 * A query over one table whose measure and column names are checked against the table's
 * declaration (rollup-tables.ts): a misspelt measure or a column of another table does not compile.
 */
export interface TypedRollupQuery<T extends RollupTable, M extends MeasureOf<T>, G extends ColumnOf<T>> extends Omit<
  RollupQuery,
  'table' | 'groupBy' | 'measures' | 'where'
> {
  table: T;
  groupBy: readonly G[];
  measures: readonly M[];
  where?: Partial<Record<ColumnOf<T>, Filter>>;
}

/** A summed row: its measures as numbers and its grouping columns (text columns as strings). */
export type SumRow<M extends string, G extends string = never> = { readonly [m in M]: number } & {
  readonly [g in G]: g extends TextColumn ? string : number;
};

/** The same as `reader.sum` (kept for callers holding a reader). */
export function sumOf<T extends RollupTable, const M extends MeasureOf<T>, const G extends ColumnOf<T> = never>(
  reader: RollupReader,
  q: TypedRollupQuery<T, M, G>,
): Promise<SumRow<M, G>[]> {
  return reader.sum(q);
}

export interface SessionTender {
  sessionId: number;
  methodType: string;
  amount: number;
  changeGiven: number;
  refunded: number;
}

/** Reads the rollups: sums of measures over a range of days, grouped. */
export abstract class RollupReader {
  /** Sums of a table's measures; the names are checked against the table's declaration when compiling. */
  abstract sum<T extends RollupTable, const M extends MeasureOf<T>, const G extends ColumnOf<T> = never>(q: TypedRollupQuery<T, M, G>): Promise<SumRow<M, G>[]>;
  abstract lastSales(warehouseIds: number[]): Promise<LastSale[]>;
  /** Money taken, change given and money refunded per session and payment method type, over every day of the sessions. */
  abstract sessionTenders(sessionIds: number[]): Promise<SessionTender[]>;
  /** The credit notes of a period, by day then id, `created_at` as ISO 8601 UTC text (formatted by the database: a year holds tens of thousands). */
  abstract creditNotes(filter: { from: EpochDay; to: EpochDay; storeIds: number[]; warehouseId?: number }): Promise<CreditNoteListing[]>;
}
