import { Injectable } from '@nestjs/common';
import { fromMinor } from '@pos/kernel';
import { CategoryRecord, ItemBarcodeRecord, ItemCatalog, ItemRecord, ItemUnitRecord, StockLedger, StockLevelRecord } from '@pos/catalog';
import { CustomerService } from '@pos/customers';
import { LivePriceService, ReferenceService } from '@pos/pricing';
import { ChangeLog } from '@pos/platform';
import { StoreFrame } from './store-frame';

/** Record types paged by id (the small reference sets travel whole, see StoreFrames). */
export const RECORD_TYPES = ['categories', 'price_book_entries', 'customers', 'items'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];
/** Types whose deletions a delta reports (price-book entries are dropped with their book). */
export const DELETABLE_TYPES = ['categories', 'customers', 'items'] as const;
export type DeletableType = (typeof DELETABLE_TYPES)[number];
/** A delta first reports deletions (tombstones), then the changed records of each type. */
export type Section = RecordType | 'deleted';

const TOMBSTONE_TYPES: Record<string, DeletableType> = { item: 'items', category: 'categories', customer: 'customers' };

/** What a delta asks beyond the initial download: changes at or after `since`, and what became visible without changing. */
export interface ChangeWindow {
  since: Date;
  newWarehouseIds: number[];
  newPriceBookIds: number[];
}

/** Rows of one section read for one page: `rows` counts toward the page limit, `lastId` is the cursor. */
export interface SectionRead {
  records: unknown[];
  deleted: { type: DeletableType; id: number }[];
  rows: number;
  lastId: number;
}

/**
 * Reads one section of a download, a page at a time in id order, through the published read
 * queries of the owning contexts (catalog, pricing, customers, platform's tombstones): never
 * their tables. In a delta, a changed record the terminal must no longer sell with (deleted,
 * deactivated) is reported among the deleted ids of its type.
 */
@Injectable()
export class FeedSections {
  constructor(
    private readonly items: ItemCatalog,
    private readonly stock: StockLedger,
    private readonly prices: LivePriceService,
    private readonly reference: ReferenceService,
    private readonly customers: CustomerService,
    private readonly changes: ChangeLog,
  ) {}

  read(section: Section, frame: StoreFrame, afterId: number, limit: number, window: ChangeWindow | null): Promise<SectionRead> {
    switch (section) {
      case 'deleted':
        return this.tombstones(window!, afterId, limit);
      case 'categories':
        return this.categories(afterId, limit, window);
      case 'price_book_entries':
        return this.priceBookEntries(frame, afterId, limit, window);
      case 'customers':
        return this.customerPage(afterId, limit, window);
      case 'items':
        return this.itemPage(frame, afterId, limit, window);
    }
  }

  private async tombstones(window: ChangeWindow, afterId: number, limit: number): Promise<SectionRead> {
    const rows = await this.changes.tombstonesSince(Object.keys(TOMBSTONE_TYPES), window.since, afterId, limit);
    return {
      records: [],
      deleted: rows.map((t) => ({ type: TOMBSTONE_TYPES[t.entity], id: t.entityId })),
      rows: rows.length,
      lastId: rows.at(-1)?.id ?? afterId,
    };
  }

  private async categories(afterId: number, limit: number, window: ChangeWindow | null): Promise<SectionRead> {
    const rows = await this.items.categoryPage(afterId, limit, window?.since);
    const out: SectionRead = { records: [], deleted: [], rows: rows.length, lastId: rows.at(-1)?.id ?? afterId };
    for (const c of rows) {
      if (c.deletedAt) out.deleted.push({ type: 'categories', id: c.id });
      else out.records.push(categoryRecordView(c));
    }
    return out;
  }

  private async priceBookEntries(frame: StoreFrame, afterId: number, limit: number, window: ChangeWindow | null): Promise<SectionRead> {
    const rows = await this.reference.priceBookEntryPage(
      frame.priceBookIds,
      { afterId, limit, changedSince: window?.since, wholeBookIds: window?.newPriceBookIds },
      frame.decimals,
    );
    return { records: rows, deleted: [], rows: rows.length, lastId: rows.at(-1)?.id ?? afterId };
  }

