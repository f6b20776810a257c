import { ChangeRead, Page, PageRequest } from '@pos/kernel';
import { CategoryRecord, ItemBarcodeRecord, ItemRecord, ItemUnitRecord, SerialNumberRecord, StockLevelRecord, StockMovementRecord } from './catalog.records';
import { StoreScope } from './store.ports';
import { StockStatus } from '../domain/stock-status';

export interface CategoryFilter {
  parentId?: number | null;
  q?: string;
  isActive?: boolean;
}

export abstract class CategoryRepository {
  abstract list(filter: CategoryFilter, page: PageRequest): Promise<Page<CategoryRecord>>;
  abstract all(): Promise<CategoryRecord[]>;
  abstract find(id: number): Promise<CategoryRecord | null>;
  abstract findByIds(ids: number[]): Promise<CategoryRecord[]>;
  abstract findSibling(name: string, parentId: number | null, excludeId?: number): Promise<CategoryRecord | null>;
  abstract itemCounts(categoryIds: number[]): Promise<Map<number, number>>;
  abstract childCount(id: number): Promise<number>;
  abstract save(category: Partial<CategoryRecord> & { name: string }): Promise<CategoryRecord>;
  abstract softDelete(id: number, at: Date): Promise<void>;
  /** Live categories after an id in id order; with `changedSince`, those changed since (deleted ones included). */
  abstract syncPage(afterId: number, limit: number, changedSince?: Date): Promise<CategoryRecord[]>;
}

/** What the offline-sync delta asks of items (see ItemCatalog.changedIds). */
export interface ItemChangeQuery {
  since: Date;
  /** Stock changed in these warehouses since then also counts as a change of the item. */
  warehouseIds: number[];
  /** Every item stocked in these warehouses counts as changed (warehouses the device has not seen). */
  newWarehouseIds: number[];
  afterId: number;
  limit: number;
}

export interface ItemFilter {
  q?: string;
  categoryId?: number;
  isActive?: boolean;
  /** Change mode (issue 26): as a list, plus deleted items, in (updated_at, id) order up to the horizon. */
  change?: ChangeRead;
}

/** The writable fields of an item (everything but identity and timestamps). */
export type ItemWrite = Omit<ItemRecord, 'id' | 'version' | 'createdAt' | 'updatedAt' | 'deletedAt'>;

export interface UnitWrite {
  name: string;
  factor: number;
  price: number | null;
  barcode: string | null;
}

export interface SearchOptions {
  categoryId?: number;
  limit: number;
  /** Read each match's stock level in this warehouse in the same statement (a till's lookup). */
  stockIn?: number;
}

/** A search match; `level` only when `stockIn` was asked (null: no level row in that warehouse). */
export interface SearchHit {
  item: ItemRecord;
  level?: Pick<StockLevelRecord, 'quantity' | 'reorderLevel'> | null;
}

/** Live items with their units and barcodes (ItemRepository.references). */
export interface ItemReferences {
  items: ItemRecord[];
  units: ItemUnitRecord[];
  barcodes: ItemBarcodeRecord[];
}

/** What an item page's views need besides the items (ItemRepository.pageDetails). */
export interface PageDetails {
  barcodes: ItemBarcodeRecord[];
  units: ItemUnitRecord[];
  categories: { id: number; name: string }[];
}

/** A page of items and, when they could be read along with it, the details its views need (else null: read them with pageDetails). */
export interface ItemListPage {
  page: Page<ItemRecord>;
  details: PageDetails | null;
}

export abstract class ItemRepository {
  abstract list(filter: ItemFilter, page: PageRequest): Promise<Page<ItemRecord>>;
  /**
   * As list, with the page's barcodes, units and category names in the page's own statement where
   * it can (GET /items). Given `knownTotal` (the filter's total, held), it is the page's total
   * unless the page itself tells it, and nothing is counted.
   */
  abstract listWithDetails(filter: ItemFilter, page: PageRequest, knownTotal?: number): Promise<ItemListPage>;
  /**
   * POS search over active items: exact barcode or SKU matches first, then names starting with
   * q, then (only when nothing matched exactly) names with a word starting with q or SKUs
   * starting with it.
   */
  abstract search(q: string, options: SearchOptions): Promise<SearchHit[]>;
  abstract find(id: number, withDeleted?: boolean): Promise<ItemRecord | null>;
  abstract findByIds(ids: number[], withDeleted?: boolean): Promise<ItemRecord[]>;
  abstract itemIdsByBarcode(barcode: string): Promise<number[]>;
  /** Absolute base prices (re-applying is harmless). */
  abstract setBasePrices(changes: { itemId: number; price: number }[], now: Date): Promise<void>;
  abstract findBySku(sku: string): Promise<ItemRecord | null>;
  abstract findByName(name: string, excludeId?: number): Promise<ItemRecord | null>;
  abstract barcodes(itemIds: number[]): Promise<ItemBarcodeRecord[]>;
  abstract units(itemIds: number[]): Promise<ItemUnitRecord[]>;
  /** Live items by id with their units and barcodes (each in id order), in one read: the till's references. */
  abstract references(ids: number[]): Promise<ItemReferences>;
  /** A page's barcodes and units (by item id, in id order) and its categories' names, in one read. */
  abstract pageDetails(itemIds: number[], categoryIds: number[]): Promise<PageDetails>;
  /** Barcodes already used by other items (or other units), of those given. */
  abstract barcodesTaken(barcodes: string[], excludeItemId?: number): Promise<string[]>;
  /** A new item with its barcodes and units (inserts only: see the adapter on why). */
  abstract create(item: ItemWrite, barcodes: string[], units: UnitWrite[], now: Date): Promise<ItemRecord>;
  abstract update(id: number, item: Partial<ItemWrite>, now: Date): Promise<void>;
  /**
   * A live item's version, its row locked until the caller's transaction ends (MySQL: FOR UPDATE;
   * SQLite runs one writer at a time), so a write checked against it cannot be overtaken by
   * another; null when there is no live item. Every write of the row moves `version` on by one.
   */
  abstract lockVersion(id: number): Promise<number | null>;
  abstract replaceBarcodesAndUnits(itemId: number, barcodes: string[] | undefined, units: UnitWrite[] | undefined, now: Date): Promise<void>;
  abstract softDelete(id: number, at: Date): Promise<void>;
  /** Live, active items after an id, in id order. */
  abstract activePage(afterId: number, limit: number): Promise<ItemRecord[]>;
  abstract changedIds(query: ItemChangeQuery): Promise<number[]>;
  /** Rewrites the name search index of every item (after items were written around the repository, e.g. a raw import); the rows written. */
  abstract rebuildNameIndex(): Promise<number>;
}

