import { MigrationInterface, QueryRunner, Table, TableColumnOptions, TableIndex } from 'typeorm';

/**
 * The name search index carries what a page of `GET /items?q=` sorts and filters by (issue 29):
 * each word row also holds its item's name (in the items' own collation) and active flag, and
 * only live items have rows (a soft delete removes them). The index (tail, name, item_id,
 * is_active) covers the search: the matches' page, their order (name, id) and their exact count
 * are read from the index alone, and only the page's ids are joined to items.
 *
 * The rows are copied from the old table joined to items (the tails as they are), so this
 * migration needs no copy of the word splitter. Down copies them back to the old shape.
 */
export class ItemNameWordsSort1764860000000 implements MigrationInterface {
  name = 'ItemNameWordsSort1764860000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'item_name_words_next',
        columns: [...KEY_COLUMNS, await nameColumn(q), { name: 'is_active', type: 'boolean', isNullable: false }],
      }),
    );
    await q.query(
      'INSERT INTO item_name_words_next (item_id, position, tail, name, is_active) ' +
        'SELECT w.item_id, w.position, w.tail, i.name, i.is_active FROM item_name_words w JOIN items i ON i.id = w.item_id WHERE i.deleted_at IS NULL',
    );
    await q.dropTable('item_name_words');
    await q.renameTable('item_name_words_next', 'item_name_words');
    await q.createIndex('item_name_words', new TableIndex({ name: INDEX, columnNames: ['tail', 'name', 'item_id', 'is_active'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.createTable(new Table({ name: 'item_name_words_next', columns: KEY_COLUMNS }));
    await q.query('INSERT INTO item_name_words_next (item_id, position, tail) SELECT item_id, position, tail FROM item_name_words');
    await q.dropTable('item_name_words');
    await q.renameTable('item_name_words_next', 'item_name_words');
    await q.createIndex('item_name_words', new TableIndex({ name: INDEX, columnNames: ['tail', 'item_id'] }));
  }
}

const INDEX = 'IDX_item_name_words_tail';

const KEY_COLUMNS: TableColumnOptions[] = [
  { name: 'item_id', type: 'integer', isPrimary: true },
  { name: 'position', type: 'integer', isPrimary: true },
  { name: 'tail', type: 'varchar', length: '191', isNullable: false },
];

/** items.name as it is declared (MySQL: its length, character set and collation, so the index sorts names as items does). */
async function nameColumn(q: QueryRunner): Promise<TableColumnOptions> {
  const plain: TableColumnOptions = { name: 'name', type: 'varchar', length: '255', isNullable: false };
  if (q.connection.options.type !== 'mysql') return plain;
  const [c] = (await q.query(
    "SELECT CHARACTER_MAXIMUM_LENGTH AS len, CHARACTER_SET_NAME AS charset, COLLATION_NAME AS coll FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'items' AND COLUMN_NAME = 'name'",
  )) as { len: number | string; charset: string; coll: string }[];
  return { ...plain, length: String(c.len), charset: c.charset, collation: c.coll };
}
