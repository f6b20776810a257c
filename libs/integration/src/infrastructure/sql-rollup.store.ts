import { Injectable } from '@nestjs/common';
import { TxRepository } from '@pos/platform';
import { cover } from '../domain/calendar';
import { KeyValue, RollupRow } from '../domain/rollup-batch';
import { ColumnOf, LAST_SALE_TABLE, CREDIT_NOTES_TABLE, MeasureOf, RollupTable, TEXT_COLUMNS } from '../domain/rollup-tables';
import {
  Cell,
  CreditNoteListing,
  CreditNoteRow,
  LastSale,
  ReplacedTable,
  RollupQuery,
  RollupReader,
  RollupResult,
  RollupStore,
  SessionTender,
  SumRow,
  TypedRollupQuery,
} from '../application/rollup.ports';

const MAX_PARAMS = 20_000;
/** Keys matched by one `(..) OR (..)` chain: SQLite refuses an expression over 1,000 deep. */
const MAX_OR_TERMS = 200;

/**
 * The rollup tables through plain SQL on the ambient transaction: multi-row upserts that add
 * (INSERT .. ON DUPLICATE KEY UPDATE on MySQL, INSERT .. ON CONFLICT DO UPDATE on SQLite), and
 * grouped sums over a range's blocks. Table and column names come from rollup-tables.ts only.
 */
@Injectable()
export class SqlRollupStore extends TxRepository implements RollupStore, RollupReader {
  async add(rows: RollupRow[]): Promise<void> {
    for (const [table, list] of byTable(rows)) {
      const cols = [...table.keys, ...table.attrs, ...table.measures];
      const update = this.isSqlite
        ? `ON CONFLICT (${table.keys.join(', ')}) DO UPDATE SET ${table.measures.map((m) => `${m} = ${m} + excluded.${m}`).join(', ')}`
        : `ON DUPLICATE KEY UPDATE ${table.measures.map((m) => `${m} = ${m} + VALUES(${m})`).join(', ')}`;
      for (const chunk of chunks(list, cols.length)) {
        await this.em.query(`INSERT INTO ${table.name} (${cols.join(', ')}) VALUES ${placeholders(chunk.length, cols.length)} ${update}`, values(table, chunk));
      }
    }
  }

  async removeEmpty(rows: RollupRow[]): Promise<void> {
    for (const [table, list] of byTable(rows)) {
      const zero = table.measures.map((m) => `${m} = 0`).join(' AND ');
      const match = `(${table.keys.map((k) => `${k} = ?`).join(' AND ')})`;
      for (const chunk of chunks(list, table.keys.length, MAX_OR_TERMS)) {
        await this.em.query(
          `DELETE FROM ${table.name} WHERE (${chunk.map(() => match).join(' OR ')}) AND ${zero}`,
          chunk.flatMap((r) => r.key),
        );
      }
    }
  }

  async raiseLastSale(entries: LastSale[]): Promise<void> {
    if (!entries.length) return;
    const sorted = [...entries].sort((a, b) => a.warehouseId - b.warehouseId || a.itemId - b.itemId);
    const update = this.isSqlite
      ? 'ON CONFLICT (warehouse_id, item_id) DO UPDATE SET day = MAX(day, excluded.day)'
      : 'ON DUPLICATE KEY UPDATE day = GREATEST(day, VALUES(day))';
    await this.em.query(
      `INSERT INTO ${LAST_SALE_TABLE} (warehouse_id, item_id, day) VALUES ${placeholders(sorted.length, 3)} ${update}`,
      sorted.flatMap((e) => [e.warehouseId, e.itemId, e.day]),
    );
  }

