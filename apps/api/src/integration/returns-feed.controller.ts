import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ReadOnReplica } from '@pos/platform';
import { Principal } from '@pos/identity';
import { ReturnService } from '@pos/returns';
import { CurrentPrincipal, IntegrationRead } from '../access/policy.decorators';
import { dayEnd, dayStart } from '../catalog/inventory.controller';
import { ApiEnvelope, ApiErrors } from '../http/openapi';
import { IdPipe } from '../http/id.pipe';
import { pageRequest } from '../http/page-query.dto';
import { ReturnFeedQuery } from '../returns/returns.dto';
import { RETURN_DETAIL, RETURN_SUMMARY } from '../returns/returns.openapi';

const FEED = { default: 50, max: 200 };

/** Returns feeds (contract 4.9): time windows apply to created_at, in UTC days. */
@ApiTags('Integration: data feeds')
@Controller(['integration', 'integrations'])
@ReadOnReplica() // feeds read a replica within DB_READ_MAX_LAG_SECONDS (README: Read replicas)
export class ReturnsFeedController {
  constructor(private readonly returns: ReturnService) {}

  @Get('data/returns')
  @IntegrationRead('returns.view')
  @ApiOperation({ summary: 'Returns feed (date_from, date_to, store_id, warehouse_id, status; per_page default 50, max 200)' })
  @ApiEnvelope(RETURN_SUMMARY, { description: 'A page of returns, newest first', paginated: true })
  @ApiErrors([422, 'A filter is malformed (status not a return state, a date not YYYY-MM-DD, per_page < 1)'])
  list(@CurrentPrincipal() p: Principal, @Query() q: ReturnFeedQuery) {
    return this.returns.list(
      p,
      { storeId: q.store_id, warehouseId: q.warehouse_id, status: q.status, from: dayStart(q.date_from), to: dayEnd(q.date_to) },
      pageRequest(q, FEED),
    );
  }

  @Get('data/returns/:saleReturn')
  @IntegrationRead('returns.view')
  @ApiOperation({ summary: 'One return with its lines, refunds and credit note' })
  @ApiEnvelope(RETURN_DETAIL, { description: 'The return' })
  @ApiErrors([404, 'Unknown return, or one of a store the application cannot access'])
  show(@CurrentPrincipal() p: Principal, @Param('saleReturn', IdPipe) id: number) {
    return this.returns.show(p, id);
  }
}
