export * from './domain/session';
export * from './application/session.ports';
export * from './application/session.service';
export * from './sessions.module';
export { SessionSalesTotalsRegistry } from './infrastructure/session.repository';