  async recomputeLastSale(pairs: { warehouseId: number; itemId: number }[]): Promise<void> {
    for (const chunk of chunks(pairs, 2, MAX_OR_TERMS)) {
      const match = chunk.map(() => '(item_id = ? AND warehouse_id = ?)').join(' OR ');
      const params = chunk.flatMap((p) => [p.itemId, p.warehouseId]);
      const found = (await this.em.query(
        `SELECT warehouse_id, item_id, MAX(day) AS day FROM rpt_items WHERE span = 0 AND units > 0 AND (${match}) GROUP BY warehouse_id, item_id`,
        params,
      )) as Record<string, unknown>[];
      await this.em.query(`DELETE FROM ${LAST_SALE_TABLE} WHERE ${match}`, params);
      if (found.length)
        await this.em.query(
          `INSERT INTO ${LAST_SALE_TABLE} (warehouse_id, item_id, day) VALUES ${placeholders(found.length, 3)}`,
          found.flatMap((r) => [Number(r.warehouse_id), Number(r.item_id), Number(r.day)]),
        );
    }
  }

  async addCreditNotes(notes: CreditNoteRow[]): Promise<void> {
    const cols = ['id', 'number', 'day', 'store_id', 'warehouse_id', 'return_id', 'sale_id', 'customer_id', 'currency_code', 'amount', 'created_at'];
    for (const chunk of chunks(notes, cols.length)) {
      await this.em.query(
        `INSERT INTO ${CREDIT_NOTES_TABLE} (${cols.join(', ')}) VALUES ${placeholders(chunk.length, cols.length)}`,
        chunk.flatMap((n) => [
          n.id,
          n.number,
          n.day,
          n.storeId,
          n.warehouseId,
          n.returnId,
          n.saleId,
          n.customerId,
          n.currencyCode,
          n.amount,
          this.date(n.createdAt),
        ]),
      );
    }
  }

  async upsert(table: ReplacedTable, rows: Cell[][]): Promise<void> {
    const rest = table.columns.filter((c) => !table.keys.includes(c));
    const update = this.isSqlite
      ? `ON CONFLICT (${table.keys.join(', ')}) DO UPDATE SET ${rest.map((c) => `${c} = excluded.${c}`).join(', ')}`
      : `ON DUPLICATE KEY UPDATE ${rest.map((c) => `${c} = VALUES(${c})`).join(', ')}`;
    for (const chunk of chunks(rows, table.columns.length)) {
      await this.em.query(
        `INSERT INTO ${table.name} (${table.columns.join(', ')}) VALUES ${placeholders(chunk.length, table.columns.length)} ${update}`,
        chunk.flatMap((r) => r.map((v) => (v instanceof Date ? this.date(v) : v))),
      );
    }
  }

  async keysOf(table: ReplacedTable): Promise<Cell[][]> {
    const rows = (await this.em.query(`SELECT ${table.keys.join(', ')} FROM ${table.name}`)) as Record<string, Cell>[];
    return rows.map((r) => table.keys.map((k) => r[k]));
  }

  async removeKeys(table: ReplacedTable, keys: Cell[][]): Promise<void> {
    const match = `(${table.keys.map((k) => `${k} = ?`).join(' AND ')})`;
    for (const chunk of chunks(keys, table.keys.length)) {
      await this.em.query(`DELETE FROM ${table.name} WHERE ${chunk.map(() => match).join(' OR ')}`, chunk.flat());
    }
  }

  sum<T extends RollupTable, const M extends MeasureOf<T>, const G extends ColumnOf<T> = never>(q: TypedRollupQuery<T, M, G>): Promise<SumRow<M, G>[]> {
    // Text columns come back as strings and the rest as numbers, as SumRow says.
    return this.sumRows(q as RollupQuery) as Promise<unknown> as Promise<SumRow<M, G>[]>;
  }

