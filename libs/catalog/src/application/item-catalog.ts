import { Injectable } from '@nestjs/common';
import { Page, PageRequest } from '@pos/kernel';
import { CategoryRecord, ItemBarcodeRecord, ItemRecord, ItemUnitRecord } from './catalog.records';
import { CategoryRepository, ItemChangeQuery, ItemFilter, ItemRepository, SearchHit, SearchOptions } from './catalog.ports';
import { ItemReferenceCache } from './item-reference.cache';

/**
 * Published by the catalog: read-only access to items, their units and barcodes, for contexts
 * that price, sell or report on them. Writes stay in ItemService (back office). Live items, units
 * and barcodes by id come from the per-process ItemReferenceCache (current within
 * REFERENCE_CACHE_TTL_MS, at once after a write through ItemService).
 */
@Injectable()
export class ItemCatalog {
  constructor(
    private readonly items: ItemRepository,
    private readonly categories: CategoryRepository,
    private readonly reference: ItemReferenceCache,
  ) {}

  list(filter: ItemFilter, page: PageRequest): Promise<Page<ItemRecord>> {
    return this.items.list(filter, page);
  }

  /**
   * POS search over active items: exact barcode or SKU first, then name prefixes, then names with
   * a word starting with q. With `stockIn`, each match's stock level in that warehouse is read in
   * the same statement (items and levels are both the catalog's: a scan costs one round trip).
   */
  search(q: string, options: SearchOptions): Promise<SearchHit[]> {
    return this.items.search(q, options);
  }

  find(id: number, withDeleted = false): Promise<ItemRecord | null> {
    return this.items.find(id, withDeleted);
  }

  /** Live items by id, in the order asked; with `withDeleted`, deleted ones too (old sales point at them: read each time). */
  async findByIds(ids: number[], withDeleted = false): Promise<ItemRecord[]> {
    if (withDeleted) return this.items.findByIds(ids, true);
    return [...(await this.reference.of(ids)).values()].flatMap((r) => (r ? [r.item] : []));
  }

  /** Units of live items. */
  async units(itemIds: number[]): Promise<ItemUnitRecord[]> {
    return [...(await this.reference.of(itemIds)).values()].flatMap((r) => r?.units ?? []);
  }

  /** Barcodes of live items (of the item and of its units). */
  async barcodes(itemIds: number[]): Promise<ItemBarcodeRecord[]> {
    return [...(await this.reference.of(itemIds)).values()].flatMap((r) => r?.barcodes ?? []);
  }

  /** Ids of the live items among those given. */
  async existingIds(ids: number[]): Promise<Set<number>> {
    const out = new Set<number>();
    for (let i = 0; i < ids.length; i += 1000) for (const item of await this.findByIds(ids.slice(i, i + 1000))) out.add(item.id);
    return out;
  }

  /** Ids of the items a barcode (of the item or one of its units) belongs to. */
  itemIdsByBarcode(barcode: string): Promise<number[]> {
    return this.items.itemIdsByBarcode(barcode);
  }

  /** Ids of the live categories among those given. */
  async existingCategoryIds(ids: number[]): Promise<Set<number>> {
    return new Set((await this.categories.findByIds(ids)).filter((c) => !c.deletedAt).map((c) => c.id));
  }

  /** Offline sync's full download: live, active items after an id, in id order. */
  page(afterId: number, limit: number): Promise<ItemRecord[]> {
    return this.items.activePage(afterId, limit);
  }

  /**
   * Offline sync's delta: ids, after an id and in id order, of items changed at or after `since`
   * (the item, its units or barcodes: they all bump the item's updated_at; deleted and deactivated
   * ones included), or whose stock changed since then in one of `warehouseIds`, or stocked at all
   * in `newWarehouseIds`.
   */
  changedIds(query: ItemChangeQuery): Promise<number[]> {
    return this.items.changedIds(query);
  }

  /** Offline sync: live categories after an id in id order; with `changedSince`, those changed since, deleted ones included. */
  categoryPage(afterId: number, limit: number, changedSince?: Date): Promise<CategoryRecord[]> {
    return this.categories.syncPage(afterId, limit, changedSince);
  }
}
