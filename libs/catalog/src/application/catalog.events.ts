import { defineDomainEvent, defineEvent } from '@pos/platform';
import type { StockMovementRecord } from './catalog.records';

/** Payload of the stock-level events: the level after the change that crossed the threshold. */
export interface StockLevelEventPayload {
  item_id: number;
  sku: string;
  name: string;
  warehouse_id: number;
  quantity: number;
  reorder_level: number;
}

export const InventoryLowStock = defineEvent<StockLevelEventPayload>('inventory.low_stock');
export const InventoryOutOfStock = defineEvent<StockLevelEventPayload>('inventory.out_of_stock');

/**
 * One item's base price changed by a single edit (PUT /items/{item}); bulk changes send
 * prices.bulk_updated instead. Amounts in the catalog (base) currency. price_book_id is null:
 * the base price applies in every store without a price-book entry for the item.
 */
export interface PriceUpdatedPayload {
  item_id: number;
  sku: string;
  name: string;
  price_book_id: number | null;
  old_price: number;
  new_price: number;
}
export const PriceUpdated = defineEvent<PriceUpdatedPayload>('price.updated');

/**
 * Domain facts (in-process, same transaction): the movement rows one ledger operation wrote
 * (a sale, a void, a return, an adjustment), for subscribers such as the report rollups.
 */
export const StockMovedFacts = defineDomainEvent<{ movements: StockMovementRecord[] }>('catalog.stock-moved');
