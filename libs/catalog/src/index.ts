export * from './application/store.ports';
export * from './application/store.service';
export * from './application/store-views';
export * from './catalog.module';
