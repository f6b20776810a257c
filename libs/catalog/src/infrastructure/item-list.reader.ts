import { Page, pageOffset, PageRequest } from '@pos/kernel';
import { utcDate } from '@pos/platform';
import { ItemFilter, ItemListPage } from '../application/catalog.ports';
import { ItemRecord } from '../application/catalog.records';
import { SearchDialect, searchCount, searchPage, searchPageTotal } from './item-name-search';
import { detailColumns, detailsOfRows } from './item-page-details';

/** A read on the repository's connection (the transaction's when in one). */
export type RawQuery = (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

/**
 * GET /items pages (not change mode): by filter in name order, or a search. With `details`, the
 * page's barcodes, units and category names come in the page's own statement (detailColumns)
 * whenever that statement sends only rows it shows: always for a plain page, and for a search's
 * first page (a later page's statement sends every match before it, and would read theirs too).
 */
export class ItemListReader {
  constructor(
    private readonly query: RawQuery,
    private readonly d: SearchDialect,
  ) {}

  /** A page; given `knownTotal` (the filter's total, held by the caller), nothing is counted. */
  async list(filter: ItemFilter, page: PageRequest, details: boolean, knownTotal?: number): Promise<ItemListPage> {
    if (filter.q) return this.search(filter.q, filter, page, details && pageOffset(page) === 0, knownTotal);
    const where = ['i.deleted_at IS NULL'];
    const params: unknown[] = [];
    if (filter.isActive !== undefined) {
      where.push('i.is_active = ?');
      params.push(filter.isActive ? 1 : 0);
    }
    if (filter.categoryId !== undefined) {
      where.push('i.category_id = ?');
      params.push(filter.categoryId);
    }
    const base = `FROM items i WHERE ${where.join(' AND ')}`;
    // SQLite works out a sorted statement's columns before it sorts: its page is read first.
    const pageSql = !details
      ? `SELECT i.* ${base} ORDER BY i.name, i.id LIMIT ? OFFSET ?`
      : this.d.sqlite
        ? `SELECT p.*${detailColumns(this.d, 'p')} FROM (SELECT i.* ${base} ORDER BY i.name, i.id LIMIT ? OFFSET ?) p ORDER BY p.name, p.id`
        : `SELECT i.*${detailColumns(this.d, 'i')} ${base} ORDER BY i.name, i.id LIMIT ? OFFSET ?`;
    const [rows, total] = await Promise.all([
      this.query(pageSql, [...params, page.perPage, pageOffset(page)]),
      knownTotal ?? this.query(`SELECT COUNT(*) AS n ${base}`, params).then((counted) => Number(counted[0].n)),
    ]);
    return { page: new Page(rows.map(itemFromRow), total, page.page, page.perPage), details: details ? detailsOfRows(rows) : null };
  }

  /**
   * A page of a list search: the first (offset + per_page) matches of each source in name order,
   * merged there (searchPage); an item found twice is kept once. Should the word branch's rows
   * hold too few distinct items (an item matching at many word starts), it is read again with a
   * larger limit. The exact total: when no limited branch filled its limit, every match is in
   * hand and the total is their number; otherwise the caller's `knownTotal` when it holds one (the
   * statement then leaves its count column out: nothing is counted), else a short term's page
   * brought what it needs along (searchPageTotal), and a longer term's is counted now (searchCount,
   * a range of the word index), so a short term's first page, or a search with fewer matches than
   * the page holds, is one statement.
   */
  private async search(q: string, filter: ItemFilter, page: PageRequest, details: boolean, knownTotal: number | undefined): Promise<ItemListPage> {
    const offset = pageOffset(page);
    const want = offset + page.perPage;
    for (let limit = want; ; limit *= 2) {
      const s = searchPage(this.d, q, filter, limit, details, knownTotal === undefined);
      const rows = await this.query(s.sql, s.params);
      const wordRows = rows.filter((r) => Number(r.src) === 0);
      const seen = new Set<number>();
      const distinct = rows.filter((r) => !seen.has(Number(r.id)) && seen.add(Number(r.id)));
      if (wordRows.length === limit && new Set(wordRows.map((r) => Number(r.id))).size < want) continue;
      const total = searchPageTotal(rows, limit, s.counted) ?? knownTotal ?? (await this.searchTotal(q, filter));
      const shown = distinct.slice(offset, want);
      return { page: new Page(shown.map(itemFromRow), total, page.page, page.perPage), details: details ? detailsOfRows(shown) : null };
    }
  }

  private async searchTotal(q: string, filter: ItemFilter): Promise<number> {
    const c = searchCount(this.d, q, filter);
    const [row] = (await this.query(c.sql, c.params)) as { n: number | string }[];
    return Number(row.n);
  }
}

/** An items row read raw (`i.*`) as the entity reads it. */
export function itemFromRow(r: Record<string, unknown>): ItemRecord {
  const int = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  const date = (v: unknown) => (v === null || v === undefined ? null : (utcDate.from(v as string | Date) as Date));
  return {
    id: Number(r.id),
    sku: String(r.sku),
    name: String(r.name),
    description: r.description === null || r.description === undefined ? null : String(r.description),
    categoryId: int(r.category_id),
    basePrice: Number(r.base_price),
    cost: Number(r.cost),
    taxClassId: int(r.tax_class_id),
    baseUnit: String(r.base_unit),
    isActive: Boolean(Number(r.is_active)),
    isSerialTracked: Boolean(Number(r.is_serial_tracked)),
    reorderLevel: Number(r.reorder_level),
    reorderQuantity: Number(r.reorder_quantity),
    version: Number(r.version),
    createdAt: date(r.created_at)!,
    updatedAt: date(r.updated_at)!,
    deletedAt: date(r.deleted_at),
  };
}
