import { Injectable } from '@nestjs/common';
import { assertVersion, Clock, ConflictError, ExpectedVersions, fromMinor, NotFoundError, Page, PageRequest, ValidationFailedError } from '@pos/kernel';
import { Principal } from '@pos/identity';
import { AuditLog, ChangeLog, defineEvent, isUniqueViolation, Transactional } from '@pos/platform';
import { ItemBarcodeRecord, ItemRecord, ItemUnitRecord, StockLevelRecord } from './catalog.records';
import {
  CatalogCurrency,
  CategoryRepository,
  ItemFilter,
  ItemRepository,
  ItemWrite,
  PageDetails,
  StockRepository,
  TaxClassDirectory,
  UnitWrite,
} from './catalog.ports';
import { StoreContext } from './store-context';
import { ItemListTotals } from './item-list-totals';
import { ItemReferenceCache } from './item-reference.cache';
import { ItemPriceHistoryRepository } from './item-price-history';
import { stockStatus } from '../domain/stock-status';
import { PriceUpdated } from './catalog.events';

export interface ItemView {
  id: number;
  sku: string;
  name: string;
  description: string | null;
  category_id: number | null;
  category: { id: number; name: string } | null;
  base_price: number;
  cost: number;
  tax_class_id: number | null;
  base_unit: string;
  is_active: boolean;
  is_serial_tracked: boolean;
  reorder_level: number;
  reorder_quantity: number;
  barcodes: string[];
  units: { id: number; name: string; factor: number; price: number | null; barcode: string | null }[];
  /** 1 when created, +1 on every write (a PUT may send it back, or If-Match, to refuse overwriting a newer edit). */
  version: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface ItemInput {
  sku?: string;
  name?: string;
  description?: string | null;
  categoryId?: number | null;
  basePrice?: number;
  cost?: number;
  taxClassId?: number | null;
  baseUnit?: string;
  isActive?: boolean;
  isSerialTracked?: boolean;
  reorderLevel?: number;
  reorderQuantity?: number;
  barcodes?: string[];
  units?: UnitWrite[];
  warehouseReorderLevels?: { warehouseId: number; reorderLevel: number | null }[];
}

/** Integration events: items as GET /integration/data/items shows them (item.deleted: deleted_at set). Here, beside ItemView, not in catalog.events.ts: no import cycle. */
export const ItemCreated = defineEvent<{ item: ItemView }>('item.created');
export const ItemUpdated = defineEvent<{ item: ItemView }>('item.updated');
export const ItemDeleted = defineEvent<{ item: ItemView }>('item.deleted');

/** An item's selling units (a case of 12) with their own price and barcode (`decimals`: the currency the price is read in). */
export function unitViews(itemId: number, units: ItemUnitRecord[], barcodes: ItemBarcodeRecord[], decimals: number) {
  return units
    .filter((u) => u.itemId === itemId)
    .map((u) => ({
      id: u.id,
      name: u.name,
      factor: u.factor,
      price: u.price === null ? null : fromMinor(u.price, decimals),
      barcode: barcodes.find((b) => b.itemUnitId === u.id)?.barcode ?? null,
    }));
}

/** What the audit trail keeps of an item: its identity and its prices (minor units). */
function priceFacts(i: Pick<ItemRecord, 'sku' | 'name' | 'basePrice' | 'cost'>) {
  return { sku: i.sku, name: i.name, base_price: i.basePrice, cost: i.cost };
}

/** An item with its amounts in the catalog currency (`decimals`: the base currency's). */
export function itemView(
  i: ItemRecord,
  barcodes: ItemBarcodeRecord[],
  units: ItemUnitRecord[],
  category: { id: number; name: string } | null,
  decimals: number,
): ItemView {
  const own = barcodes.filter((b) => b.itemId === i.id);
  return {
    id: i.id,
    sku: i.sku,
    name: i.name,
    description: i.description,
    category_id: i.categoryId,
    category,
    base_price: fromMinor(i.basePrice, decimals),
    cost: fromMinor(i.cost, decimals),
    tax_class_id: i.taxClassId,
    base_unit: i.baseUnit,
    is_active: i.isActive,
    is_serial_tracked: i.isSerialTracked,
    reorder_level: i.reorderLevel,
    reorder_quantity: i.reorderQuantity,
    barcodes: own.filter((b) => b.itemUnitId === null).map((b) => b.barcode),
    units: unitViews(i.id, units, own, decimals),
    version: i.version,
    created_at: i.createdAt.toISOString(),
    updated_at: i.updatedAt.toISOString(),
    deleted_at: i.deletedAt?.toISOString() ?? null,
  };
}

/**
 * Items (chain-wide catalog) and their back-office management. SKUs and barcodes are unique
 * across the catalog (deleted items keep theirs, so an old barcode never scans as a new item).
 * A deleted item stays readable by id (old sales show it) but leaves lists and lookups.
 */
@Injectable()
export class ItemService {
  constructor(
    private readonly items: ItemRepository,
    private readonly categories: CategoryRepository,
    private readonly taxClasses: TaxClassDirectory,
    private readonly stock: StockRepository,
    private readonly stores: StoreContext,
    private readonly changes: ChangeLog,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
    private readonly reference: ItemReferenceCache,
    private readonly priceHistory: ItemPriceHistoryRepository,
    private readonly currency: CatalogCurrency,
    private readonly totals: ItemListTotals,
  ) {}

