import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, AppConfig, ReadOnReplica } from '@pos/platform';
import { Clock } from '@pos/kernel';
import { Principal } from '@pos/identity';
import { ReturnService } from '@pos/returns';
import { CurrentPrincipal, IntegrationRead } from '../access/policy.decorators';
import { dayEnd, dayStart } from '../http/date-range';
import { ApiEnvelope, ApiErrors } from '../http/openapi';
import { IdPipe } from '../http/id.pipe';
import { pageRequest } from '../http/page-query.dto';
import { ApiFeedEnvelope, CHANGE_MODE_422, ChangeMode } from './change-mode';
import { ReturnsFeedQuery } from './feeds.dto';
import { ReturnDetail, ReturnSummary } from '../returns/returns.responses';

const FEED = { default: 50, max: 200 };

/** Returns feeds (contract 4.9): time windows apply to created_at, in UTC days; change mode with updated_since or cursor (./change-mode.ts). */
@ApiTags('Integration: data feeds')
@Controller(['integration', 'integrations'])
@ReadOnReplica() // feeds read a replica within DB_READ_MAX_LAG_SECONDS (README: Read replicas)
export class ReturnsFeedController {
  private readonly changes: ChangeMode;

  constructor(
    private readonly returns: ReturnService,
    @Inject(APP_CONFIG) config: AppConfig,
    clock: Clock,
  ) {
    this.changes = new ChangeMode(config, clock);
  }

  @Get('data/returns')
  @IntegrationRead('returns.view')
  @ApiOperation({
    summary: 'Returns feed (date_from, date_to, store_id, warehouse_id, status; per_page default 50, max 200); change mode with updated_since or cursor',
  })
  @ApiFeedEnvelope(ReturnSummary, 'A page of returns, newest first')
  @ApiErrors([422, `A filter is malformed (status not a return state, a date not YYYY-MM-DD, per_page < 1); ${CHANGE_MODE_422}`])
  async list(@CurrentPrincipal() p: Principal, @Query() q: ReturnsFeedQuery) {
    const page = pageRequest(q, FEED);
    const change = this.changes.read('returns', q, page.perPage);
    const result = await this.returns.list(
      p,
      { storeId: q.store_id, warehouseId: q.warehouse_id, status: q.status, from: dayStart(q.date_from), to: dayEnd(q.date_to), change },
      page,
    );
    return change ? this.changes.page('returns', change, page.perPage, result) : result;
  }

  @Get('data/returns/:saleReturn')
  @IntegrationRead('returns.view')
  @ApiOperation({ summary: 'One return with its lines, refunds and credit note' })
  @ApiEnvelope(ReturnDetail, { description: 'The return' })
  @ApiErrors([404, 'Unknown return, or one of a store the application cannot access'])
  show(@CurrentPrincipal() p: Principal, @Param('saleReturn', IdPipe) id: number) {
    return this.returns.show(p, id);
  }
}
