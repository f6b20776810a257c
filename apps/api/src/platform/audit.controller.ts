import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { assertStoreAccess, Principal } from '@pos/identity';
import { AuditLog } from '@pos/platform';
import { CurrentPrincipal, RequirePermission } from '../access/policy.decorators';
import { dayEnd, dayStart } from '../http/date-range';
import { ApiEnvelope, defineView, s } from '../http/openapi';
import { PageQueryDto, pageRequest } from '../http/page-query.dto';
import { OptionalDate, OptionalInt, OptionalString } from '../http/validators';
import { auditEntryView } from './platform.mapper';

export class AuditLogQuery extends PageQueryDto {
  @OptionalInt() store_id?: number;
  @OptionalInt({ description: 'Who did it (user id; the CLI operator is 0)' }) user_id?: number;
  @OptionalString({ max: 64, description: 'An action (`sale.voided`) or a family of actions (`sale.` or `sale.*`)' }) action?: string;
  @OptionalString({ max: 64, description: 'Target type (sale, return, pricing_rule, session, user, token, ...)' }) target_type?: string;
  @OptionalString({ max: 64, description: 'Target id (with target_type)' }) target_id?: string;
  @OptionalDate('From this UTC day') date_from?: string;
  @OptionalDate('To this UTC day (inclusive)') date_to?: string;
}

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

/**
 * GET /audit-log (`audit.view`): the append-only trail of sensitive actions, newest first. A
 * reader limited to some stores sees their stores' entries only (chain-wide entries such as user,
 * token or webhook changes are for readers of every store). Nothing here edits or deletes.
 */
@ApiTags('Audit log')
@Controller('audit-log')
export class AuditLogController {
  constructor(private readonly audit: AuditLog) {}

  @Get()
  @RequirePermission('audit.view')
  @ApiOperation({ summary: 'Audit trail: who did what, when, where, to which record (store, user, action, target, date filters; paginated)' })
  @ApiEnvelope(AuditEntryView, { paginated: true })
  async list(@CurrentPrincipal() p: Principal, @Query() q: AuditLogQuery) {
    if (q.store_id !== undefined) assertStoreAccess(p, q.store_id);
    const page = await this.audit.list(
      {
        scope: p.stores,
        storeId: q.store_id,
        actorId: q.user_id,
        action: q.action,
        targetType: q.target_type,
        targetId: q.target_id,
        from: dayStart(q.date_from),
        to: dayEnd(q.date_to),
      },
      pageRequest(q, { default: 50, max: 200 }),
    );
    return page.map(auditEntryView);
  }
}
