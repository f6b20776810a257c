import { utcMonthOf } from '@pos/kernel';

/**
 * (Re)counts sale_counts from the sales: the day rows grouped in the database, the month rows from
 * them (the recount after a bulk load that wrote the sales table directly). The migration that
 * made the table keeps its own frozen copy of this fill.
 */
export async function fillSaleCounts(q: { query(sql: string, params?: unknown[]): Promise<unknown> }, mysql: boolean): Promise<void> {
  const day = mysql ? "DATEDIFF(created_at, '1970-01-01')" : 'CAST(julianday(created_at) - 2440587.5 AS INTEGER)';
  await q.query('DELETE FROM sale_counts');
  await q.query(
    `INSERT INTO sale_counts (grain, day, store_id, warehouse_id, status, n) SELECT 'd', ${day}, store_id, COALESCE(warehouse_id, 0), status, COUNT(*) FROM sales GROUP BY ${day}, store_id, COALESCE(warehouse_id, 0), status`,
  );
  const days = (await q.query("SELECT day, store_id, warehouse_id, status, n FROM sale_counts WHERE grain = 'd'")) as Record<string, unknown>[];
  const months = new Map<string, [number, number, number, string, number]>();
  for (const r of days) {
    const key = [utcMonthOf(Number(r.day)), Number(r.store_id), Number(r.warehouse_id), String(r.status)] as const;
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