  private async customerPage(afterId: number, limit: number, window: ChangeWindow | null): Promise<SectionRead> {
    const rows = await this.customers.syncPage(afterId, limit, window?.since);
    const out: SectionRead = { records: [], deleted: [], rows: rows.length, lastId: rows.at(-1)?.id ?? afterId };
    for (const c of rows) {
      if (c.deleted) out.deleted.push({ type: 'customers', id: c.id });
      else out.records.push(c.view);
    }
    return out;
  }

  private async itemPage(frame: StoreFrame, afterId: number, limit: number, window: ChangeWindow | null): Promise<SectionRead> {
    let ids: number[];
    let rows: ItemRecord[];
    if (!window) {
      rows = await this.items.page(afterId, limit);
      ids = rows.map((i) => i.id);
    } else {
      ids = await this.items.changedIds({
        since: window.since,
        warehouseIds: frame.warehouseIds,
        newWarehouseIds: window.newWarehouseIds,
        afterId,
        limit,
      });
      rows = await this.items.findByIds(ids, true);
    }
    const byId = new Map(rows.map((i) => [i.id, i]));
    const sellable = ids.map((id) => byId.get(id)).filter((i): i is ItemRecord => !!i && i.isActive && !i.deletedAt);
    const records = await this.itemViews(frame, sellable);
    const keep = new Set(sellable.map((i) => i.id));
    return {
      records,
      deleted: ids.filter((id) => !keep.has(id)).map((id) => ({ type: 'items' as const, id })),
      rows: ids.length,
      lastId: ids.at(-1) ?? afterId,
    };
  }

  /** Items with units, barcodes, stock in the store's warehouses and the live price: five queries a page, not per item. */
  private async itemViews(frame: StoreFrame, items: ItemRecord[]) {
    if (!items.length) return [];
    const ids = items.map((i) => i.id);
    const [units, barcodes, levels, prices] = await Promise.all([
      this.items.units(ids),
      this.items.barcodes(ids),
      this.stock.levels(ids, frame.warehouseIds),
      this.prices.unitPrices(items, frame.store),
    ]);
    const group = <T extends { itemId: number }>(rows: T[]) => {
      const map = new Map<number, T[]>();
      for (const r of rows) {
        const list = map.get(r.itemId);
        if (list) list.push(r);
        else map.set(r.itemId, [r]);
      }
      return map;
    };
    const [unitsOf, codesOf, levelsOf] = [group(units), group(barcodes), group(levels)];
    return items.map((i) => itemRecordView(i, frame, unitsOf.get(i.id) ?? [], codesOf.get(i.id) ?? [], levelsOf.get(i.id) ?? [], prices.get(i.id)));
  }
}

function categoryRecordView(c: CategoryRecord) {
  return {
    id: c.id,
    parent_id: c.parentId,
    name: c.name,
    slug: c.slug,
    description: c.description,
    is_active: c.isActive,
    sort_order: c.sortOrder,
    updated_at: c.updatedAt.toISOString(),
  };
}

function itemRecordView(
  i: ItemRecord,
  frame: StoreFrame,
  units: ItemUnitRecord[],
  barcodes: ItemBarcodeRecord[],
  levels: StockLevelRecord[],
  live: { price: number; source: string } | undefined,
) {
  const m = (v: number) => fromMinor(v, frame.decimals);
  return {
    id: i.id,
    sku: i.sku,
    name: i.name,
    description: i.description,
    category_id: i.categoryId,
    base_price: m(i.basePrice),
    price: m(live?.price ?? i.basePrice),
    price_source: live?.source ?? 'base',
    tax_class_id: i.taxClassId,
    tax_rate: i.taxClassId === null ? 0 : (frame.taxRates.get(i.taxClassId) ?? 0),
    base_unit: i.baseUnit,
    is_serial_tracked: i.isSerialTracked,
    reorder_level: i.reorderLevel,
    barcodes: barcodes.filter((b) => b.itemUnitId === null).map((b) => b.barcode),
    units: units.map((u) => ({
      id: u.id,
      name: u.name,
      factor: u.factor,
      price: u.price === null ? null : m(u.price),
      barcode: barcodes.find((b) => b.itemUnitId === u.id)?.barcode ?? null,
    })),
    stock: frame.warehouseIds.map((w) => ({ warehouse_id: w, quantity: levels.find((l) => l.warehouseId === w)?.quantity ?? 0 })),
    updated_at: i.updatedAt.toISOString(),
  };
}
