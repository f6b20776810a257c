import { Injectable } from '@nestjs/common';
import { In, IsNull } from 'typeorm';
import { ChangeRead, changeWhere, Page, PageRequest } from '@pos/kernel';
import { ItemBarcodeRecord, ItemRecord, ItemUnitRecord } from '../application/catalog.records';
import {
  ItemChangeQuery,
  ItemFilter,
  ItemListPage,
  ItemReferences,
  ItemRepository,
  ItemWrite,
  PageDetails,
  SearchHit,
  SearchOptions,
  UnitWrite,
} from '../application/catalog.ports';
import { TxRepository } from '@pos/platform';
import { CategoryEntity, ItemBarcodeEntity, ItemEntity, ItemUnitEntity } from './catalog.entities';
import { fillItemNameWords } from './item-name-words.backfill';
import { ItemNameIndex } from './item-name-index';
import { matchingIds, SearchDialect } from './item-name-search';
import { itemFromRow, ItemListReader } from './item-list.reader';

/** Every write of an items row moves its version on (ItemRecord.version). */
const NEXT_VERSION = () => 'version + 1';

@Injectable()
export class TypeOrmItemRepository extends TxRepository implements ItemRepository {
  private get repo() {
    return this.em.getRepository(ItemEntity);
  }

  /**
   * Items by filter, by name. q finds names with a word starting with q (the word index:
   * item_name_words, which carries each live item's name and active flag), SKUs starting with q
   * and the exact barcode. With q: the matches as (id, name) from the indexes alone, sorted there,
   * only the page's ids joined to items, and counted from the indexes when the page does not hold
   * them all (ItemListReader). Without q: the page and a count.
   */
  async list(filter: ItemFilter, page: PageRequest): Promise<Page<ItemRecord>> {
    if (filter.change) return this.changeList(filter, filter.change);
    return (await this.reader.list(filter, page, false)).page;
  }

  async listWithDetails(filter: ItemFilter, page: PageRequest, knownTotal?: number): Promise<ItemListPage> {
    if (filter.change) return { page: await this.changeList(filter, filter.change), details: null };
    return this.reader.list(filter, page, true, knownTotal);
  }

  private get reader(): ItemListReader {
    return new ItemListReader((sql, params) => this.em.query(sql, params) as Promise<Record<string, unknown>[]>, this.dialect);
  }

  /**
   * Change mode (issue 26): items after the position in (updated_at, id) order up to the horizon,
   * deleted ones included (a partner must learn of the deletion: `is_active` false), no count; a
   * range of the items' updated_at index. q: name containing it, SKU starting with it or the exact barcode.
   */
  private async changeList(filter: ItemFilter, change: ChangeRead): Promise<Page<ItemRecord>> {
    const w = changeWhere('i', change);
    const qb = this.repo.createQueryBuilder('i').where(w.sql, w.params);
    if (filter.isActive !== undefined) qb.andWhere('i.is_active = :active', { active: filter.isActive });
    if (filter.categoryId !== undefined) qb.andWhere('i.category_id = :category', { category: filter.categoryId });
    if (filter.q)
      qb.andWhere(`(i.name LIKE :qc${this.esc} OR i.sku LIKE :qp${this.esc} OR i.id IN (SELECT b.item_id FROM item_barcodes b WHERE b.barcode = :qe))`, {
        qc: this.like(filter.q, 'contains'),
        qp: this.like(filter.q, 'prefix'),
        qe: filter.q,
      });
    const rows = await qb.orderBy('i.updated_at', 'ASC').addOrderBy('i.id', 'ASC').take(change.limit).getMany();
    return new Page(rows, rows.length, 1, change.limit);
  }

  /** The matches first, then items by key (never items scanned and the matches probed): SQLite's CROSS JOIN and MySQL's STRAIGHT_JOIN keep that order. */
  private get matchFirst(): string {
    return this.isSqlite ? 'CROSS JOIN' : 'STRAIGHT_JOIN';
  }