  /**
   * Serial tracking changes only while the item has no stock: units on hand without serials could
   * then be neither sold nor written off, and serials left in stock would outnumber the level.
   */
  private async assertNoStock(id: number): Promise<void> {
    const onHand = (await this.stock.levelsForItem(id)).some((l) => l.quantity !== 0);
    if (onHand || (await this.stock.serials(id, { status: 'in_stock' })).length)
      throw new ConflictError(
        'item_has_stock',
        'Serial tracking can change only while the item has no stock: bring its levels to zero first (a count, or a write-off by serial number).',
      );
  }

  /** Rewrites the name search index from the items (after a raw import, e.g. the benchmark seeders); the rows written. */
  rebuildNameIndex(): Promise<number> {
    return this.items.rebuildNameIndex();
  }

  /**
   * A page of item views: a plain page or a search's first page in one statement with its details
   * (listWithDetails), counted only when the filter's total is not held (ItemListTotals).
   */
  async list(filter: ItemFilter, page: PageRequest): Promise<Page<ItemView>> {
    const read = await this.totals.page(filter, async (known) => {
      const r = await this.items.listWithDetails(filter, page, known);
      return { ...r, total: r.page.total };
    });
    return this.withDetails(read.page, read.details);
  }

  /** Views for a page of items: barcodes, units and category names `known` already, or in one read, never per row. */
  async withDetails(result: Page<ItemRecord>, known: PageDetails | null = null): Promise<Page<ItemView>> {
    const ids = result.items.map((i) => i.id);
    const categoryIds = [...new Set(result.items.map((i) => i.categoryId).filter((c): c is number => c !== null))];
    const [{ barcodes, units, categories }, decimals] = await Promise.all([known ?? this.items.pageDetails(ids, categoryIds), this.currency.decimals()]);
    return result.map((i) => {
      const c = categories.find((cat) => cat.id === i.categoryId);
      return itemView(i, barcodes, units, c ? { id: c.id, name: c.name } : null, decimals);
    });
  }

  async checkName(name: string, excludeId?: number): Promise<{ name: string; available: boolean; existing_id: number | null }> {
    const existing = await this.items.findByName(name.trim(), excludeId);
    return { name, available: !existing, existing_id: existing?.id ?? null };
  }

  async show(principal: Principal, id: number) {
    const item = await this.items.find(id, true);
    if (!item) throw new NotFoundError('Item');
    // Barcodes and units in one read; the category on its own (a deleted category is not shown).
    const [{ barcodes, units }, category, levels, taxClasses, decimals] = await Promise.all([
      this.items.pageDetails([id], []),
      item.categoryId ? this.categories.find(item.categoryId) : Promise.resolve(null),
      this.stock.levelsForItem(id),
      item.taxClassId ? this.taxClasses.find([item.taxClassId]) : Promise.resolve([]),
      this.currency.decimals(),
    ]);
    return {
      ...itemView(item, barcodes, units, category ? { id: category.id, name: category.name } : null, decimals),
      tax_class: taxClasses[0] ? { id: taxClasses[0].id, name: taxClasses[0].name, code: taxClasses[0].code } : null,
      stock: await this.visibleStock(principal, item, levels),
    };
  }

  private async visibleStock(principal: Principal, item: ItemRecord, levels: StockLevelRecord[]) {
    const out = [];
    for (const level of levels) {
      if (!(await this.stores.canSeeWarehouse(principal, level.warehouseId))) continue;
      const reorder = level.reorderLevel ?? item.reorderLevel;
      out.push({ warehouse_id: level.warehouseId, quantity: level.quantity, reorder_level: reorder, stock_status: stockStatus(level.quantity, reorder) });
    }
    return out;
  }

