/**
 * The sync context's published interface: offline sync for POS terminals. The initial download
 * and deltas (SyncFeedService), uploads of offline transactions (SyncUploadService) and each
 * device's status (SyncStatusService), with the shapes the HTTP edge hands them.
 */
export { SyncModule } from './sync.module';
export { SyncFeedService, DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from './application/sync-feed.service';
export type { FeedPage, FeedRequest } from './application/sync-feed.service';
export type { SyncReference } from './application/store-frame';
export { RECORD_TYPES, DELETABLE_TYPES } from './application/feed-sections';
export { SyncUploadService } from './application/sync-upload.service';
export { SyncStatusService } from './application/sync-status.service';
export { UPLOAD_TYPES } from './application/upload.types';
export type { UploadCommand, UploadReport, UploadResult, UploadTransaction, UploadType, OfflineCashMovementInput } from './application/upload.types';