  private get dialect(): SearchDialect {
    return { sqlite: this.isSqlite, esc: this.esc, like: (v, mode) => this.like(v, mode) };
  }

  /**
   * Exact SKU and barcode matches (by id), then names by prefix (by name), in ONE statement of
   * three indexed branches (unique SKU index, unique barcode index, name index; an OR of the
   * first two makes MySQL scan the table), rows read raw. Only when nothing matched exactly, a
   * second statement looks for names with a word starting with q or SKUs starting with it (the
   * word index, as in list). With `stockIn`, each branch also reads the match's stock level in
   * that warehouse by its unique key (item, warehouse): a till's scan is one statement.
   */
  async search(q: string, options: SearchOptions): Promise<SearchHit[]> {
    const live = `i.deleted_at IS NULL AND i.is_active = ?${options.categoryId !== undefined ? ' AND i.category_id = ?' : ''}`;
    const liveParams = options.categoryId !== undefined ? [1, options.categoryId] : [1];
    const n = Math.max(1, Math.trunc(options.limit));
    const withStock = options.stockIn !== undefined;
    const stockCols = withStock ? ', sl.quantity AS sl_quantity, sl.reorder_level AS sl_reorder_level' : '';
    const stockJoin = withStock ? ' LEFT JOIN stock_levels sl ON sl.item_id = i.id AND sl.warehouse_id = ?' : '';
    const branch = (params: unknown[]) => (withStock ? [options.stockIn, ...params] : params);
    const params = [...branch([q, ...liveParams]), ...branch([q, ...liveParams]), ...branch([this.like(q, 'prefix'), ...liveParams])];
    // MySQL: each branch a parenthesised member and no ORDER BY over the union (sorting the union
    // put it in a temporary table first: 2.5x the statement's cost), ordered here instead by
    // (rank, the name's collation weight, id): WEIGHT_STRING compares bytewise as the collation
    // compares names. SQLite (in process, no such cost) sorts the union itself.
    const rows = this.isSqlite
      ? ((await this.em.query(
          `SELECT * FROM (SELECT 0 AS rnk, NULL AS sort_name, i.*${stockCols} FROM items i${stockJoin} WHERE i.sku = ? AND ${live} LIMIT ${n}) s
       UNION ALL SELECT * FROM (SELECT 0 AS rnk, NULL AS sort_name, i.*${stockCols} FROM items i${stockJoin} WHERE i.id IN (SELECT b.item_id FROM item_barcodes b WHERE b.barcode = ?) AND ${live} ORDER BY i.id LIMIT ${n}) b
       UNION ALL SELECT * FROM (SELECT 1 AS rnk, i.name AS sort_name, i.*${stockCols} FROM items i${stockJoin} WHERE i.name LIKE ?${this.esc} AND ${live} ORDER BY i.name, i.id LIMIT ${2 * n}) p
       ORDER BY rnk, sort_name, id`,
          params,
        )) as Record<string, unknown>[])
      : (
          (await this.em.query(
            `(SELECT 0 AS rnk, NULL AS sort_key, i.*${stockCols} FROM items i${stockJoin} WHERE i.sku = ? AND ${live} LIMIT ${n})
       UNION ALL (SELECT 0 AS rnk, NULL AS sort_key, i.*${stockCols} FROM items i${stockJoin} WHERE i.id IN (SELECT b.item_id FROM item_barcodes b WHERE b.barcode = ?) AND ${live} ORDER BY i.id LIMIT ${n})
       UNION ALL (SELECT 1 AS rnk, WEIGHT_STRING(i.name) AS sort_key, i.*${stockCols} FROM items i${stockJoin} WHERE i.name LIKE ?${this.esc} AND ${live} ORDER BY i.name, i.id LIMIT ${2 * n})`,
            params,
          )) as Record<string, unknown>[]
        ).sort(byRankNameAndId);
    const hit = (r: Record<string, unknown>): SearchHit => (withStock ? { item: itemFromRow(r), level: levelFromRow(r) } : { item: itemFromRow(r) });
    const exact = rows.filter((r) => Number(r.rnk) === 0).map(hit);
    const found = new Map<number, SearchHit>();
    for (const h of exact) if (found.size < n) found.set(h.item.id, h);
    for (const h of rows.filter((r) => Number(r.rnk) === 1).map(hit)) if (found.size < n && !found.has(h.item.id)) found.set(h.item.id, h);
    if (exact.length === 0 && found.size < n) {
      const m = matchingIds(this.dialect, q, false);
      const seen = [...found.keys()];
      const more = (await this.em.query(
        `SELECT i.*${stockCols} FROM (${m.sql}) m ${this.matchFirst} items i ON i.id = m.item_id${stockJoin} WHERE ${live}` +
          (m.nameCheck ? ` AND (i.name LIKE ?${this.esc} OR i.sku LIKE ?${this.esc})` : '') +
          (seen.length ? ` AND i.id NOT IN (${seen.map(() => '?').join(', ')})` : '') +
          ` ORDER BY i.name, i.id LIMIT ${n}`,
        [
          ...m.params,
          ...(withStock ? [options.stockIn] : []),
          ...liveParams,
          ...(m.nameCheck ? [this.like(q, 'contains'), this.like(q, 'prefix')] : []),
          ...seen,
        ],
      )) as Record<string, unknown>[];
      for (const h of more.map(hit)) if (found.size < n) found.set(h.item.id, h);
    }
    return [...found.values()];
  }

