import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { StoreRepository } from './application/store.ports';
import { StoreService } from './application/store.service';
import { STORE_ENTITIES } from './infrastructure/store.entities';
import { TypeOrmStoreRepository } from './infrastructure/store.repository';

@Module({
  imports: [TypeOrmModule.forFeature(STORE_ENTITIES)],
  providers: [StoreService, { provide: StoreRepository, useClass: TypeOrmStoreRepository }],
  exports: [StoreService],
})
export class CatalogModule {}
