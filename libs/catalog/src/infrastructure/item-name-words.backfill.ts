import { insertNameWords, nameWordValues } from './item-name-search';

/**
 * (Re)writes the name search index (item_name_words) of every live item, 2,000 items a round: the
 * rebuild after a load that wrote items around the item repository (the demo seed, seed:volume,
 * catalog:reindex-names). Returns the rows written. The rows are the repository's own
 * (`nameWordValues`: the live kernel `wordTails`, the name and active flag); the migrations that
 * shaped the table keep their own copies.
 */
export async function fillItemNameWords(q: { query(sql: string, params?: unknown[]): Promise<unknown> }): Promise<number> {
  await q.query('DELETE FROM item_name_words');
  let after = 0;
  let rows = 0;
  for (;;) {
    const items = (await q.query('SELECT id, name, is_active FROM items WHERE id > ? AND deleted_at IS NULL ORDER BY id LIMIT 2000', [after])) as {
      id: number | string;
      name: string;
      is_active: number | string | boolean;
    }[];
    if (!items.length) return rows;
    after = Number(items[items.length - 1].id);
    const values = items.flatMap((i) => nameWordValues(Number(i.id), i.name, Boolean(Number(i.is_active))));
    // 2,000 rows (10,000 parameters) a statement: within SQLite's limit of 32,766.
    for (let k = 0; k < values.length; k += 2000) {
      const insert = insertNameWords(values.slice(k, k + 2000));
      if (insert) await q.query(insert.sql, insert.params);
    }
    rows += values.length;
  }
}
