export * from './app-config';
export * from './edge-config';
export * from './config.module';
