import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * The sales feeds' counts at two grains (issue 11: feed p99 at a million sales). sale_day_counts
 * held one row per UTC day x store x warehouse x status, so an exact meta.total added up every one
 * of them (6,000+ rows a year, a scan MariaDB did on every feed request). sale_counts holds the same
 * day rows (grain 'd') and, beside them, one row per UTC month (grain 'm', `day` = the month's
 * first day): a total reads whole months from the month rows and only the partial months at the
 * ends of a date range from the day rows; a page then reads the days of the one month it falls in.
 * Both grains are written by the same statement (a two-row upsert) in the transaction that inserts
 * a sale or changes its status. Filled here from the sales recorded, replacing sale_day_counts.
 *
 * Frozen: the fill below is a copy of the code as this migration first ran, so the migration never
 * changes with the runtime. The sales context keeps the live recount (`fillSaleCounts`).
 */
export class SaleCounts1764100000000 implements MigrationInterface {
  name = 'SaleCounts1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'sale_counts',
        columns: [
          { name: 'grain', type: 'char', length: '1', isPrimary: true },
          { name: 'day', type: 'integer', isPrimary: true },
          { name: 'store_id', type: 'integer', isPrimary: true },
          { name: 'warehouse_id', type: 'integer', isPrimary: true },
          { name: 'status', type: 'varchar', length: '20', isPrimary: true },
          { name: 'n', type: 'integer', default: 0 },
        ],
      }),
    );
    await fill(q, q.connection.options.type === 'mysql');
    await q.dropTable('sale_day_counts');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'sale_day_counts',
        columns: [
          { name: 'day', type: 'integer', isPrimary: true },
          { name: 'store_id', type: 'integer', isPrimary: true },
          { name: 'warehouse_id', type: 'integer', isPrimary: true },
          { name: 'status', type: 'varchar', length: '20', isPrimary: true },
          { name: 'n', type: 'integer', default: 0 },
        ],
      }),
    );
    await q.query(
      "INSERT INTO sale_day_counts (day, store_id, warehouse_id, status, n) SELECT day, store_id, warehouse_id, status, n FROM sale_counts WHERE grain = 'd'",
    );
    await q.dropTable('sale_counts');
  }
}

const DAY_MS = 86_400_000;

/** The first day of the UTC month that `day` (days since 1970-01-01) falls in. */
function monthOf(day: number): number {
  const d = new Date(day * DAY_MS);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / DAY_MS;
}

/** Counts sale_counts from the sales: the day rows grouped in the database, the month rows from them. */
async function fill(q: QueryRunner, mysql: boolean): Promise<void> {
  const day = mysql ? "DATEDIFF(created_at, '1970-01-01')" : 'CAST(julianday(created_at) - 2440587.5 AS INTEGER)';
  await q.query('DELETE FROM sale_counts');
  await q.query(
    `INSERT INTO sale_counts (grain, day, store_id, warehouse_id, status, n) SELECT 'd', ${day}, store_id, COALESCE(warehouse_id, 0), status, COUNT(*) FROM sales GROUP BY ${day}, store_id, COALESCE(warehouse_id, 0), status`,
  );
  const days = (await q.query("SELECT day, store_id, warehouse_id, status, n FROM sale_counts WHERE grain = 'd'")) as Record<string, unknown>[];
  const months = new Map<string, [number, number, number, string, number]>();
  for (const r of days) {
    const key = [monthOf(Number(r.day)), Number(r.store_id), Number(r.warehouse_id), String(r.status)] as const;
    const id = key.join('|');
    const row = months.get(id) ?? [...key, 0];
    row[4] += Number(r.n);
    months.set(id, row);
  }
  const rows = [...months.values()];
  for (let k = 0; k < rows.length; k += 500) {
    const part = rows.slice(k, k + 500);
    await q.query(
      `INSERT INTO sale_counts (grain, day, store_id, warehouse_id, status, n) VALUES ${part.map(() => "('m', ?, ?, ?, ?, ?)").join(', ')}`,
      part.flat(),
    );
  }
}
