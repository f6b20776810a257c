export * from './audit-log';
export * from './audit.entities';