  @Transactional()
  async create(principal: Principal, input: ItemInput & { sku: string; name: string; basePrice: number }) {
    const now = this.clock.now();
    await this.validate(input);
    const item = await this.onDuplicate(input, () =>
      this.items.create(
        {
          sku: input.sku.trim(),
          name: input.name.trim(),
          description: input.description ?? null,
          categoryId: input.categoryId ?? null,
          basePrice: input.basePrice,
          cost: input.cost ?? 0,
          taxClassId: input.taxClassId ?? null,
          baseUnit: input.baseUnit ?? 'each',
          isActive: input.isActive ?? true,
          isSerialTracked: input.isSerialTracked ?? false,
          reorderLevel: input.reorderLevel ?? 0,
          reorderQuantity: input.reorderQuantity ?? 0,
        },
        input.barcodes ?? [],
        input.units ?? [],
        now,
      ),
    );
    this.reference.changed([item.id]);
    await this.priceHistory.record([{ itemId: item.id, oldPrice: null, newPrice: item.basePrice }], now);
    await this.applyWarehouseLevels(item.id, input, now);
    await this.audit.record({ action: 'item.created', target: { type: 'item', id: item.id }, after: priceFacts(item) });
    await this.changes.event(ItemCreated, { item: await this.eventView(item.id) });
    return this.show(principal, item.id);
  }

  /** `expected`: the versions the caller's edit was based on (If-Match or body version); a newer item is a 412. */
  @Transactional()
  async update(principal: Principal, id: number, input: ItemInput, expected?: ExpectedVersions) {
    if (expected !== undefined) assertVersion(await this.items.lockVersion(id), expected, 'item');
    const current = await this.items.find(id);
    if (!current) throw new NotFoundError('Item');
    await this.validate(input, id);
    if (input.isSerialTracked !== undefined && input.isSerialTracked !== current.isSerialTracked) await this.assertNoStock(id);
    const now = this.clock.now();
    const changes: Partial<ItemWrite> = {};
    if (input.sku !== undefined) changes.sku = input.sku.trim();
    if (input.name !== undefined) changes.name = input.name.trim();
    if (input.description !== undefined) changes.description = input.description;
    if (input.categoryId !== undefined) changes.categoryId = input.categoryId;
    if (input.basePrice !== undefined) changes.basePrice = input.basePrice;
    if (input.cost !== undefined) changes.cost = input.cost;
    if (input.taxClassId !== undefined) changes.taxClassId = input.taxClassId;
    if (input.baseUnit !== undefined) changes.baseUnit = input.baseUnit;
    if (input.isActive !== undefined) changes.isActive = input.isActive;
    if (input.isSerialTracked !== undefined) changes.isSerialTracked = input.isSerialTracked;
    if (input.reorderLevel !== undefined) changes.reorderLevel = input.reorderLevel;
    if (input.reorderQuantity !== undefined) changes.reorderQuantity = input.reorderQuantity;
    // The price this change replaces, read under the row's lock (the history keeps before and after).
    const pricedBefore = input.basePrice === undefined ? undefined : (await this.priceHistory.lockBasePrices([id])).get(id);
    await this.onDuplicate(input, () => this.items.update(id, changes, now));
    if (pricedBefore !== undefined && pricedBefore !== input.basePrice) {
      await this.priceHistory.record([{ itemId: id, oldPrice: pricedBefore, newPrice: input.basePrice! }], now);
      await this.changes.event(PriceUpdated, await this.priceChange(id, pricedBefore, input.basePrice!));
    }
    await this.onDuplicate(input, () => this.items.replaceBarcodesAndUnits(id, input.barcodes, input.units, now));
    this.reference.changed([id]);
    await this.applyWarehouseLevels(id, input, now);
    // Prices and cost are what an audit asks about; other fields are in the item's own history (updated_at).
    const after = priceFacts({ ...current, ...changes });
    if (after.base_price !== current.basePrice || after.cost !== current.cost) {
      await this.audit.record({ action: 'item.price_changed', target: { type: 'item', id }, before: priceFacts(current), after });
    }
    await this.changes.event(ItemUpdated, { item: await this.eventView(id) });
    return this.show(principal, id);
  }

  /** Bulk base-price changes (absolute prices), in the caller's transaction (the bulk price job's chunk). */
  async setBasePrices(changes: { itemId: number; price: number }[], now: Date): Promise<void> {
    if (!changes.length) return;
    const before = await this.priceHistory.lockBasePrices(changes.map((c) => c.itemId));
    await this.items.setBasePrices(changes, now);
    await this.priceHistory.record(
      changes
        .filter((c) => before.has(c.itemId) && before.get(c.itemId) !== c.price)
        .map((c) => ({ itemId: c.itemId, oldPrice: before.get(c.itemId)!, newPrice: c.price })),
      now,
    );
    this.reference.changed(changes.map((c) => c.itemId));
  }

  @Transactional()
  async remove(id: number): Promise<void> {
    const current = await this.items.find(id);
    if (!current) throw new NotFoundError('Item');
    await this.items.softDelete(id, this.clock.now());
    this.reference.changed([id]);
    await this.changes.tombstone('item', id);
    await this.audit.record({ action: 'item.deleted', target: { type: 'item', id }, before: priceFacts(current) });
    await this.changes.event(ItemDeleted, { item: await this.eventView(id) });
  }