  find(id: number, withDeleted = false): Promise<ItemRecord | null> {
    return this.repo.findOneBy(withDeleted ? { id } : { id, deletedAt: IsNull() });
  }

  findByIds(ids: number[], withDeleted = false): Promise<ItemRecord[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.repo.findBy(withDeleted ? { id: In(ids) } : { id: In(ids), deletedAt: IsNull() });
  }

  async itemIdsByBarcode(barcode: string): Promise<number[]> {
    const rows = await this.em.getRepository(ItemBarcodeEntity).findBy({ barcode });
    return [...new Set(rows.map((r) => r.itemId))];
  }

  async setBasePrices(changes: { itemId: number; price: number }[], now: Date): Promise<void> {
    for (const c of changes) await this.repo.update({ id: c.itemId }, { basePrice: c.price, updatedAt: now, version: NEXT_VERSION });
  }

  findBySku(sku: string): Promise<ItemRecord | null> {
    return this.repo.createQueryBuilder('i').where('LOWER(i.sku) = LOWER(:sku)', { sku }).getOne();
  }

  async findByName(name: string, excludeId?: number): Promise<ItemRecord | null> {
    const qb = this.repo.createQueryBuilder('i').where('i.deleted_at IS NULL').andWhere('LOWER(i.name) = LOWER(:name)', { name });
    if (excludeId !== undefined) qb.andWhere('i.id <> :excludeId', { excludeId });
    return qb.getOne();
  }

  barcodes(itemIds: number[]): Promise<ItemBarcodeRecord[]> {
    return this.findInRaw(ItemBarcodeEntity, 'item_id', itemIds);
  }

  units(itemIds: number[]): Promise<ItemUnitRecord[]> {
    return this.findInRaw(ItemUnitEntity, 'item_id', itemIds);
  }

  /** One statement (a union) where there were three; a deleted item's row is read and dropped here. */
  async references(ids: number[]): Promise<ItemReferences> {
    const [items, units, barcodes] = await this.findInRawTogether([
      { entity: ItemEntity, column: 'id', values: ids },
      { entity: ItemUnitEntity, column: 'item_id', values: ids },
      { entity: ItemBarcodeEntity, column: 'item_id', values: ids },
    ] as const);
    return { items: items.filter((i) => i.deletedAt === null), units, barcodes };
  }

