import { wordTails } from '@pos/kernel';

/**
 * (Re)writes the name search index (item_name_words) of every item, 2,000 items a round: the
 * rebuild after a load that wrote items around the item repository (the demo seed, seed:volume,
 * catalog:reindex-names). Returns the rows written. Uses the live kernel `wordTails`, as the
 * repository does on every write of a name; the migration that made the table keeps its own copy.
 */
export async function fillItemNameWords(q: { query(sql: string, params?: unknown[]): Promise<unknown> }): Promise<number> {
  await q.query('DELETE FROM item_name_words');
  let after = 0;
  let rows = 0;
  for (;;) {
    const items = (await q.query('SELECT id, name FROM items WHERE id > ? ORDER BY id LIMIT 2000', [after])) as { id: number | string; name: string }[];
    if (!items.length) return rows;
    after = Number(items[items.length - 1].id);
    const values = items.flatMap((i) => wordTails(i.name).map((tail, position) => [Number(i.id), position, tail]));
    for (let k = 0; k < values.length; k += 2000) {
      const part = values.slice(k, k + 2000);
      await q.query(`INSERT INTO item_name_words (item_id, position, tail) VALUES ${part.map(() => '(?, ?, ?)').join(', ')}`, part.flat());
    }
    rows += values.length;
  }
}
