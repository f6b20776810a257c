export * from './columns';
export * from './data-source';
export * from './database.module';
export { MIGRATIONS } from './migrations';
export * from './seeds/demo.seed';
export * from './changes/change-log';
export * from './changes/change.entities';
export * from './db-errors';
export * from './tx-repository';
