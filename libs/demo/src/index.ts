export * from './demo-data.service';
export * from './demo.module';
export * from './demo.seed';
