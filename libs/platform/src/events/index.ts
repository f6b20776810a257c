export * from './event-definition';
export * from './domain-events';
