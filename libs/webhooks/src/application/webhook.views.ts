import { AttemptRecord, DeliveryRecord, EndpointRecord } from './webhook.ports';

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function endpointView(e: EndpointRecord) {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    events: e.events,
    active: e.active,
    disabled_at: iso(e.disabledAt),
    disabled_reason: e.disabledReason,
    failing_since: iso(e.failingSince),
    previous_secret_expires_at: iso(e.previousSecretExpiresAt),
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
  };
}
export type EndpointView = ReturnType<typeof endpointView>;

export function deliveryView(d: DeliveryRecord) {
  return {
    id: d.uuid,
    endpoint_id: d.endpointId,
    event_id: d.eventId,
    event: d.eventType,
    status: d.status,
    attempts: d.attempts,
    last_status_code: d.lastStatusCode,
    last_duration_ms: d.lastDurationMs,
    last_error: d.lastError,
    last_attempt_at: iso(d.lastAttemptAt),
    next_attempt_at: d.status === 'pending' ? iso(d.nextAttemptAt) : null,
    delivered_at: iso(d.deliveredAt),
    created_at: d.createdAt.toISOString(),
  };
}
export type DeliveryView = ReturnType<typeof deliveryView>;

export function attemptView(a: AttemptRecord) {
  return {
    attempt: a.attempt,
    started_at: a.startedAt.toISOString(),
    status_code: a.statusCode,
    duration_ms: a.durationMs,
    error: a.error,
    remote_address: a.remoteAddress,
    response_excerpt: a.responseExcerpt,
  };
}
