import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { assertStoreAccess, Principal } from '@pos/identity';
import { AuditLog } from '@pos/platform';
import { CurrentPrincipal, RequirePermission } from '../access/policy.decorators';
import { dayEnd, dayStart } from '../http/date-range';
import { ApiEnvelope } from '../http/openapi';
import { pageRequest } from '../http/page-query.dto';
import { AuditLogQuery } from './platform.dto';
import { auditEntryView } from './platform.mapper';
import { AuditEntryView } from './platform.responses';

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
