import { AuditRecord } from '@pos/platform';

/** GET /audit-log: one entry (AuditEntryView), the actor null for entries no user made. */
export function auditEntryView(e: AuditRecord) {
  return {
    id: e.id,
    action: e.action,
    actor: e.actorId === null ? null : { id: e.actorId, name: e.actorName },
    store_id: e.storeId,
    target: { type: e.targetType, id: e.targetId },
    before: e.before,
    after: e.after,
    request_id: e.requestId,
    created_at: e.createdAt.toISOString(),
  };
}