  /** One statement (a union) where there were three: a page's barcodes, units and category names. */
  async pageDetails(itemIds: number[], categoryIds: number[]): Promise<PageDetails> {
    const [barcodes, units, categories] = await this.findInRawTogether([
      { entity: ItemBarcodeEntity, column: 'item_id', values: itemIds },
      { entity: ItemUnitEntity, column: 'item_id', values: itemIds },
      { entity: CategoryEntity, column: 'id', values: categoryIds, columns: ['id', 'name'] },
    ] as const);
    return { barcodes, units, categories };
  }

  async barcodesTaken(barcodes: string[], excludeItemId?: number): Promise<string[]> {
    if (!barcodes.length) return [];
    const rows = await this.em
      .getRepository(ItemBarcodeEntity)
      .createQueryBuilder('b')
      .where('LOWER(b.barcode) IN (:...codes)', { codes: barcodes.map((b) => b.toLowerCase()) })
      .getMany();
    return rows.filter((r) => r.itemId !== excludeItemId).map((r) => r.barcode);
  }

  /**
   * A new item with its name's search rows, barcodes and units: inserts only. Deleting the rows
   * a new item cannot have yet is not harmless on MySQL: a DELETE that finds nothing locks the
   * gap at the end of the index, every concurrent create holds that same gap, and their inserts
   * into it deadlock each other.
   */
  async create(item: ItemWrite, barcodes: string[], units: UnitWrite[], now: Date): Promise<ItemRecord> {
    const saved = await this.repo.save(this.repo.create({ ...item, version: 1, createdAt: now, updatedAt: now, deletedAt: null }));
    await this.nameIndex.write(saved.id, saved.name, saved.isActive);
    await this.insertBarcodesAndUnits(saved.id, barcodes, units, now);
    return saved;
  }

  async update(id: number, item: Partial<ItemWrite>, now: Date): Promise<void> {
    await this.repo.update({ id }, { ...item, updatedAt: now, version: NEXT_VERSION });
    if (item.name !== undefined) await this.indexName(id, item.name, item.isActive);
    else if (item.isActive !== undefined) await this.nameIndex.setActive(id, item.isActive);
  }

  async lockVersion(id: number): Promise<number | null> {
    const rows = (await this.em.query(`SELECT version FROM items WHERE id = ? AND deleted_at IS NULL${this.isSqlite ? '' : ' FOR UPDATE'}`, [id])) as {
      version: number | string;
    }[];
    return rows.length ? Number(rows[0].version) : null;
  }

  /** The item's rows of the name search indexes, written again from its name and active flag (read when not given), in the caller's transaction. */
  private async indexName(id: number, name: string, isActive: boolean | undefined): Promise<void> {
    await this.nameIndex.drop(id);
    if (isActive === undefined) {
      const [row] = (await this.em.query('SELECT is_active FROM items WHERE id = ?', [id])) as { is_active: number | string | boolean }[];
      isActive = Boolean(Number(row.is_active));
    }
    await this.nameIndex.write(id, name, isActive);
  }

  /** The name search indexes' writes, on this repository's connection (the transaction's when in one). */
  private get nameIndex(): ItemNameIndex {
    return new ItemNameIndex((sql, params) => this.em.query(sql, params), { sqlite: this.isSqlite });
  }

  rebuildNameIndex(): Promise<number> {
    return fillItemNameWords(this.em);
  }

  async replaceBarcodesAndUnits(itemId: number, barcodes: string[] | undefined, units: UnitWrite[] | undefined, now: Date): Promise<void> {
    const codes = this.em.getRepository(ItemBarcodeEntity);
    if (units !== undefined) {
      await codes.delete({ itemId, itemUnitId: In((await this.units([itemId])).map((u) => u.id).concat([-1])) });
      await this.em.getRepository(ItemUnitEntity).delete({ itemId });
    }
    if (barcodes !== undefined) await codes.delete({ itemId, itemUnitId: IsNull() });
    await this.insertBarcodesAndUnits(itemId, barcodes ?? [], units ?? [], now);
  }

