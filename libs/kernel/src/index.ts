export * from './errors';
export * from './money';
export * from './pagination';
export * from './clock';
export * from './word-starts';
export * from './utc-days';
export * from './local-time';
export * from './change-cursor';