  /** The item as the integration items feed shows it (no user's stock view): the item events' payload. */
  private async eventView(id: number): Promise<ItemView> {
    const [view] = (await this.withDetails(new Page([(await this.items.find(id, true))!], 1, 1, 1))).items;
    return view;
  }

  private async priceChange(id: number, oldPrice: number, newPrice: number) {
    const [item, decimals] = await Promise.all([this.items.find(id, true), this.currency.decimals()]);
    const [old_price, new_price] = [fromMinor(oldPrice, decimals), fromMinor(newPrice, decimals)];
    return { item_id: id, sku: item!.sku, name: item!.name, price_book_id: null, old_price, new_price };
  }

  /**
   * Two requests may pass validation at once and race to the unique index. The loser gets the
   * same 422 as a sequential request would: the field is read from the driver's message (its
   * snapshot may not show the winner's row yet, so re-reading would not find it).
   */
  private async onDuplicate<T>(input: ItemInput, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const message = String((error as Error).message);
      const value = /Duplicate entry '(.*)' for key/.exec(message)?.[1]?.toLowerCase();
      if (/items\.sku/.test(message) || (value !== undefined && value === input.sku?.trim().toLowerCase())) {
        throw ValidationFailedError.field('sku', 'The sku has already been taken.');
      }
      const b = (input.barcodes ?? []).findIndex((code) => code.toLowerCase() === value);
      if (b >= 0) throw ValidationFailedError.field(`barcodes.${b}`, 'The barcode is already used by another item.');
      const u = (input.units ?? []).findIndex((unit) => unit.barcode?.toLowerCase() === value);
      if (u >= 0) throw ValidationFailedError.field(`units.${u}.barcode`, 'The barcode is already used by another item.');
      if (/item_barcodes\.barcode/.test(message)) throw ValidationFailedError.field('barcodes', 'A barcode is already used by another item.');
      throw new ConflictError('duplicate', 'The SKU or a barcode is already used by another item.');
    }
  }

  private async applyWarehouseLevels(itemId: number, input: ItemInput, now: Date): Promise<void> {
    for (const level of input.warehouseReorderLevels ?? []) await this.stock.setReorderLevel(itemId, level.warehouseId, level.reorderLevel, now);
  }

  private async validate(input: ItemInput, itemId?: number): Promise<void> {
    const errors: Record<string, string[]> = {};
    const add = (field: string, message: string) => (errors[field] ??= []).push(message);
    if (input.sku !== undefined) {
      const other = await this.items.findBySku(input.sku.trim());
      if (other && other.id !== itemId) add('sku', 'The sku has already been taken.');
    }
    if (input.categoryId != null && !(await this.categories.find(input.categoryId))) add('category_id', 'The selected category does not exist.');
    if (input.taxClassId != null && (await this.taxClasses.find([input.taxClassId])).length === 0)
      add('tax_class_id', 'The selected tax class does not exist.');
    const codes = [...(input.barcodes ?? []), ...(input.units ?? []).map((u) => u.barcode).filter((b): b is string => !!b)];
    const seen = new Set<string>();
    codes.forEach((raw, i) => {
      const code = raw.toLowerCase();
      if (seen.has(code))
        add(i < (input.barcodes?.length ?? 0) ? `barcodes.${i}` : `units.${i - (input.barcodes?.length ?? 0)}.barcode`, 'The barcode is listed twice.');
      seen.add(code);
    });
    // Compared without case: MySQL's collation does, so SQLite must agree.
    const taken = new Set((await this.items.barcodesTaken([...seen], itemId)).map((b) => b.toLowerCase()));
    (input.barcodes ?? []).forEach((b, i) => taken.has(b.toLowerCase()) && add(`barcodes.${i}`, 'The barcode is already used by another item.'));
    (input.units ?? []).forEach(
      (u, i) => u.barcode && taken.has(u.barcode.toLowerCase()) && add(`units.${i}.barcode`, 'The barcode is already used by another item.'),
    );
    const unitNames = new Set<string>();
    (input.units ?? []).forEach((u, i) => {
      if (unitNames.has(u.name.toLowerCase())) add(`units.${i}.name`, 'The unit name is listed twice.');
      unitNames.add(u.name.toLowerCase());
    });
    for (const [i, level] of (input.warehouseReorderLevels ?? []).entries()) {
      if (!(await this.stores.warehouse(level.warehouseId))) add(`warehouse_reorder_levels.${i}.warehouse_id`, 'The selected warehouse does not exist.');
    }
    if (Object.keys(errors).length) throw new ValidationFailedError(errors);
  }
}
