import { MigrationInterface, QueryRunner } from 'typeorm';
import { fillNamePrefixes } from './1764890000000-item-name-prefixes';

/**
 * The name search folds accents (kernel `foldForSearch`): "creme" finds "Crème" on SQLite as it
 * always did on MySQL, whose collation ignores accents. The tails already written were only
 * lowercased: each is folded here, a tail that folds to one the item already has is dropped (the
 * live code keeps each once), and the prefix index is filled again from the folded tails by the
 * rule of ItemNamePrefixes1764890000000.
 *
 * Frozen: `fold` is a copy of `foldForSearch` as this migration first ran.
 */
const fold = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC');

const BATCH = 5000;

export class ItemNameFold1764900000000 implements MigrationInterface {
  name = 'ItemNameFold1764900000000';

  async up(q: QueryRunner): Promise<void> {
    let after = { item: 0, position: -1 };
    let tails = new Set<string>(); // the folded tails of the item being read (rows come in item order)
    for (;;) {
      const rows = (await q.query(
        'SELECT item_id, position, tail FROM item_name_words WHERE item_id > ? OR (item_id = ? AND position > ?) ORDER BY item_id, position LIMIT ?',
        [after.item, after.item, after.position, BATCH],
      )) as { item_id: number | string; position: number | string; tail: string }[];
      if (!rows.length) break;
      for (const r of rows) {
        const item = Number(r.item_id);
        const position = Number(r.position);
        if (item !== after.item) tails = new Set();
        const folded = fold(r.tail);
        if (tails.has(folded)) await q.query('DELETE FROM item_name_words WHERE item_id = ? AND position = ?', [item, position]);
        else if (folded !== r.tail) await q.query('UPDATE item_name_words SET tail = ? WHERE item_id = ? AND position = ?', [folded, item, position]);
        tails.add(folded);
        after = { item, position };
      }
    }
    await q.query('DELETE FROM item_name_prefixes');
    await fillNamePrefixes(q);
  }

  async down(): Promise<void> {
    // Folded tails still find what they found (MySQL's collation folds accents; SQLite loses only
    // the accented matches): nothing to undo.
  }
}
