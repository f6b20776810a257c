import { applyDecorators, Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiExtension, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Principal } from '@pos/identity';
import { SessionService } from '@pos/sessions';
import { CurrentPrincipal, RateTier, RequirePermission } from '../access/policy.decorators';
import { IdPipe } from '../http/id.pipe';
import { CashMovementDto, CloseSessionDto, OpenSessionDto, StoreQuery } from './sessions.dto';
import { CashMovementResult, Session, SessionStatus, SessionSummary } from './sessions.responses';
import { ApiEnvelope, ApiErrors } from '../http/openapi';
import { WriteDeadline } from '../http/write-deadline';
import { IdempotentCreate } from '../http/idempotency.decorator';

const OWN =
  "A session is its user's own: another user's session (same store) needs `sessions.supervise` as well (managers, admins); " +
  'without it, it answers 404 as an unknown id does, and nothing changes.';

/**
 * A route on one session: `sessions.manage`, and `sessions.supervise` for another user's session
 * (404 without it). Its x-permission says both: the first value given to x-permission is kept,
 * so it comes before RequirePermission's.
 */
const OnSession = (summary: string) =>
  applyDecorators(
    ApiExtension('x-permission', "sessions.manage (another user's session: also sessions.supervise)"),
    RequirePermission('sessions.manage'),
    ApiOperation({ summary, description: OWN }),
    ApiErrors([404, `Unknown session, or another user's session without \`sessions.supervise\` (a non-numeric id is a 404 too)`]),
  );

/** Amounts in and out are in the currency of the session's store, with its decimals (JPY: whole yen; more decimals: 422). */
@ApiTags('Cashier sessions')
@Controller()
export class SessionsController {
  constructor(private readonly sessions: SessionService) {}

  @Get('sessions/current')
  @RequirePermission('sessions.manage')
  @ApiOperation({ summary: 'The open or suspended session of the current user and store (null if none)' })
  @ApiEnvelope(Session, { nullable: true })
  current(@CurrentPrincipal() p: Principal, @Query() q: StoreQuery) {
    return this.sessions.current(p, q.store_id);
  }

  @Post('sessions/open')
  @IdempotentCreate()
  @HttpCode(200)
  @RequirePermission('sessions.manage')
  @WriteDeadline()
  @ApiOperation({
    summary: 'Open a session (409 if one is already open or suspended for you in that store)',
    description: "opening_balance is in the store's currency, with at most its decimals (422 otherwise).",
  })
  @ApiEnvelope(Session)
  @ApiErrors(409)
  open(@CurrentPrincipal() p: Principal, @Body() b: OpenSessionDto) {
    return this.sessions.open(p, { storeId: b.store_id, openingBalance: b.opening_balance, cashRegisterId: b.cash_register_id, notes: b.notes });
  }

  @Get('sessions/:session')
  @OnSession('One session')
  @ApiEnvelope(Session)
  show(@CurrentPrincipal() p: Principal, @Param('session', IdPipe) id: number) {
    return this.sessions.show(p, id);
  }

  @Post('sessions/:session/cash-movement')
  @IdempotentCreate()
  @HttpCode(200)
  @WriteDeadline()
  @OnSession("Record cash_in or cash_out (only while open); amount in the store's currency")
  @ApiEnvelope(CashMovementResult)
  @ApiErrors(409)
  cashMovement(@CurrentPrincipal() p: Principal, @Param('session', IdPipe) id: number, @Body() b: CashMovementDto) {
    return this.sessions.cashMovement(p, id, { type: b.type, amount: b.amount, reason: b.reason, notes: b.notes, reference: b.reference });
  }

  @Post('sessions/:session/close')
  @HttpCode(200)
  @WriteDeadline()
  @OnSession("Close with the counted cash (in the store's currency); records expected cash and the discrepancy")
  @ApiEnvelope(Session)
  @ApiErrors(409)
  close(@CurrentPrincipal() p: Principal, @Param('session', IdPipe) id: number, @Body() b: CloseSessionDto) {
    return this.sessions.close(p, id, { closingBalance: b.closing_balance, notes: b.notes, discrepancyNotes: b.discrepancy_notes });
  }

  @Post('sessions/:session/resume')
  @HttpCode(200)
  @OnSession('Resume a suspended session')
  @ApiEnvelope(Session)
  @ApiErrors(409)
  resume(@CurrentPrincipal() p: Principal, @Param('session', IdPipe) id: number) {
    return this.sessions.resume(p, id);
  }

  @Get('sessions/:session/summary')
  @OnSession(
    'Opening balance, sales by method, cash sales (net of change) with cash tendered and change given, cash refunds, cash in/out, ' +
      'expected cash (opening + cash sales - cash refunds + cash in - cash out), discrepancy',
  )
  @ApiEnvelope(SessionSummary)
  summary(@CurrentPrincipal() p: Principal, @Param('session', IdPipe) id: number) {
    return this.sessions.summary(p, id);
  }

  @Post('sessions/:session/suspend')
  @HttpCode(200)
  @OnSession('Suspend an open session (no sales or cash movements until resumed)')
  @ApiEnvelope(Session)
  @ApiErrors(409)
  suspend(@CurrentPrincipal() p: Principal, @Param('session', IdPipe) id: number) {
    return this.sessions.suspend(p, id);
  }

  @Get('pos/session-status')
  @RateTier('pos')
  @RequirePermission('pos.access')
  @ApiOperation({ summary: 'Whether this terminal can sell: store access and an open session' })
  @ApiEnvelope(SessionStatus)
  status(@CurrentPrincipal() p: Principal, @Query() q: StoreQuery) {
    return this.sessions.status(p, q.store_id);
  }
}
