import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Principal } from '@pos/identity';
import { requestFingerprint } from '@pos/platform';
import { ReturnService, ReturnWorkflowService } from '@pos/returns';
import { CurrentPrincipal, RequirePermission } from '../access/policy.decorators';
import { dayEnd, dayStart } from '../http/date-range';
import { ApiEnvelope, ApiErrors } from '../http/openapi';
import { IdPipe } from '../http/id.pipe';
import { WriteDeadline } from '../http/write-deadline';
import { pageRequest } from '../http/page-query.dto';
import { CheckSaleQuery, CreateReturnDto, createReturnInput, ReturnDecisionDto, ReturnListQuery } from './returns.dto';
import { ReturnableSale, ReturnDetail, ReturnReason, ReturnSummary } from './returns.responses';
import { IdempotentCreate } from '../http/idempotency.decorator';

const NOT_FOUND = 'Unknown return, or a return of a store the caller cannot access (also a non-numeric id)';
const STATE = 'The return is not in a state that allows this (see the states on POST /returns)';

/**
 * Returns (contract 4.6). States: pending -> approved -> processed; pending -> rejected;
 * pending|approved -> cancelled; `process_immediately` goes straight to processed.
 */
@ApiTags('Returns')
@Controller('returns')
export class ReturnsController {
  constructor(
    private readonly returns: ReturnService,
    private readonly workflow: ReturnWorkflowService,
  ) {}

  @Get()
  @RequirePermission('returns.view')
  @ApiOperation({ summary: 'Returns (store, warehouse, status, sale, date range; q: return number, receipt number or customer), newest first' })
  @ApiEnvelope(ReturnSummary, { description: 'A page of returns (per_page default 50, max 100)', paginated: true })
  @ApiErrors([422, 'A filter is malformed (e.g. status not a return state, a date not YYYY-MM-DD, per_page < 1)'])
  list(@CurrentPrincipal() p: Principal, @Query() q: ReturnListQuery) {
    return this.returns.list(
      p,
      {
        storeId: q.store_id,
        warehouseId: q.warehouse_id,
        status: q.status,
        saleId: q.sale_id,
        from: dayStart(q.date_from ?? q.from),
        to: dayEnd(q.date_to ?? q.to),
        q: q.q,
      },
      pageRequest(q, { default: 50, max: 100 }),
    );
  }

  @Post()
  @IdempotentCreate({ bodyKey: 'idempotency_key' })
  @HttpCode(200)
  @RequirePermission('returns.create')
  @WriteDeadline()
  @ApiOperation({
    summary: 'Create a return of a sale (contract 4.6.1): pending, or processed at once with process_immediately (needs returns.process)',
    description:
      'Refunds are what the customer paid for the returned units (after line, rule, bundle and cart discounts, with tax), shared over the units to the cent; ' +
      'the last unit of a line takes the rounding remainder, so returning everything refunds exactly the sale total. A return holds its units from creation ' +
      '(two returns of the last unit: one is accepted, the other 422). Idempotent on idempotency_key like checkout: the same body replays the original ' +
      'response (header Idempotent-Replayed: true); another body is 422; while the first is running, 409 with Retry-After. Writes return.created ' +
      '(and return.processed when processed at once).',
  })
  @ApiEnvelope(ReturnDetail, { description: 'The return (pending, or processed with its refunds and credit note)' })
  @ApiErrors(
    [404, 'Unknown sale, or a sale of a store the caller cannot access'],
    [409, 'The same idempotency_key is still being processed (Retry-After); with process_immediately, the sale cannot take the return'],
    [
      422,
      'A field is invalid (named in errors): sale_id not eligible (voided, fully refunded, outside RETURN_WINDOW_DAYS), items.N.sale_item_id not a line of ' +
        'the sale or listed twice, items.N.quantity above what is still returnable, items.N.restock true for damaged/defective/spoiled goods, ' +
        "items.N.warehouse_id not serving the sale's store, reason_id not an active reason, idempotency_key used for a different request",
    ],
  )
  async create(@CurrentPrincipal() p: Principal, @Body() body: CreateReturnDto, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const outcome = await this.workflow.create(p, createReturnInput(body), requestFingerprint(req.body));
    res.status(outcome.status);
    if (outcome.replayed) res.setHeader('Idempotent-Replayed', 'true');
    return outcome.body;
  }

