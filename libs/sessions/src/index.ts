/**
 * The sessions context's published interface: SessionService (open/close/summary, and for
 * checkout `requireOpen` and `status`, for returns `openSessionId`), session views and events,
 * and the ports other contexts bind: SessionSalesTotals (sales), SessionRefundTotals (returns).
 */
export { SessionsModule } from './sessions.module';
export { SessionService } from './application/session.service';
export { sessionView } from './application/session.views';
export type { SessionView } from './application/session.views';
export { SessionRefundTotals, SessionSalesTotals } from './application/session.ports';
export type { SessionCashSummary, SessionRecord, SessionSalesFigures } from './application/session.ports';
export * from './application/session.events';
export type { SessionStatus } from './domain/session';
