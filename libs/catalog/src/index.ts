/**
 * The catalog's published interface: stores, warehouses and payment methods; categories and
 * items; stock. Other contexts use the use cases and records below, never the repositories,
 * entities or tables behind them (.dependency-cruiser.js enforces it).
 *   StoreContext  resolve the store (and warehouse) a request acts in and check access
 *   StockLedger   sell, restock, write off, adjust, transfer: the only way stock changes
 *   ItemCatalog   read-only items, units and barcodes
 *   ItemPriceHistory  an item's base price at a past moment (offline sales are judged by it)
 *   StockReadModel  read-only stock snapshot and movement ledger for reports (StockMovedFacts keeps rollups current)
 */
export { CatalogModule } from './catalog.module';
export { StoreContext } from './application/store-context';
export { StockLedger } from './application/stock-ledger';
export type { StockLine, StockReference, AdjustmentInput, AdjustmentLineInput } from './application/stock-ledger';
export { ItemCatalog } from './application/item-catalog';
export { ItemPriceHistory } from './application/item-price-history';
export type { ItemChangeQuery, SearchHit, SearchOptions } from './application/catalog.ports';
export { CatalogCurrency } from './application/catalog.ports';
export { StockReadModel } from './application/stock-read-model';
export type { StockSnapshotRow } from './application/catalog.ports';
export * from './application/catalog.events';
export type { PaymentMethodRecord, StoreRecord, StoreScope, WarehouseRecord } from './application/store.ports';
export type { CategoryRecord, ItemBarcodeRecord, ItemRecord, ItemUnitRecord, StockLevelRecord, StockMovementRecord } from './application/catalog.records';
export { ADJUSTMENT_TYPES, stockStatus } from './domain/stock-status';
export type { AdjustmentType, StockStatus } from './domain/stock-status';

// Use cases of the catalog's own HTTP endpoints (back office, reference data, integration feeds).
export { StoreService } from './application/store.service';
export type { StoreListOptions } from './application/store.service';
export * from './application/store-views';
export { CategoryService } from './application/category.service';
export type { CategoryInput, CategoryView } from './application/category.service';
export { ItemCreated, ItemDeleted, ItemService, ItemUpdated, unitViews } from './application/item.service';
export type { ItemInput, ItemView } from './application/item.service';
export { InventoryService } from './application/inventory.service';
export type { MovementView } from './application/inventory.service';
// For loaders that write items around the use cases (the demo seed): rebuilds the name search index.
export { fillItemNameWords } from './infrastructure/item-name-words.backfill';
