// Only the data source (not the platform's Nest modules): migrate opens a connection and nothing else.
export { createDataSource } from '@pos/platform/database/data-source';
