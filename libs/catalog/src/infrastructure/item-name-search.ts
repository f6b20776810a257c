import { WORD_TAIL_LENGTH, wordPrefixes, wordPrefixTerm, wordSearchTerm, wordTails } from '@pos/kernel';
import { detailColumns } from './item-page-details';

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

/**
 * The prefix index rows of an item (item_name_prefixes): one per word-start prefix of its name
 * (`wordPrefixes`), as (prefix, name, item_id, is_active) values. Live items only have rows.
 */
export function namePrefixValues(id: number, name: string, isActive: boolean): unknown[][] {
  return wordPrefixes(wordTails(name)).map((prefix) => [prefix, name, id, isActive ? 1 : 0]);
}

/**
 * One INSERT of these rows of item_name_prefixes (null: none). Prefixes that only the collation
 * tells apart from one another (MySQL: "straße" and "strasse") are one row of the key: the
 * duplicate is ignored, so the index holds each item once under a prefix.
 */
export function insertNamePrefixes(d: Pick<SearchDialect, 'sqlite'>, rows: unknown[][]): Statement | null {
  if (!rows.length) return null;
  return {
    sql: `INSERT ${d.sqlite ? 'OR IGNORE' : 'IGNORE'} INTO item_name_prefixes (prefix, name, item_id, is_active) VALUES ${rows.map(() => '(?, ?, ?, ?)').join(', ')}`,
    params: rows.flat(),
  };
}

/** The first characters of a term that the word index holds, and whether the name must be checked too (a longer term). */
function wordHead(q: string): { head: string | null; nameCheck: boolean } {
  const term = wordSearchTerm(q);
  const chars = Array.from(term);
  return { head: term ? chars.slice(0, WORD_TAIL_LENGTH).join('') : null, nameCheck: chars.length > WORD_TAIL_LENGTH };
}

/** A range of the word index (alias `w`): tails starting with `head`. */
function tailRange(d: SearchDialect, head: string, w = 'w'): Statement {
  return d.sqlite
    ? { sql: `${w}.tail >= ? AND ${w}.tail < ?`, params: [head, head + '\u{10FFFF}'] }
    : { sql: `${w}.tail LIKE ?${d.esc}`, params: [d.like(head, 'prefix')] };
}

