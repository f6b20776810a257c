import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Principal } from '@pos/identity';
import { toMinor } from '@pos/kernel';
import { SessionService } from '@pos/sessions';
import { CurrentPrincipal, RateTier, RequirePermission } from '../access/policy.decorators';
import { IdPipe } from '../http/id.pipe';
import { CashMovementDto, CloseSessionDto, OpenSessionDto, StoreQuery } from './sessions.dto';
import { CashMovementResult, Session, SessionStatus, SessionSummary } from './sessions.responses';
import { ApiEnvelope, ApiErrors } from '../http/openapi';

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
  @HttpCode(200)
  @RequirePermission('sessions.manage')
  @ApiOperation({ summary: 'Open a session (409 if one is already open or suspended for you in that store)' })
  @ApiEnvelope(Session)
  @ApiErrors(409)
  open(@CurrentPrincipal() p: Principal, @Body() b: OpenSessionDto) {
    return this.sessions.open(p, { storeId: b.store_id, openingBalance: toMinor(b.opening_balance), cashRegisterId: b.cash_register_id, notes: b.notes });
  }

  @Get('sessions/:session')
  @RequirePermission('sessions.manage')
  @ApiOperation({ summary: 'One session' })
  @ApiEnvelope(Session)
  show(@CurrentPrincipal() p: Principal, @Param('session', IdPipe) id: number) {
    return this.sessions.show(p, id);
  }

  @Post('sessions/:session/cash-movement')
  @HttpCode(200)
  @RequirePermission('sessions.manage')
  @ApiOperation({ summary: 'Record cash_in or cash_out (only while open)' })
  @ApiEnvelope(CashMovementResult)
  @ApiErrors(409)
  cashMovement(@CurrentPrincipal() p: Principal, @Param('session', IdPipe) id: number, @Body() b: CashMovementDto) {
    return this.sessions.cashMovement(p, id, { type: b.type, amount: toMinor(b.amount), reason: b.reason, notes: b.notes, reference: b.reference });
  }

  @Post('sessions/:session/close')
  @HttpCode(200)
  @RequirePermission('sessions.manage')
  @ApiOperation({ summary: 'Close with the counted cash; records expected cash and the discrepancy' })
  @ApiEnvelope(Session)
  @ApiErrors(409)
  close(@CurrentPrincipal() p: Principal, @Param('session', IdPipe) id: number, @Body() b: CloseSessionDto) {
    return this.sessions.close(p, id, { closingBalance: toMinor(b.closing_balance), notes: b.notes, discrepancyNotes: b.discrepancy_notes });
  }

  @Post('sessions/:session/resume')
  @HttpCode(200)
  @RequirePermission('sessions.manage')
  @ApiOperation({ summary: 'Resume a suspended session' })
  @ApiEnvelope(Session)
  @ApiErrors(409)
  resume(@CurrentPrincipal() p: Principal, @Param('session', IdPipe) id: number) {
    return this.sessions.resume(p, id);
  }

  @Get('sessions/:session/summary')
  @RequirePermission('sessions.manage')
  @ApiOperation({ summary: 'Opening balance, sales by method, cash sales and refunds, cash in/out, expected cash, discrepancy' })
  @ApiEnvelope(SessionSummary)
  summary(@CurrentPrincipal() p: Principal, @Param('session', IdPipe) id: number) {
    return this.sessions.summary(p, id);
  }

  @Post('sessions/:session/suspend')
  @HttpCode(200)
  @RequirePermission('sessions.manage')
  @ApiOperation({ summary: 'Suspend an open session (no sales or cash movements until resumed)' })
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
