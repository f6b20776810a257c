import { defineView, s } from '../http/openapi';

/** Response schemas of the platform endpoints: health, liveness, readiness, the audit log. */
export const Health = defineView('Health', {
  status: s.enum(['ok', 'error', 'draining']),
  checks: s.map(
    s.object({ status: s.enum(['up', 'down']), latency_ms: s.number(), error: s.string() }, { optional: ['latency_ms', 'error'] }),
    'database, and redis when configured',
  ),
  time: s.dateTime(),
});

export const Liveness = defineView('Liveness', { status: s.enum(['ok']), uptime_seconds: s.number(), time: s.dateTime() });
export const Readiness = defineView('Readiness', {
  status: s.enum(['ready', 'not_ready', 'shutting_down']),
  checks: s.map(
    s.object({ status: s.enum(['up', 'down']), latency_ms: s.number(), error: s.string() }, { optional: ['latency_ms', 'error'] }),
    'database, redis when configured, migrations (none pending)',
  ),
  time: s.dateTime(),
});

export const AuditEntryView = defineView('AuditEntry', {
  id: s.int(),
  action: s.string('`<thing>.<verb>`, e.g. sale.voided, return.processed, discount.approved, pricing_rule.updated, token.revoked'),
  actor: s.nullable(s.object({ id: s.int('The user (0: the CLI operator)'), name: s.nullable(s.string()) })),
  store_id: s.nullable(s.int()),
  target: s.object({ type: s.string(), id: s.string() }),
  before: s.any('The record before the change, where it applies (amounts in minor units)'),
  after: s.any('The record after the change, where it applies'),
  request_id: s.nullable(s.string('X-Request-Id of the request that did it')),
  created_at: s.dateTime(),
});
