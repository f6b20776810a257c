import { EntityManager } from 'typeorm';
import { insertNamePrefixes, insertNameWords, namePrefixValues, nameWordValues } from './item-name-search';

/**
 * (Re)writes the name search indexes (item_name_words, item_name_prefixes) of every live item,
 * 2,000 items a round: the rebuild after a load that wrote items around the item repository (the
 * demo seed, seed:volume, catalog:reindex-names). Returns the word rows written. The rows are the
 * repository's own (`nameWordValues`, `namePrefixValues`: the live kernel `wordTails` and
 * `wordPrefixes`, the name and active flag); the migrations that shaped the tables keep their own.
 */
export async function fillItemNameWords(q: EntityManager): Promise<number> {
  const sqlite = q.connection.options.type !== 'mysql';
  await q.query('DELETE FROM item_name_words');
  await q.query('DELETE FROM item_name_prefixes');
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
    const prefixes = items.flatMap((i) => namePrefixValues(Number(i.id), i.name, Boolean(Number(i.is_active))));
    // 2,000 rows (8,000 parameters) a statement.
    for (let k = 0; k < prefixes.length; k += 2000) {
      const insert = insertNamePrefixes({ sqlite }, prefixes.slice(k, k + 2000));
      if (insert) await q.query(insert.sql, insert.params);
    }
    rows += values.length;
  }
}
