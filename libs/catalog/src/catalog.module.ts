import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogCurrency, CategoryRepository, ItemRepository, StockRepository, TaxClassDirectory } from './application/catalog.ports';
import { CategoryService } from './application/category.service';
import { InventoryService } from './application/inventory.service';
import { ItemCatalog } from './application/item-catalog';
import { ItemListTotals } from './application/item-list-totals';
import { ItemReferenceCache } from './application/item-reference.cache';
import { ItemPriceHistory, ItemPriceHistoryRepository } from './application/item-price-history';
import { ItemService } from './application/item.service';
import { StockLedger } from './application/stock-ledger';
import { StockReadModel } from './application/stock-read-model';
import { StoreContext } from './application/store-context';
import { StoreRepository } from './application/store.ports';
import { StoreService } from './application/store.service';
import { CATALOG_ENTITIES } from './infrastructure/catalog.entities';
import { TypeOrmCategoryRepository } from './infrastructure/category.repository';
import { TypeOrmItemRepository } from './infrastructure/item.repository';
import { ItemPriceChangeEntity, TypeOrmItemPriceHistoryRepository } from './infrastructure/item-price-history.repository';
import { SqlCatalogCurrency } from './infrastructure/sql-catalog.currency';
import { SqlTaxClassDirectory } from './infrastructure/sql-tax-class.directory';
import { TypeOrmStockRepository } from './infrastructure/stock.repository';
import { STORE_ENTITIES } from './infrastructure/store.entities';
import { TypeOrmStoreRepository } from './infrastructure/store.repository';

/** Stores, warehouses, payment methods, categories, items, units, barcodes and stock. */
@Module({
  imports: [TypeOrmModule.forFeature([...STORE_ENTITIES, ...CATALOG_ENTITIES, ItemPriceChangeEntity])],
  providers: [
    StoreService,
    CategoryService,
    ItemService,
    InventoryService,
    StoreContext,
    StockLedger,
    StockReadModel,
    ItemCatalog,
    ItemReferenceCache,
    ItemListTotals,
    ItemPriceHistory,
    { provide: ItemPriceHistoryRepository, useClass: TypeOrmItemPriceHistoryRepository },
    { provide: StoreRepository, useClass: TypeOrmStoreRepository },
    { provide: CategoryRepository, useClass: TypeOrmCategoryRepository },
    { provide: ItemRepository, useClass: TypeOrmItemRepository },
    { provide: StockRepository, useClass: TypeOrmStockRepository },
    { provide: TaxClassDirectory, useClass: SqlTaxClassDirectory },
    { provide: CatalogCurrency, useClass: SqlCatalogCurrency },
  ],
  exports: [
    CatalogCurrency,
    StoreService,
    CategoryService,
    ItemService,
    InventoryService,
    StoreContext,
    StockLedger,
    StockReadModel,
    ItemCatalog,
    ItemPriceHistory,
  ],
})
export class CatalogModule {}
