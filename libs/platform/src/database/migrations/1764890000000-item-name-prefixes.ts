import { MigrationInterface, QueryRunner, Table, TableColumnOptions } from 'typeorm';

/**
 * The name search's prefix index (issue 29): one row per live item and word-start prefix of up to
 * 16 characters (`wordPrefixes` in @pos/kernel), keyed (prefix, name, item_id): under each prefix
 * the rows are in the order a page of `GET /items?q=` lists (name, id), so the first page of a
 * short term is the first rows of its key, however many items match, and its exact count is a
 * count of that key. Longer terms keep the tails' range of item_name_words.
 *
 * Filled here from item_name_words (its tails, name and active flag) in SQL, by the rule the
 * live code keeps: every prefix of each tail up to 16 characters that does not end in a space.
 * Prefixes equal under the collation (MySQL) are one row.
 */
export class ItemNamePrefixes1764890000000 implements MigrationInterface {
  name = 'ItemNamePrefixes1764890000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'item_name_prefixes',
        columns: [
          { name: 'prefix', type: 'varchar', length: '16', isNullable: false, isPrimary: true },
          { ...(await nameColumn(q)), isPrimary: true },
          { name: 'item_id', type: 'integer', isNullable: false, isPrimary: true },
          { name: 'is_active', type: 'boolean', isNullable: false },
        ],
      }),
    );
    await fillNamePrefixes(q);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('item_name_prefixes');
  }
}

/** item_name_prefixes from item_name_words, in SQL (also run again by ItemNameFold1764900000000 over the folded tails). */
export async function fillNamePrefixes(q: QueryRunner): Promise<void> {
  const sqlite = q.connection.options.type !== 'mysql';
  const [left, length] = sqlite ? ['substr(w.tail, 1, n.n)', 'length(w.tail)'] : ['LEFT(w.tail, n.n)', 'CHAR_LENGTH(w.tail)'];
  const last = sqlite ? 'substr(w.tail, n.n, 1)' : 'SUBSTRING(w.tail, n.n, 1)';
  await q.query(
    `INSERT ${sqlite ? 'OR IGNORE' : 'IGNORE'} INTO item_name_prefixes (prefix, name, item_id, is_active) ` +
      'WITH RECURSIVE n(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM n WHERE n < 16) ' +
      `SELECT ${left}, w.name, w.item_id, w.is_active FROM item_name_words w JOIN n ON n.n <= ${length} WHERE ${last} <> ' '`,
  );
}

/** items.name as it is declared (MySQL: its length, character set and collation, so the key sorts names as items does). */
async function nameColumn(q: QueryRunner): Promise<TableColumnOptions> {
  const plain: TableColumnOptions = { name: 'name', type: 'varchar', length: '255', isNullable: false };
  if (q.connection.options.type !== 'mysql') return plain;
  const [c] = (await q.query(
    "SELECT CHARACTER_MAXIMUM_LENGTH AS len, CHARACTER_SET_NAME AS charset, COLLATION_NAME AS coll FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'items' AND COLUMN_NAME = 'name'",
  )) as { len: number | string; charset: string; coll: string }[];
  return { ...plain, length: String(c.len), charset: c.charset, collation: c.coll };
}