export interface InventoryFilter {
  scope: StoreScope;
  storeId?: number;
  warehouseId?: number;
  itemId?: number;
  status?: StockStatus;
  /** Change mode (issue 26): levels after the position in (updated_at, id) order up to the horizon. */
  change?: ChangeRead;
}

export interface InventoryRow {
  /** The stock level's id (one per item and warehouse). */
  id: number;
  itemId: number;
  sku: string;
  itemName: string;
  warehouseId: number;
  warehouseName: string;
  storeId: number | null;
  quantity: number;
  reorderLevel: number;
  updatedAt: Date;
}

export interface MovementFilter {
  scope: StoreScope;
  itemId?: number;
  warehouseId?: number;
  type?: string;
  from?: Date;
  to?: Date;
}

export interface NewMovement {
  itemId: number;
  warehouseId: number;
  type: string;
  delta: number;
  unitCost: number | null;
  referenceType: string | null;
  referenceId: string | null;
  userId: number | null;
  notes: string | null;
}

/** A stock level with the item facts reports value and classify it by (read only). */
export interface StockSnapshotRow {
  itemId: number;
  sku: string;
  name: string;
  categoryId: number | null;
  categoryName: string | null;
  /** Current cost of one base unit (minor units of the base currency). */
  cost: number;
  isActive: boolean;
  warehouseId: number;
  quantity: number;
  /** The warehouse's override, else the item's. */
  reorderLevel: number;
  reorderQuantity: number;
}

export abstract class StockRepository {
  /** Every stock level of live items in these warehouses, with item facts (reports). */
  abstract snapshot(warehouseIds: number[]): Promise<StockSnapshotRow[]>;
  /** Movement rows with id > afterId, in id order (rebuilding rollups). */
  abstract movementsAfter(afterId: number, limit: number): Promise<StockMovementRecord[]>;
  abstract levels(itemIds: number[], warehouseIds: number[]): Promise<StockLevelRecord[]>;
  abstract levelsForItem(itemId: number): Promise<StockLevelRecord[]>;
  /**
   * Changes a stock level by delta and records the movement, atomically. With `floor` set, the
   * change is refused (returns null) when it would take the quantity below it.
   */
  abstract move(
    movement: NewMovement,
    floor: number | null,
    now: Date,
  ): Promise<{ before: number; after: number; movementId: number; reorderLevel: number | null } | null>;
  /**
   * `move` for several movements in one go (a sale's lines, given in lock order): one conditional
   * UPDATE each, then the levels read in one query and the movements written in one multi-row
   * INSERT. Returns the index of the first movement refused by the floor (nothing is written for
   * the batch then: the caller's transaction rolls back), else each movement's result in order.
   */
  abstract moveMany(
    movements: NewMovement[],
    floor: number | null,
    now: Date,
  ): Promise<{ refused: number } | { moved: { before: number; after: number; movementId: number; reorderLevel: number | null }[] }>;
  abstract setReorderLevel(itemId: number, warehouseId: number, reorderLevel: number | null, now: Date): Promise<void>;
  abstract inventory(filter: InventoryFilter, page: PageRequest): Promise<Page<InventoryRow>>;
  abstract movements(filter: MovementFilter, page: PageRequest): Promise<Page<StockMovementRecord>>;
  abstract serials(itemId: number, filter: { warehouseId?: number; status?: string; serials?: string[] }): Promise<SerialNumberRecord[]>;
  abstract addSerials(itemId: number, warehouseId: number, serials: string[], now: Date): Promise<void>;
  abstract updateSerials(ids: number[], changes: { warehouseId?: number | null; status?: string; saleId?: number | null }, now: Date): Promise<void>;
}

/**
 * Tax classes are the pricing context's; an item only points at one. The catalog reads the two
 * facts it needs (does the class exist, what is it called) through this narrow port of its own,
 * rather than depending on pricing (which depends on the catalog).
 */
export abstract class TaxClassDirectory {
  abstract find(ids: number[]): Promise<{ id: number; name: string; code: string }[]>;
}

/**
 * The currency chain-wide catalog amounts are kept in (item prices and costs, unit prices, rule
 * amounts, bundle prices): the chain's base currency (`currencies.is_base`). Money has no default
 * scale, so the catalog reads and writes those amounts with its decimals. Currencies belong to
 * the pricing context, which depends on the catalog: this narrow port of the catalog's own reads
 * the one fact it needs.
 */
export abstract class CatalogCurrency {
  /** The base currency's decimals; 409 `base_currency_missing` when no currency is marked base. */
  abstract decimals(): Promise<number>;
}
