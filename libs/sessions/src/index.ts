/**
 * The sessions context's published interface: SessionService (open/close/summary, and for
 * checkout `requireOpen` and `status`), session views and events, and the SessionSalesTotals
 * port the sales context binds.
 */
export { SessionsModule } from './sessions.module';
export { SessionService } from './application/session.service';
export { sessionView } from './application/session.views';
export type { SessionView } from './application/session.views';
export { SessionSalesTotals } from './application/session.ports';
export type { SessionRecord, SessionSalesFigures } from './application/session.ports';
export * from './application/session.events';
export type { SessionStatus } from './domain/session';