  @Get('check-sale')
  @RequirePermission('returns.view')
  @ApiOperation({ summary: 'Whether a sale can be returned (and why not) and, per line, units and amounts sold, returned, pending and still returnable' })
  @ApiEnvelope(ReturnableSale, { description: 'Eligibility and returnable lines' })
  @ApiErrors([404, 'Unknown sale, or a sale of a store the caller cannot access'], [422, 'sale_id missing or not a positive integer'])
  checkSale(@CurrentPrincipal() p: Principal, @Query() q: CheckSaleQuery) {
    return this.returns.checkSale(p, q.sale_id);
  }

  @Get('reasons')
  @RequirePermission('returns.view')
  @ApiOperation({ summary: 'Active return reasons' })
  @ApiEnvelope([ReturnReason], { description: 'Active reasons, in display order' })
  reasons() {
    return this.returns.reasons();
  }

  @Get(':saleReturn')
  @RequirePermission('returns.view')
  @ApiOperation({ summary: 'A return: lines, refunds, credit note' })
  @ApiEnvelope(ReturnDetail, { description: 'The return' })
  @ApiErrors([404, NOT_FOUND])
  show(@CurrentPrincipal() p: Principal, @Param('saleReturn', IdPipe) id: number) {
    return this.returns.show(p, id);
  }

  @Post(':saleReturn/approve')
  @HttpCode(200)
  @RequirePermission('returns.approve')
  @ApiOperation({ summary: 'Approve a pending return' })
  @ApiEnvelope(ReturnDetail, { description: 'The approved return' })
  @ApiErrors([404, NOT_FOUND], [409, `${STATE}: only a pending return can be approved`])
  approve(@CurrentPrincipal() p: Principal, @Param('saleReturn', IdPipe) id: number) {
    return this.workflow.approve(p, id);
  }

  @Post(':saleReturn/cancel')
  @HttpCode(200)
  @RequirePermission('returns.create')
  @ApiOperation({ summary: 'Cancel a pending or approved return (its units become returnable again); optional notes' })
  @ApiEnvelope(ReturnDetail, { description: 'The cancelled return' })
  @ApiErrors([404, NOT_FOUND], [409, `${STATE}: only a pending or approved return can be cancelled`], [422, 'notes longer than 1000 characters'])
  cancel(@CurrentPrincipal() p: Principal, @Param('saleReturn', IdPipe) id: number, @Body() body: ReturnDecisionDto) {
    return this.workflow.cancel(p, id, body.notes ?? undefined);
  }

  @Post(':saleReturn/process')
  @HttpCode(200)
  @RequirePermission('returns.process')
  @WriteDeadline()
  @ApiOperation({
    summary: 'Process an approved return, in one transaction',
    description:
      'Refunds to the original payment methods (cash first, up to what was paid in cash net of change, then the others in the order paid; an on_account ' +
      "part reduces the invoice balance), issues a credit note on the sale's invoice (CN-<store>-000001), restocks restock:true lines into their warehouse " +
      '(serial numbers back in stock), writes damaged/defective goods off as damage and spoiled ones as spoilage, sets the sale partially_refunded or refunded, ' +
      "counts a cash refund in the processing cashier's open session in that store, and writes return.processed.",
  })
  @ApiEnvelope(ReturnDetail, { description: 'The processed return with its refunds and credit note' })
  @ApiErrors([404, NOT_FOUND], [409, `${STATE}: only an approved return can be processed; or the sale was voided meanwhile`])
  process(@CurrentPrincipal() p: Principal, @Param('saleReturn', IdPipe) id: number) {
    return this.workflow.process(p, id);
  }

  @Post(':saleReturn/reject')
  @HttpCode(200)
  @RequirePermission('returns.approve')
  @ApiOperation({ summary: 'Reject a pending return (its units become returnable again); optional notes' })
  @ApiEnvelope(ReturnDetail, { description: 'The rejected return' })
  @ApiErrors([404, NOT_FOUND], [409, `${STATE}: only a pending return can be rejected`], [422, 'notes longer than 1000 characters'])
  reject(@CurrentPrincipal() p: Principal, @Param('saleReturn', IdPipe) id: number, @Body() body: ReturnDecisionDto) {
    return this.workflow.reject(p, id, body.notes ?? undefined);
  }
}
