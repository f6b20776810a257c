export * from './audit-log';
export * from './audit.entities';
export * from './request-context';
