import { Injectable } from '@nestjs/common';
import { fromMinor, NotFoundError, Page, PageRequest, ValidationFailedError } from '@pos/kernel';
import { assertStoreAccess, currentStoreId, Principal } from '@pos/identity';
import { stockStatus } from '../domain/stock-status';
import { ItemRecord } from './catalog.records';
import { ItemRepository, LivePrice, StockRepository } from './catalog.ports';
import { StoreRepository } from './store.ports';

export interface PosContext {
  storeId?: number;
  warehouseId?: number;
}

/**
 * What a till needs to sell an item: live price for the store (through the LivePrice port) and
 * stock in the selling warehouse (the store's default unless one is named). Another store: 403.
 */
@Injectable()
export class PosProductService {
  constructor(
    private readonly items: ItemRepository,
    private readonly stock: StockRepository,
    private readonly stores: StoreRepository,
    private readonly prices: LivePrice,
  ) {}

  async list(principal: Principal, ctx: PosContext & { categoryId?: number; q?: string }, page: PageRequest) {
    const { storeId, warehouseId } = await this.resolve(principal, ctx);
    const result = await this.items.list({ q: ctx.q, categoryId: ctx.categoryId, isActive: true }, page);
    return new Page(await this.rows(result.items, storeId, warehouseId), result.total, result.page, result.perPage);
  }

  async search(principal: Principal, ctx: PosContext & { q: string; categoryId?: number; limit: number }) {
    const { storeId, warehouseId } = await this.resolve(principal, ctx);
    const found = await this.items.search(ctx.q.trim(), { categoryId: ctx.categoryId, limit: ctx.limit });
    return this.rows(found, storeId, warehouseId);
  }

  async show(principal: Principal, itemId: number, ctx: PosContext) {
    const { storeId, warehouseId } = await this.resolve(principal, ctx);
    const item = await this.items.find(itemId);
    if (!item) throw new NotFoundError('Item');
    return (await this.rows([item], storeId, warehouseId))[0];
  }

  private async rows(items: ItemRecord[], storeId: number, warehouseId: number | null) {
    const ids = items.map((i) => i.id);
    const [barcodes, units, levels, prices] = await Promise.all([
      this.items.barcodes(ids),
      this.items.units(ids),
      warehouseId ? this.stock.levels(ids, [warehouseId]) : Promise.resolve([]),
      this.prices.unitPrices(items, { storeId }),
    ]);
    return items.map((i) => {
      const level = levels.find((l) => l.itemId === i.id);
      const quantity = level?.quantity ?? 0;
      const reorder = level?.reorderLevel ?? i.reorderLevel;
      const price = prices.get(i.id) ?? { price: i.basePrice, source: 'base' };
      return {
        id: i.id,
        sku: i.sku,
        name: i.name,
        category_id: i.categoryId,
        barcodes: barcodes.filter((b) => b.itemId === i.id && b.itemUnitId === null).map((b) => b.barcode),
        price: fromMinor(price.price),
        price_source: price.source,
        base_price: fromMinor(i.basePrice),
        tax_class_id: i.taxClassId,
        is_serial_tracked: i.isSerialTracked,
        base_unit: i.baseUnit,
        units: units
          .filter((u) => u.itemId === i.id)
          .map((u) => ({
            id: u.id,
            name: u.name,
            factor: u.factor,
            price: u.price === null ? null : fromMinor(u.price),
            barcode: barcodes.find((b) => b.itemUnitId === u.id)?.barcode ?? null,
          })),
        stock: { warehouse_id: warehouseId, quantity, reorder_level: reorder, stock_status: stockStatus(quantity, reorder) },
      };
    });
  }

  private async resolve(principal: Principal, ctx: PosContext): Promise<{ storeId: number; warehouseId: number | null }> {
    const storeId = ctx.storeId ?? currentStoreId(principal);
    if (storeId === null) throw ValidationFailedError.field('store_id', 'The store_id field is required.');
    assertStoreAccess(principal, storeId);
    const store = await this.stores.findStore(storeId);
    if (!store) throw ValidationFailedError.field('store_id', 'The selected store does not exist.');
    if (ctx.warehouseId === undefined) return { storeId, warehouseId: store.defaultWarehouseId };
    const serves = await this.stores.storesOfWarehouse(ctx.warehouseId);
    if (!serves.includes(storeId)) throw ValidationFailedError.field('warehouse_id', 'The selected warehouse does not serve this store.');
    return { storeId, warehouseId: ctx.warehouseId };
  }
}
