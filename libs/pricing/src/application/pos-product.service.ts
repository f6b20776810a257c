import { Injectable } from '@nestjs/common';
import { fromMinor, NotFoundError, Page, PageRequest } from '@pos/kernel';
import { Principal } from '@pos/identity';
import { ItemCatalog, ItemRecord, StockLedger, StockLevelRecord, stockStatus, StoreContext, StoreRecord, unitViews } from '@pos/catalog';
import { CurrencyDecimals } from './currency-decimals';
import { LivePriceService } from './live-price.service';

export interface PosContext {
  storeId?: number;
  warehouseId?: number;
}

/**
 * What a till needs to sell an item: the live price for the store (the pricing engine) and stock
 * in the selling warehouse (the store's default unless one is named). Another store: 403. It
 * lives in pricing, the floor that sees both the catalog and the engine.
 */
@Injectable()
export class PosProductService {
  constructor(
    private readonly items: ItemCatalog,
    private readonly stock: StockLedger,
    private readonly stores: StoreContext,
    private readonly prices: LivePriceService,
    private readonly currencies: CurrencyDecimals,
  ) {}

  async list(principal: Principal, ctx: PosContext & { categoryId?: number; q?: string }, page: PageRequest) {
    const { store, warehouseId } = await this.stores.selling(principal, ctx);
    const result = await this.items.list({ q: ctx.q, categoryId: ctx.categoryId, isActive: true }, page);
    return new Page(await this.rows(result.items, store, warehouseId), result.total, result.page, result.perPage);
  }

  async search(principal: Principal, ctx: PosContext & { q: string; categoryId?: number; limit: number }) {
    const { store, warehouseId } = await this.stores.selling(principal, ctx);
    const hits = await this.items.search(ctx.q.trim(), { categoryId: ctx.categoryId, limit: ctx.limit, stockIn: warehouseId ?? undefined });
    const levels = new Map(hits.map((h) => [h.item.id, h.level ?? null]));
    return this.rows(
      hits.map((h) => h.item),
      store,
      warehouseId,
      levels,
    );
  }

  async show(principal: Principal, itemId: number, ctx: PosContext) {
    const { store, warehouseId } = await this.stores.selling(principal, ctx);
    // From the per-process item cache (live items, active or not), like the rest of the row.
    const [item] = await this.items.findByIds([itemId]);
    if (!item) throw new NotFoundError('Item');
    return (await this.rows([item], store, warehouseId))[0];
  }

  /** The till's view of each item; `known` holds levels already read with the items (a search), else they are read here. */
  private async rows(items: ItemRecord[], store: StoreRecord, warehouseId: number | null, known?: Map<number, KnownLevel | null>) {
    const ids = items.map((i) => i.id);
    const [barcodes, units, levels, prices, decimals] = await Promise.all([
      this.items.barcodes(ids),
      this.items.units(ids),
      known || !warehouseId ? Promise.resolve(known ?? new Map<number, KnownLevel | null>()) : this.levelsIn(ids, warehouseId),
      this.prices.unitPrices(items, store),
      this.currencies.of(store.currencyCode),
    ]);
    // Amounts in the selling store's currency (catalog prices are read in it: see README).
    const m = (v: number) => fromMinor(v, decimals);
    return items.map((i) => {
      const level = levels.get(i.id);
      const quantity = level?.quantity ?? 0;
      const reorder = level?.reorderLevel ?? i.reorderLevel;
      const price = prices.get(i.id)!;
      return {
        id: i.id,
        sku: i.sku,
        name: i.name,
        category_id: i.categoryId,
        barcodes: barcodes.filter((b) => b.itemId === i.id && b.itemUnitId === null).map((b) => b.barcode),
        price: m(price.price),
        price_source: price.source,
        base_price: m(i.basePrice),
        tax_class_id: i.taxClassId,
        is_serial_tracked: i.isSerialTracked,
        base_unit: i.baseUnit,
        units: unitViews(i.id, units, barcodes, decimals),
        stock: { warehouse_id: warehouseId, quantity, reorder_level: reorder, stock_status: stockStatus(quantity, reorder) },
      };
    });
  }

  private async levelsIn(ids: number[], warehouseId: number): Promise<Map<number, KnownLevel | null>> {
    return new Map((await this.stock.levels(ids, [warehouseId])).map((l) => [l.itemId, l]));
  }
}

type KnownLevel = Pick<StockLevelRecord, 'quantity' | 'reorderLevel'>;
