import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Principal } from '@pos/identity';
import { SaleReviewService } from '@pos/sales';
import { CurrentPrincipal, RequirePermission } from '../access/policy.decorators';
import { dayEnd, dayStart } from '../http/date-range';
import { IdPipe } from '../http/id.pipe';
import { ApiEnvelope, ApiErrors } from '../http/openapi';
import { pageRequest } from '../http/page-query.dto';
import { ResolveSaleReviewDto, SaleReviewListQuery } from './sales.dto';
import { SaleReviewView } from './sale-reviews.responses';

/**
 * The review queue: sales recorded but flagged for a manager (an offline price below the server's
 * reference beyond the cashier's limits). `sales.review` (managers and admins); store-scoped.
 */
@ApiTags('Sales and invoices')
@Controller('sales/reviews')
export class SaleReviewsController {
  constructor(private readonly reviews: SaleReviewService) {}

  @Get()
  @RequirePermission('sales.review')
  @ApiOperation({ summary: 'Sales flagged for review (offline prices below the reference beyond the limits), newest first; status, store, date filters' })
  @ApiEnvelope(SaleReviewView, { paginated: true })
  list(@CurrentPrincipal() p: Principal, @Query() q: SaleReviewListQuery) {
    return this.reviews.list(
      p,
      { storeId: q.store_id, status: q.status, from: dayStart(q.date_from), to: dayEnd(q.date_to) },
      pageRequest(q, { default: 50, max: 100 }),
    );
  }

  @Post(':review/resolve')
  @HttpCode(200)
  @RequirePermission('sales.review')
  @ApiOperation({ summary: 'Resolve a flagged sale with a note (the sale itself is unchanged; void or return it separately if needed)' })
  @ApiEnvelope(SaleReviewView)
  @ApiErrors([409, 'The review is already resolved'])
  resolve(@CurrentPrincipal() p: Principal, @Param('review', IdPipe) id: number, @Body() body: ResolveSaleReviewDto) {
    return this.reviews.resolve(p, id, body.note);
  }
}