  private async insertBarcodesAndUnits(itemId: number, barcodes: string[], units: UnitWrite[], now: Date): Promise<void> {
    const codes = this.em.getRepository(ItemBarcodeEntity);
    for (const u of units) {
      const saved = await this.em
        .getRepository(ItemUnitEntity)
        .save({ itemId, name: u.name, factor: u.factor, price: u.price, createdAt: now, updatedAt: now });
      if (u.barcode) await codes.insert({ itemId, barcode: u.barcode, itemUnitId: saved.id });
    }
    if (barcodes.length) await codes.insert(barcodes.map((barcode) => ({ itemId, barcode, itemUnitId: null })));
  }

  async softDelete(id: number, at: Date): Promise<void> {
    await this.repo.update({ id }, { deletedAt: at, updatedAt: at, isActive: false, version: NEXT_VERSION });
    // Only live items are searched: their word and prefix rows go with them.
    await this.nameIndex.drop(id);
  }

  activePage(afterId: number, limit: number): Promise<ItemRecord[]> {
    return this.repo
      .createQueryBuilder('i')
      .where('i.id > :afterId', { afterId })
      .andWhere('i.deleted_at IS NULL')
      .andWhere('i.is_active = :active', { active: true })
      .orderBy('i.id', 'ASC')
      .limit(limit)
      .getMany();
  }

  /**
   * One UNION of the two (or three) id sources, each a range scan of its own index (items by
   * updated_at, stock by warehouse and updated_at) cut at the cursor, then paged by id.
   */
  async changedIds(q: ItemChangeQuery): Promise<number[]> {
    const since = this.isSqlite ? q.since.toISOString().replace('T', ' ').replace('Z', '') : q.since;
    const list = (ids: number[]) => ids.map(() => '?').join(', ');
    const parts = ['SELECT id FROM items WHERE updated_at >= ? AND id > ?'];
    const params: unknown[] = [since, q.afterId];
    if (q.warehouseIds.length) {
      parts.push(`SELECT item_id AS id FROM stock_levels WHERE warehouse_id IN (${list(q.warehouseIds)}) AND updated_at >= ? AND item_id > ?`);
      params.push(...q.warehouseIds, since, q.afterId);
    }
    if (q.newWarehouseIds.length) {
      parts.push(`SELECT item_id AS id FROM stock_levels WHERE warehouse_id IN (${list(q.newWarehouseIds)}) AND item_id > ?`);
      params.push(...q.newWarehouseIds, q.afterId);
    }
    const rows = (await this.em.query(`SELECT u.id FROM (${parts.join(' UNION ')}) u ORDER BY u.id LIMIT ?`, [...params, q.limit])) as {
      id: number | string;
    }[];
    return rows.map((r) => Number(r.id));
  }
}

/** The order of `ORDER BY rnk, name, id` from a rank, the name's collation weight (bytes, or null) and the id. */
function byRankNameAndId(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const weight = (v: unknown) => (v === null || v === undefined ? Buffer.alloc(0) : Buffer.isBuffer(v) ? v : Buffer.from(String(v), 'binary'));
  return Number(a.rnk) - Number(b.rnk) || Buffer.compare(weight(a.sort_key), weight(b.sort_key)) || Number(a.id) - Number(b.id);
}

/** The stock level columns a search with `stockIn` adds (null: the item has no level row in that warehouse). */
function levelFromRow(r: Record<string, unknown>): SearchHit['level'] {
  if (r.sl_quantity === null || r.sl_quantity === undefined) return null;
  return { quantity: Number(r.sl_quantity), reorderLevel: r.sl_reorder_level === null || r.sl_reorder_level === undefined ? null : Number(r.sl_reorder_level) };
}