  private async sumRows(q: RollupQuery): Promise<RollupResult[]> {
    const params: unknown[] = [];
    const where: string[] = [];
    if (!q.table.blocks) {
      where.push('day BETWEEN ? AND ?');
      params.push(q.from, q.to);
    } else if (q.daily) {
      where.push('span = 0 AND day BETWEEN ? AND ?');
      params.push(q.from, q.to);
    } else {
      const blocks = cover(q.from, q.to);
      where.push(`(${blocks.map(() => '(span = ? AND day = ?)').join(' OR ')})`);
      for (const b of blocks) params.push(b.span, b.start);
    }
    for (const [col, value] of Object.entries(q.where ?? {})) {
      if (value === undefined) continue;
      assertColumn(q.table, col);
      if (Array.isArray(value)) {
        where.push(value.length ? `${col} IN (${value.map(() => '?').join(', ')})` : '1 = 0');
        params.push(...value);
      } else {
        where.push(`${col} = ?`);
        params.push(value);
      }
    }
    q.groupBy.forEach((c) => assertColumn(q.table, c));
    q.measures.forEach((m) => assertColumn(q.table, m));
    const convert = (r: Record<string, unknown>): RollupResult => {
      const out: RollupResult = {};
      for (const c of q.groupBy) out[c] = TEXT_COLUMNS.has(c) ? String(r[c]) : Number(r[c]);
      for (const m of q.measures) out[m] = Number(r[m] ?? 0);
      return out;
    };
    if (q.sumInApp) {
      // Rows already at (or near) the grain asked for: read them and add up here, sparing the
      // database a temporary table for thousands of groups of one or two rows. The first row of a
      // group becomes the group (converted in place: no second object per group, the rows are ours).
      const rows = (await this.em.query(
        `SELECT ${[...q.groupBy, ...q.measures].join(', ')} FROM ${q.table.name} WHERE ${where.join(' AND ')}`,
        params,
      )) as Record<string, unknown>[];
      return sumInPlace(rows, q.groupBy, q.measures);
    }
    const select = [...q.groupBy, ...q.measures.map((m) => `SUM(${m}) AS ${m}`)].join(', ');
    const group = q.groupBy.length ? ` GROUP BY ${q.groupBy.join(', ')}` : '';
    const rows = (await this.em.query(`SELECT ${select} FROM ${q.table.name} WHERE ${where.join(' AND ')}${group}`, params)) as Record<string, unknown>[];
    return rows.map(convert);
  }

  async lastSales(warehouseIds: number[]): Promise<LastSale[]> {
    if (!warehouseIds.length) return [];
    const rows = (await this.em.query(
      `SELECT warehouse_id, item_id, day FROM ${LAST_SALE_TABLE} WHERE warehouse_id IN (${warehouseIds.map(() => '?').join(', ')})`,
      warehouseIds,
    )) as Record<string, unknown>[];
    return rows.map((r) => ({ warehouseId: Number(r.warehouse_id), itemId: Number(r.item_id), day: Number(r.day) }));
  }

  async sessionTenders(sessionIds: number[]): Promise<SessionTender[]> {
    const out: SessionTender[] = [];
    for (let i = 0; i < sessionIds.length; i += 1000) {
      const part = sessionIds.slice(i, i + 1000);
      const rows = (await this.em.query(
        `SELECT session_id, method_type, SUM(amount) AS amount, SUM(change_given) AS change_given, SUM(refund_amount) AS refunded FROM rpt_session_payments WHERE session_id IN (${part.map(() => '?').join(', ')}) GROUP BY session_id, method_type`,
        part,
      )) as Record<string, unknown>[];
      for (const r of rows)
        out.push({
          sessionId: Number(r.session_id),
          methodType: String(r.method_type),
          amount: Number(r.amount),
          changeGiven: Number(r.change_given),
          refunded: Number(r.refunded),
        });
    }
    return out;
  }

