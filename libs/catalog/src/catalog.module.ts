import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LivePriceRegistry } from './application/live-price.registry';
import { CategoryRepository, ItemRepository, LivePrice, ReferenceRepository, StockRepository } from './application/catalog.ports';
import { CategoryService } from './application/category.service';
import { InventoryService } from './application/inventory.service';
import { ItemService } from './application/item.service';
import { PosProductService } from './application/pos-product.service';
import { ReferenceService } from './application/reference.service';
import { StoreRepository } from './application/store.ports';
import { StoreService } from './application/store.service';
import { CATALOG_ENTITIES } from './infrastructure/catalog.entities';
import { TypeOrmCategoryRepository } from './infrastructure/category.repository';
import { TypeOrmItemRepository } from './infrastructure/item.repository';
import { TypeOrmReferenceRepository } from './infrastructure/reference.repository';
import { TypeOrmStockRepository } from './infrastructure/stock.repository';
import { STORE_ENTITIES } from './infrastructure/store.entities';
import { TypeOrmStoreRepository } from './infrastructure/store.repository';

/** Stores, warehouses, payment methods, categories, items, stock, currencies, price books. */
@Module({
  imports: [TypeOrmModule.forFeature([...STORE_ENTITIES, ...CATALOG_ENTITIES])],
  providers: [
    StoreService,
    CategoryService,
    ItemService,
    InventoryService,
    ReferenceService,
    PosProductService,
    { provide: StoreRepository, useClass: TypeOrmStoreRepository },
    { provide: CategoryRepository, useClass: TypeOrmCategoryRepository },
    { provide: ItemRepository, useClass: TypeOrmItemRepository },
    { provide: StockRepository, useClass: TypeOrmStockRepository },
    { provide: ReferenceRepository, useClass: TypeOrmReferenceRepository },
    LivePriceRegistry,
    { provide: LivePrice, useExisting: LivePriceRegistry },
  ],
  exports: [
    StoreService,
    CategoryService,
    ItemService,
    InventoryService,
    ReferenceService,
    PosProductService,
    StockRepository,
    ItemRepository,
    StoreRepository,
    ReferenceRepository,
    CategoryRepository,
    LivePriceRegistry,
  ],
})
export class CatalogModule {}
