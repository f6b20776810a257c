import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { WORD_TAIL_LENGTH, wordTails } from '@pos/kernel';

/**
 * The name search index (issue 12, item 4): one row per word start of an item's name, its tail
 * from there lowercased (kernel `wordTails`), read by a range scan of (tail, item_id) for a
 * search term, the same on MySQL and SQLite. Kept by the catalog's item repository on every
 * write of a name; filled here for the items that exist. On SQLite also an index on lower(sku)
 * so the SKU-prefix branch of the same search is a range read too (MySQL's case-insensitive
 * collation lets it use the SKU's unique index).
 */
export class ItemNameWords1764000000000 implements MigrationInterface {
  name = 'ItemNameWords1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'item_name_words',
        columns: [
          { name: 'item_id', type: 'integer', isPrimary: true },
          { name: 'position', type: 'integer', isPrimary: true },
          { name: 'tail', type: 'varchar', length: String(WORD_TAIL_LENGTH), isNullable: false },
        ],
        indices: [new TableIndex({ name: 'IDX_item_name_words_tail', columnNames: ['tail', 'item_id'] })],
      }),
    );
    if (q.connection.options.type !== 'mysql') await q.query('CREATE INDEX IDX_items_sku_lower ON items (lower(sku))');
    await fillItemNameWords(q);
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.options.type !== 'mysql') await q.query('DROP INDEX IDX_items_sku_lower');
    await q.dropTable('item_name_words');
  }
}

/** (Re)writes the index rows of every item, 2,000 items a round: the migration's fill and the rebuild after raw imports. */
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