  /** Sorted here: the rows come nearly in that order off the (day, store) index; a database sort costs more. */
  async creditNotes(f: { from: number; to: number; storeIds: number[]; warehouseId?: number }): Promise<CreditNoteListing[]> {
    if (!f.storeIds.length) return [];
    const params: unknown[] = [f.from, f.to, ...f.storeIds];
    let sql =
      `SELECT id, number, day, store_id, warehouse_id, return_id, sale_id, customer_id, currency_code, amount, ${this.isoText('created_at')} AS created_at FROM ${CREDIT_NOTES_TABLE} ` +
      `WHERE day BETWEEN ? AND ? AND store_id IN (${f.storeIds.map(() => '?').join(', ')})`;
    if (f.warehouseId !== undefined) {
      sql += ' AND warehouse_id = ?';
      params.push(f.warehouseId);
    }
    const rows = (await this.em.query(sql, params)) as Record<string, unknown>[];
    return rows
      .map((r) => ({
        id: Number(r.id),
        number: String(r.number),
        day: Number(r.day),
        storeId: Number(r.store_id),
        warehouseId: Number(r.warehouse_id),
        returnId: Number(r.return_id),
        saleId: Number(r.sale_id),
        customerId: r.customer_id === null ? null : Number(r.customer_id),
        currencyCode: String(r.currency_code),
        amount: Number(r.amount),
        createdAt: String(r.created_at),
      }))
      .sort((a, b) => a.day - b.day || a.id - b.id);
  }

  /** A UTC datetime column as ISO 8601 text with milliseconds (what Date#toISOString gives), formatted by the database. */
  private isoText(column: string): string {
    return this.isSqlite
      ? `strftime('%Y-%m-%dT%H:%M:%fZ', ${column})`
      : `CONCAT(DATE_FORMAT(${column}, '%Y-%m-%dT%H:%i:%s.'), LPAD(FLOOR(MICROSECOND(${column}) / 1000), 3, '0'), 'Z')`;
  }

  /** Datetimes as the drivers store them (UTC text on SQLite). */
  private date(d: Date): Date | string {
    return this.isSqlite ? d.toISOString().replace('T', ' ').replace('Z', '') : d;
  }
}

function assertColumn(table: RollupTable, col: string): void {
  if (![...table.keys, ...table.attrs, ...table.measures].includes(col)) throw new Error(`${table.name} has no column ${col}`);
}

function byTable(rows: RollupRow[]): Map<RollupTable, RollupRow[]> {
  const out = new Map<RollupTable, RollupRow[]>();
  for (const r of rows) {
    const list = out.get(r.table) ?? [];
    list.push(r);
    out.set(r.table, list);
  }
  return out;
}

function* chunks<T>(list: T[], width: number, most = 1000): Generator<T[]> {
  const size = Math.max(1, Math.min(most, Math.floor(MAX_PARAMS / width)));
  for (let i = 0; i < list.length; i += size) yield list.slice(i, i + size);
}

function placeholders(rows: number, cols: number): string {
  const one = `(${new Array(cols).fill('?').join(', ')})`;
  return new Array(rows).fill(one).join(', ');
}

function values(table: RollupTable, rows: RollupRow[]): KeyValue[] {
  const out: KeyValue[] = [];
  for (const r of rows) out.push(...r.key, ...r.attrs, ...r.values);
  return out;
}

/** Rows summed by `by` (first seen first): each group is its first row, its values converted in place. */
function sumInPlace(rows: Record<string, unknown>[], by: readonly string[], measures: readonly string[]): RollupResult[] {
  const text = by.map((c) => TEXT_COLUMNS.has(c));
  const groups = new Map<string, RollupResult>();
  const out: RollupResult[] = [];
  for (const raw of rows) {
    let key = String(raw[by[0]]);
    for (let i = 1; i < by.length; i++) key += `|${String(raw[by[i]])}`;
    const g = groups.get(key);
    if (g === undefined) {
      for (let i = 0; i < by.length; i++) raw[by[i]] = text[i] ? String(raw[by[i]]) : Number(raw[by[i]]);
      for (const m of measures) raw[m] = Number(raw[m] ?? 0);
      groups.set(key, raw as RollupResult);
      out.push(raw as RollupResult);
    } else for (const m of measures) g[m] = (g[m] as number) + Number(raw[m] ?? 0);
  }
  return out;
}
