import { defineEvent } from '@pos/platform';

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
