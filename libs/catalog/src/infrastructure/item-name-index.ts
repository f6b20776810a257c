import { wordPrefixes } from '@pos/kernel';
import { insertNamePrefixes, insertNameWords, namePrefixValues, nameWordValues, SearchDialect, Statement } from './item-name-search';

type Query = (sql: string, params?: unknown[]) => Promise<unknown>;

/**
 * The writes of an item's rows in the two name search indexes: item_name_words (its tails) and
 * item_name_prefixes (their prefixes, keyed by prefix, name and item), in the caller's transaction.
 * The prefix rows are found again by their key, worked out from the tails and name the item's word
 * rows hold: the prefix index has no index by item.
 */
export class ItemNameIndex {
  constructor(
    private readonly query: Query,
    private readonly d: Pick<SearchDialect, 'sqlite'>,
  ) {}

  /** Writes the rows of a live item (none there yet). */
  async write(id: number, name: string, isActive: boolean): Promise<void> {
    for (const s of [insertNameWords(nameWordValues(id, name, isActive)), insertNamePrefixes(this.d, namePrefixValues(id, name, isActive))])
      if (s) await this.query(s.sql, s.params);
  }

  /** Removes the item's rows (a rename writes them again; a soft delete leaves none). */
  async drop(id: number): Promise<void> {
    const keys = await this.prefixKeys(id);
    if (keys) await this.query(`DELETE FROM item_name_prefixes WHERE ${keys.sql}`, keys.params);
    await this.query('DELETE FROM item_name_words WHERE item_id = ?', [id]);
  }

  /** The item's rows follow its active flag. */
  async setActive(id: number, isActive: boolean): Promise<void> {
    const flag = isActive ? 1 : 0;
    const keys = await this.prefixKeys(id);
    if (keys) await this.query(`UPDATE item_name_prefixes SET is_active = ? WHERE ${keys.sql}`, [flag, ...keys.params]);
    await this.query('UPDATE item_name_words SET is_active = ? WHERE item_id = ?', [flag, id]);
  }

  /** The key of every prefix row of the item, from its word rows (null: it has none). */
  private async prefixKeys(id: number): Promise<Statement | null> {
    const rows = (await this.query('SELECT tail, name FROM item_name_words WHERE item_id = ?', [id])) as { tail: string; name: string }[];
    if (!rows.length) return null;
    const prefixes = wordPrefixes(rows.map((r) => r.tail));
    if (!prefixes.length) return null;
    return { sql: `item_id = ? AND name = ? AND prefix IN (${prefixes.map(() => '?').join(', ')})`, params: [id, rows[0].name, ...prefixes] };
  }
}
