export * from './process-lifecycle';
export * from './graceful-exit';
