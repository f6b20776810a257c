import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '@pos/catalog';
import { CustomersModule } from '@pos/customers';
import { PricingModule } from '@pos/pricing';
import { SalesModule } from '@pos/sales';
import { SessionsModule } from '@pos/sessions';
import { FeedSections } from './application/feed-sections';
import { StoreFrames } from './application/store-frame';
import { SyncFeedService } from './application/sync-feed.service';
import { SyncSigner } from './application/sync-signer';
import { SyncStatusService } from './application/sync-status.service';
import { SyncUploadService } from './application/sync-upload.service';
import { SyncDeviceRepository, SyncTransactionRepository } from './application/sync.ports';
import { SYNC_ENTITIES } from './infrastructure/sync.entities';
import { TypeOrmSyncDeviceRepository, TypeOrmSyncTransactionRepository } from './infrastructure/sync.repository';

/**
 * Offline sync for POS terminals: the initial download and deltas of a store's data, uploads of
 * what terminals did offline, and each device's sync status. It owns only its devices and upload
 * outcomes; everything else it reads and writes through the other contexts' published use cases.
 */
@Module({
  imports: [TypeOrmModule.forFeature(SYNC_ENTITIES), CatalogModule, CustomersModule, PricingModule, SessionsModule, SalesModule],
  providers: [
    SyncFeedService,
    SyncUploadService,
    SyncStatusService,
    StoreFrames,
    FeedSections,
    SyncSigner,
    { provide: SyncDeviceRepository, useClass: TypeOrmSyncDeviceRepository },
    { provide: SyncTransactionRepository, useClass: TypeOrmSyncTransactionRepository },
  ],
  exports: [SyncFeedService, SyncUploadService, SyncStatusService],
})
export class SyncModule {}