/** SKUs starting with q: MySQL's case-insensitive unique index, SQLite's index on lower(sku). */
function skuRange(d: SearchDialect, q: string, alias: string): Statement {
  if (!d.sqlite) return { sql: `${alias}.sku LIKE ?${d.esc}`, params: [d.like(q, 'prefix')] };
  // SQLite's lower() folds ASCII letters only: fold the term the same way, or a SKU with a
  // capital É was never found, even by itself (MySQL's collation folds every letter).
  const sku = q.replace(/[A-Z]+/g, (s) => s.toLowerCase());
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

type ListFilter = { isActive?: boolean; categoryId?: number };

/** The three sources of a list search, each a statement over its own index with the list's filters. */
function sources(d: SearchDialect, q: string, filter: ListFilter) {
  const { head, nameCheck } = wordHead(q);
  const join = d.sqlite ? 'CROSS JOIN' : 'STRAIGHT_JOIN';
  const items = (alias: string): Statement => {
    const sql = [`${alias}.deleted_at IS NULL`];
    const params: unknown[] = [];
    if (filter.isActive !== undefined) {
      sql.push(`${alias}.is_active = ?`);
      params.push(filter.isActive ? 1 : 0);
    }
    if (filter.categoryId !== undefined) {
      sql.push(`${alias}.category_id = ?`);
      params.push(filter.categoryId);
    }
    return { sql: sql.join(' AND '), params };
  };
  const prefix = wordPrefixTerm(q);
  /**
   * Word rows of live items matching (`w` the alias), or null when the term has no word: a key of
   * the prefix index for a short term (each item once, in (name, id) order), else a range of the
   * word index. Only a category filter joins items. `keyed`: rows of the prefix index (each item
   * once, so they are counted with COUNT(*) and told apart by item and name).
   */
  const words = (w: string): { from: string; where: Statement; keyed: boolean } | null => {
    if (!head) return null;
    const r = prefix !== null ? { sql: `${w}.prefix = ?`, params: [prefix] } : tailRange(d, head, w);
    const where = [r.sql];
    const params = [...r.params];
    if (filter.isActive !== undefined) {
      where.push(`${w}.is_active = ?`);
      params.push(filter.isActive ? 1 : 0);
    }
    if (nameCheck) {
      where.push(`${w}.name LIKE ?${d.esc}`);
      params.push(d.like(q, 'contains'));
    }
    let from = `${prefix !== null ? 'item_name_prefixes' : 'item_name_words'} ${w}`;
    if (filter.categoryId !== undefined) {
      from += ` ${join} items ${w}c ON ${w}c.id = ${w}.item_id`;
      where.push(`${w}c.category_id = ?`);
      params.push(filter.categoryId);
    }
    return { from, where: { sql: where.join(' AND '), params }, keyed: prefix !== null };
  };
  return { words, items, sku: (alias: string) => skuRange(d, q, alias), join };
}

/**
 * The first `limit` matches of each source of a list search (word index, SKU, barcode) in (name,
 * id) order, each with its item's row (`it.*`) and `src` (0 words, 1 SKU, 2 barcode); sorted by
 * (name, id) here. The word branch reads the prefix index alone for a term of up to
 * WORD_PREFIX_LENGTH characters: the first `limit` rows of its key, already in (name, id) order,
 * each item once. A longer term reads a range of the word index alone (it carries the name and
 * active flag), sorted by a LIMIT sort; there an item with several matching word starts comes
 * once per start (adjacent: the caller keeps one). Only the branch's first `limit` rows meet
 * items. An item found by several sources comes once per source. The barcode branch has no limit
 * (one barcode, few items). What the page tells of the total: `searchPageTotal`.
 *
 * A short term's page also carries, unless `withCount` is false (the caller holds the total), the
 * number of its word matches (`counted`; `total_count`: a
 * count of one key of the prefix index, an uncorrelated subquery run once). Measured on MariaDB
 * with 100k items, that column costs a page 60-140 us, where a count statement of its own costs
 * 240-400 us and a round trip; flags on the SKU and barcode rows (whether a word found them too)
 * would cost another 50-100 us, so a page with such rows is counted by searchCount instead.
 *
 * With `details`, every row also carries its item's barcodes, units and category name
 * (detailColumns): only for a first page, whose rows are the ones shown, an item's duplicates and
 * at most `limit` more of the other sources (not every match before a later page).
 */
export function searchPage(
  d: SearchDialect,
  q: string,
  filter: ListFilter,
  limit: number,
  details = false,
  withCount = true,
): Statement & { counted: boolean } {
  const src = sources(d, q, filter);
  const w = src.words('w');
  const sku = src.sku('s');
  const si = src.items('s');
  const bi = src.items('bi');
  const branches: Statement[] = [];
  if (w)
    branches.push({
      sql: `SELECT 0 AS src, w.item_id, w.name FROM ${w.from} WHERE ${w.where.sql} ORDER BY w.name, w.item_id LIMIT ${limit}`,
      params: w.where.params,
    });
  branches.push({
    sql: `SELECT 1 AS src, s.id AS item_id, s.name FROM items s WHERE ${sku.sql} AND ${si.sql} ORDER BY s.name, s.id LIMIT ${limit}`,
    params: [...sku.params, ...si.params],
  });
  branches.push({
    sql: `SELECT 2 AS src, b.item_id, bi.name FROM item_barcodes b ${src.join} items bi ON bi.id = b.item_id WHERE b.barcode = ? AND ${bi.sql}`,
    params: [q, ...bi.params],
  });
  const union = branches.map((b) => (d.sqlite ? `SELECT * FROM (${b.sql})` : `(${b.sql})`)).join(' UNION ALL ');
  const wn = withCount && w?.keyed ? src.words('wn') : null;
  const count = wn ? { sql: `, (SELECT COUNT(*) FROM ${wn.from} WHERE ${wn.where.sql}) AS total_count`, params: wn.where.params } : null;
  return {
    sql: `SELECT x.src, it.*${count?.sql ?? ''}${details ? detailColumns(d, 'it') : ''} FROM (${union}) x ${src.join} items it ON it.id = x.item_id ORDER BY x.name, x.item_id`,
    params: [...(count?.params ?? []), ...branches.flatMap((b) => b.params)],
    counted: count !== null,
  };
}

/**
 * The exact total a page of searchPage tells (null: count it with searchCount). When neither
 * limited branch (words, SKU) filled its `limit`, every match is in hand: their distinct items.
 * Else, on a counted page that found nothing by SKU or barcode: the word matches' count.
 */
export function searchPageTotal(rows: Record<string, unknown>[], limit: number, counted: boolean): number | null {
  const words = rows.filter((r) => Number(r.src) === 0).length;
  const others = rows.length - words;
  const skus = rows.filter((r) => Number(r.src) === 1).length;
  if (words < limit && skus < limit) return new Set(rows.map((r) => Number(r.id))).size;
  return counted && others === 0 ? Number(rows[0].total_count) : null;
}

/**
 * The exact number of live items a list search finds (as `n`), from the indexes: the rows of the
 * term's prefix key (each item once) or the distinct items of the word range, plus those found by their SKU but by no word, plus the
 * one found by its barcode but by neither (`n`).
 */
export function searchCount(d: SearchDialect, q: string, filter: ListFilter): Statement {
  const src = sources(d, q, filter);
  const parts: Statement[] = [];
  /** Not found by a word: no word row of the item (`alias` its items row; the prefix index is keyed by name too). */
  const noWord = (alias: string): Statement => {
    const w2 = src.words('w2');
    if (!w2) return { sql: '', params: [] };
    const key = `w2.item_id = ${alias}.id${w2.keyed ? ` AND w2.name = ${alias}.name` : ''}`;
    return { sql: ` AND NOT EXISTS (SELECT 1 FROM ${w2.from} WHERE ${key} AND ${w2.where.sql})`, params: w2.where.params };
  };
  const w = src.words('w');
  if (w) parts.push({ sql: `SELECT COUNT(${w.keyed ? '*' : 'DISTINCT w.item_id'}) FROM ${w.from} WHERE ${w.where.sql}`, params: w.where.params });
  const sku = src.sku('s');
  const si = src.items('s');
  const sw = noWord('s');
  parts.push({ sql: `SELECT COUNT(*) FROM items s WHERE ${sku.sql} AND ${si.sql}${sw.sql}`, params: [...sku.params, ...si.params, ...sw.params] });
  const bsku = src.sku('bi');
  const bi = src.items('bi');
  const bw = noWord('bi');
  parts.push({
    sql: `SELECT COUNT(*) FROM item_barcodes b ${src.join} items bi ON bi.id = b.item_id WHERE b.barcode = ? AND ${bi.sql} AND NOT (${bsku.sql})${bw.sql}`,
    params: [q, ...bi.params, ...bsku.params, ...bw.params],
  });
  return { sql: `SELECT ${parts.map((p) => `(${p.sql})`).join(' + ')} AS n`, params: parts.flatMap((p) => p.params) };
}
