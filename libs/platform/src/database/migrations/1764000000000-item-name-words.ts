import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/**
 * The name search index (issue 12, item 4): one row per word start of an item's name, its tail
 * from there lowercased (kernel `wordTails`), read by a range scan of (tail, item_id) for a
 * search term, the same on MySQL and SQLite. Kept by the catalog's item repository on every
 * write of a name; filled here for the items that exist. On SQLite also an index on lower(sku)
 * so the SKU-prefix branch of the same search is a range read too (MySQL's case-insensitive
 * collation lets it use the SKU's unique index).
 *
 * Frozen: the fill below is a copy of the code as this migration first ran (kernel `wordTails`
 * then, 191-character tails), so the migration never changes with the runtime. The catalog
 * keeps the live index (its item repository, `fillItemNameWords` for rebuilds).
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
          { name: 'tail', type: 'varchar', length: String(TAIL_LENGTH), isNullable: false },
        ],
        indices: [new TableIndex({ name: 'IDX_item_name_words_tail', columnNames: ['tail', 'item_id'] })],
      }),
    );
    if (q.connection.options.type !== 'mysql') await q.query('CREATE INDEX IDX_items_sku_lower ON items (lower(sku))');
    await fill(q);
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.options.type !== 'mysql') await q.query('DROP INDEX IDX_items_sku_lower');
    await q.dropTable('item_name_words');
  }
}

const TAIL_LENGTH = 191;
const WORD_CHAR = /[\p{L}\p{N}]/u;
const SPACE = /\s/u;

/** The tails of a name that begin where a word begins, lowercased, each at most TAIL_LENGTH characters, once each. */
function tails(text: string): string[] {
  const chars = Array.from(text.toLowerCase());
  const out = new Set<string>();
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (SPACE.test(c)) continue;
    const prev = i === 0 ? null : chars[i - 1];
    if (prev === null || SPACE.test(prev) || (WORD_CHAR.test(c) && !WORD_CHAR.test(prev))) out.add(chars.slice(i, i + TAIL_LENGTH).join(''));
  }
  return [...out];
}

/** Writes the index rows of every item, 2,000 items a round. */
async function fill(q: QueryRunner): Promise<void> {
  await q.query('DELETE FROM item_name_words');
  let after = 0;
  for (;;) {
    const items = (await q.query('SELECT id, name FROM items WHERE id > ? ORDER BY id LIMIT 2000', [after])) as { id: number | string; name: string }[];
    if (!items.length) return;
    after = Number(items[items.length - 1].id);
    const values = items.flatMap((i) => tails(i.name).map((tail, position) => [Number(i.id), position, tail]));
    for (let k = 0; k < values.length; k += 2000) {
      const part = values.slice(k, k + 2000);
      await q.query(`INSERT INTO item_name_words (item_id, position, tail) VALUES ${part.map(() => '(?, ?, ?)').join(', ')}`, part.flat());
    }
  }
}
