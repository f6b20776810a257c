import { WORD_TAIL_LENGTH, wordSearchTerm, wordTails } from '@pos/kernel';

/** What the statements below need from the repository's connection. */
export interface SearchDialect {
  sqlite: boolean;
  /** ESCAPE clause for LIKE (SQLite has none by default). */
  esc: string;
  /** LIKE pattern with %, _ and \ taken literally. */
  like(value: string, mode: 'prefix' | 'contains'): string;
}

export interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * The name search index rows of an item (item_name_words): one per word start of its name, with
 * the name and active flag the search sorts and filters by, as values in the order of
 * `insertNameWords`. Live items only have rows (a soft delete removes them).
 */
export function nameWordValues(id: number, name: string, isActive: boolean): unknown[][] {
  return wordTails(name).map((tail, position) => [id, position, tail, name, isActive ? 1 : 0]);
}

/** One INSERT of these rows of item_name_words (null: none); callers keep it within the driver's parameter limit. */
export function insertNameWords(rows: unknown[][]): Statement | null {
  if (!rows.length) return null;
  return {
    sql: `INSERT INTO item_name_words (item_id, position, tail, name, is_active) VALUES ${rows.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
    params: rows.flat(),
  };
}

/** The first characters of a term that the word index holds, and whether the name must be checked too (a longer term). */
function wordHead(q: string): { head: string | null; nameCheck: boolean } {
  const term = wordSearchTerm(q);
  const chars = Array.from(term);
  return { head: term ? chars.slice(0, WORD_TAIL_LENGTH).join('') : null, nameCheck: chars.length > WORD_TAIL_LENGTH };
}

/** A range of the word index: tails starting with `head`. */
function tailRange(d: SearchDialect, head: string): Statement {
  return d.sqlite
    ? { sql: 'w.tail >= ? AND w.tail < ?', params: [head, head + '\u{10FFFF}'] }
    : { sql: `w.tail LIKE ?${d.esc}`, params: [d.like(head, 'prefix')] };
}

/** SKUs starting with q: MySQL's case-insensitive unique index, SQLite's index on lower(sku). */
function skuRange(d: SearchDialect, q: string, alias: string): Statement {
  if (!d.sqlite) return { sql: `${alias}.sku LIKE ?${d.esc}`, params: [d.like(q, 'prefix')] };
  const sku = q.toLowerCase();
  return { sql: `lower(${alias}.sku) >= ? AND lower(${alias}.sku) < ?`, params: [sku, sku + '\u{10FFFF}'] };
}

/**
 * The ids matching a search term as one UNION: names with a word starting with it (a range of
 * the word index), SKUs starting with it and, when asked, the exact barcode. Terms longer than
 * an indexed tail also need the name itself checked (nameCheck). Live and inactive items alike:
 * the caller joins items and filters.
 */
export function matchingIds(d: SearchDialect, q: string, withBarcode: boolean): Statement & { nameCheck: boolean } {
  const { head, nameCheck } = wordHead(q);
  const parts: string[] = [];
  const params: unknown[] = [];
  if (head) {
    const r = tailRange(d, head);
    parts.push(`SELECT w.item_id FROM item_name_words w WHERE ${r.sql}`);
    params.push(...r.params);
  }
  const s = skuRange(d, q, 's');
  parts.push(`SELECT s.id AS item_id FROM items s WHERE ${s.sql}`);
  params.push(...s.params);
  if (withBarcode) {
    parts.push('SELECT b.item_id FROM item_barcodes b WHERE b.barcode = ?');
    params.push(q);
  }
  return { sql: parts.join(' UNION '), params, nameCheck };
}

/**
 * The live items matching a search term with the filters of a list, as (item_id, name) rows:
 * the word branch reads the word index alone (it carries the name and active flag: a covering
 * range read), the SKU and barcode branches their own indexes and items by key. A UNION, so an
 * item found twice (two word starts, or a word and its SKU) counts once; sorting it by (name,
 * item_id) sorts as the items' own name column does (the word rows' name has its collation).
 * Only a category filter joins the word rows to items (the category is not carried).
 */
export function matchingNames(d: SearchDialect, q: string, filter: { isActive?: boolean; categoryId?: number }): Statement {
  const { head, nameCheck } = wordHead(q);
  const parts: string[] = [];
  const params: unknown[] = [];
  const itemFilter = (alias: string) => {
    const sql = [`${alias}.deleted_at IS NULL`];
    const p: unknown[] = [];
    if (filter.isActive !== undefined) {
      sql.push(`${alias}.is_active = ?`);
      p.push(filter.isActive ? 1 : 0);
    }
    if (filter.categoryId !== undefined) {
      sql.push(`${alias}.category_id = ?`);
      p.push(filter.categoryId);
    }
    return { sql: sql.join(' AND '), params: p };
  };
  if (head) {
    const r = tailRange(d, head);
    const where = [r.sql];
    params.push(...r.params);
    if (filter.isActive !== undefined) {
      where.push('w.is_active = ?');
      params.push(filter.isActive ? 1 : 0);
    }
    if (nameCheck) {
      where.push(`w.name LIKE ?${d.esc}`);
      params.push(d.like(q, 'contains'));
    }
    let from = 'item_name_words w';
    if (filter.categoryId !== undefined) {
      from += ` ${d.sqlite ? 'CROSS JOIN' : 'STRAIGHT_JOIN'} items c ON c.id = w.item_id`;
      where.push('c.category_id = ?');
      params.push(filter.categoryId);
    }
    parts.push(`SELECT w.item_id, w.name FROM ${from} WHERE ${where.join(' AND ')}`);
  }
  const s = skuRange(d, q, 's');
  const sf = itemFilter('s');
  parts.push(`SELECT s.id AS item_id, s.name FROM items s WHERE ${s.sql} AND ${sf.sql}`);
  params.push(...s.params, ...sf.params);
  const bf = itemFilter('bi');
  parts.push(`SELECT b.item_id, bi.name FROM item_barcodes b ${d.sqlite ? 'CROSS JOIN' : 'STRAIGHT_JOIN'} items bi ON bi.id = b.item_id WHERE b.barcode = ? AND ${bf.sql}`);
  params.push(q, ...bf.params);
  return { sql: parts.join(' UNION '), params };
}
