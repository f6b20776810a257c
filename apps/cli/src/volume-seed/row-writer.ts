import { QueryRunner } from 'typeorm';

/** Datetimes as the service stores them: UTC, to the second. */
export function dt(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', ' ');
}

/** UTC offset of a zone at an instant, in ms (local = utc + offset). */
export function offsetMs(tz: string, at: number): number {
  const p: Record<string, number> = {};
  for (const x of new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    hourCycle: 'h23',
  }).formatToParts(new Date(at)))
    if (x.type !== 'literal') p[x.type] = Number(x.value);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) - (at - (at % 60_000));
}

/**
 * Rows buffered per table and written in multi-row INSERTs, parents before children, plus the
 * few single-row writes and the payment method ids the seeder needs.
 */
export class RowWriter {
  private readonly buffers = new Map<string, { cols: string[]; rows: unknown[][] }>();

  private readonly methods = new Map<string, number>();

  constructor(readonly qr: QueryRunner) {}

  /** A payment method's id, by code (looked up once). */
  async methodId(code: string): Promise<number> {
    let id = this.methods.get(code);
    if (id === undefined) {
      id = Number((await this.qr.query('SELECT id FROM payment_methods WHERE code = ?', [code]))[0].id);
      this.methods.set(code, id);
    }
    return id;
  }

  async insertRow(table: string, row: Record<string, unknown>): Promise<void> {
    const cols = Object.keys(row);
    await this.qr.query(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`, Object.values(row));
  }

  push(table: string, row: Record<string, unknown>): void {
    let b = this.buffers.get(table);
    if (!b) this.buffers.set(table, (b = { cols: Object.keys(row), rows: [] }));
    b.rows.push(b.cols.map((c) => row[c] ?? null));
  }

  pending(): number {
    let n = 0;
    for (const b of this.buffers.values()) n += b.rows.length;
    return n;
  }

  /** Writes every buffered row, parents before children, in multi-row INSERTs. */
  async flushAll(): Promise<void> {
    const order = [
      'customers',
      'items',
      'cashier_sessions',
      'sales',
      'sale_items',
      'sale_payments',
      'invoices',
      'invoice_payments',
      'sale_returns',
      'sale_return_items',
      'return_refunds',
      'credit_notes',
      'sale_item_return_claims',
      'stock_movements',
      'stock_levels',
    ];
    const tables = [...this.buffers.keys()].sort((a, b) => order.indexOf(a) - order.indexOf(b));
    if (!tables.length) return;
    await this.qr.startTransaction();
    try {
      for (const table of tables) {
        const b = this.buffers.get(table)!;
        const per = Math.max(1, Math.floor(30_000 / b.cols.length));
        for (let i = 0; i < b.rows.length; i += per) {
          const chunk = b.rows.slice(i, i + per);
          const one = `(${b.cols.map(() => '?').join(', ')})`;
          await this.qr.query(`INSERT INTO ${table} (${b.cols.join(', ')}) VALUES ${chunk.map(() => one).join(', ')}`, chunk.flat());
        }
        b.rows = [];
      }
      await this.qr.commitTransaction();
    } catch (e) {
      await this.qr.rollbackTransaction();
      throw e;
    }
  }
}
