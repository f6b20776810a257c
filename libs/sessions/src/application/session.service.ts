import { Injectable, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { Clock, fromMinor, NotFoundError, ValidationFailedError } from '@pos/kernel';
import { canAccessStore, currentStoreId, Principal } from '@pos/identity';
import { StoreContext } from '@pos/catalog';
import { AuditLog, ChangeLog, requirePort, Transactional } from '@pos/platform';
import { SessionClosed, SessionOpened } from './session.events';
import { sessionView } from './session.views';
import { expectedCash, transition } from '../domain/session';
import { SessionErrors } from '../domain/session.errors';
import { CashMovementRecord, SessionCashSummary, SessionRecord, SessionRefundTotals, SessionRepository, SessionSalesTotals } from './session.ports';

function movementView(m: CashMovementRecord) {
  return {
    id: m.id,
    session_id: m.sessionId,
    type: m.type,
    amount: fromMinor(m.amount),
    reason: m.reason,
    notes: m.notes,
    reference: m.reference,
    user_id: m.userId,
    created_at: m.createdAt.toISOString(),
  };
}

/**
 * Cashier sessions: one live (open or suspended) session per user and store, enforced by a
 * unique index; states and 409s per decisions.md. A session is visible to anyone working in its
 * store (managers check tills), changed by its cashier or anyone with the store.
 */
@Injectable()
export class SessionService implements OnModuleInit {
  private sales!: SessionSalesTotals;
  private refunds!: SessionRefundTotals;

  constructor(
    private readonly sessions: SessionRepository,
    private readonly stores: StoreContext,
    private readonly changes: ChangeLog,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
    private readonly moduleRef: ModuleRef,
  ) {}

  onModuleInit(): void {
    this.sales = requirePort(this.moduleRef, SessionSalesTotals, 'SessionService', 'SalesModule');
    this.refunds = requirePort(this.moduleRef, SessionRefundTotals, 'SessionService', 'ReturnsModule');
  }

  async current(principal: Principal, storeIdParam?: number) {
    const store = await this.stores.resolve(principal, storeIdParam);
    const s = await this.sessions.live(principal.userId, store.id);
    return s ? sessionView(s) : null;
  }

  @Transactional()
  async open(principal: Principal, input: { storeId: number; openingBalance: number; cashRegisterId?: number; notes?: string }) {
    await this.stores.resolve(principal, input.storeId);
    const now = this.clock.now();
    const created = await this.sessions.open({
      userId: principal.userId,
      storeId: input.storeId,
      cashRegisterId: input.cashRegisterId ?? null,
      status: 'open',
      liveKey: `${principal.userId}:${input.storeId}`,
      openingBalance: input.openingBalance,
      closingBalance: null,
      expectedCash: null,
      discrepancy: null,
      notes: input.notes ?? null,
      discrepancyNotes: null,
      openedAt: now,
      suspendedAt: null,
      closedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    if (!created) throw SessionErrors.alreadyOpen();
    const view = sessionView(created);
    await this.changes.event(SessionOpened, { session: view }, created.storeId);
    await this.audit.record({ action: 'session.opened', target: { type: 'session', id: created.id }, storeId: created.storeId, after: view });
    return view;
  }

  async show(principal: Principal, id: number) {
    return sessionView(await this.visible(principal, id));
  }

  @Transactional()
  async cashMovement(
    principal: Principal,
    id: number,
    input: { type: 'cash_in' | 'cash_out'; amount: number; reason: string; notes?: string; reference?: string },
  ) {
    const s = await this.visible(principal, id);
    transition(s.status, 'cash_movement');
    if (input.amount <= 0) throw ValidationFailedError.field('amount', 'The amount must be greater than 0.');
    const movement = await this.sessions.addMovement({
      sessionId: s.id,
      type: input.type,
      amount: input.amount,
      reason: input.reason,
      notes: input.notes ?? null,
      reference: input.reference ?? null,
      userId: principal.userId,
      createdAt: this.clock.now(),
    });
    return { movement: movementView(movement), session: sessionView(s) };
  }

  /** The session of a user in a store at a moment (an offline sale attaches to it), if there was one. */
  sessionAt(userId: number, storeId: number, at: Date): Promise<SessionRecord | null> {
    return this.sessions.liveAt(userId, storeId, at);
  }

  /**
   * A cash movement a terminal recorded while offline, at `at`: into the session named, else the
   * caller's session that was live in the store then. The session must still be open or suspended
   * (a closed session's count is final: 409) and must have been open at `at` (422).
   */
  @Transactional()
  async recordOfflineCashMovement(
    principal: Principal,
    input: { storeId: number; sessionId?: number; at: Date; type: 'cash_in' | 'cash_out'; amount: number; reason: string; notes?: string; reference?: string },
  ) {
    await this.stores.resolve(principal, input.storeId);
    const s = input.sessionId !== undefined ? await this.sessions.find(input.sessionId) : await this.sessions.liveAt(principal.userId, input.storeId, input.at);
    if (input.sessionId !== undefined && (!s || s.storeId !== input.storeId || !canAccessStore(principal, s.storeId)))
      throw ValidationFailedError.field('session_id', 'The selected session does not exist in this store.');
    if (!s) throw ValidationFailedError.field('session_id', 'No session of yours was open in this store at offline_created_at; name one with session_id.');
    if (s.openedAt > input.at) throw ValidationFailedError.field('offline_created_at', 'The session was not open yet at offline_created_at.');
    if (s.status === 'closed') throw SessionErrors.invalidState('closed', 'take cash movements');
    if (input.amount <= 0) throw ValidationFailedError.field('amount', 'The amount must be greater than 0.');
    const movement = await this.sessions.addMovement({
      sessionId: s.id,
      type: input.type,
      amount: input.amount,
      reason: input.reason,
      notes: input.notes ?? null,
      reference: input.reference ?? null,
      userId: principal.userId,
      createdAt: input.at,
    });
    return { movement: movementView(movement), session: sessionView(s) };
  }

  @Transactional()
  async suspend(principal: Principal, id: number) {
    return this.move(principal, id, 'suspend', { suspendedAt: this.clock.now() });
  }

  @Transactional()
  async resume(principal: Principal, id: number) {
    return this.move(principal, id, 'resume', { suspendedAt: null });
  }

  @Transactional()
  async close(principal: Principal, id: number, input: { closingBalance: number; notes?: string; discrepancyNotes?: string }) {
    const s = await this.visible(principal, id);
    transition(s.status, 'close');
    const figures = await this.figures(s);
    const expected = expectedCash(figures);
    const now = this.clock.now();
    await this.sessions.update(s.id, {
      status: 'closed',
      liveKey: null,
      closingBalance: input.closingBalance,
      expectedCash: expected,
      discrepancy: input.closingBalance - expected,
      notes: input.notes ?? s.notes,
      discrepancyNotes: input.discrepancyNotes ?? null,
      closedAt: now,
      updatedAt: now,
    });
    const closed = sessionView((await this.sessions.find(s.id))!);
    await this.changes.event(SessionClosed, { session: closed }, s.storeId);
    await this.audit.record({ action: 'session.closed', target: { type: 'session', id: s.id }, storeId: s.storeId, before: sessionView(s), after: closed });
    return closed;
  }

  /** decisions.md: opening balance, sales count and totals by method, cash sales and refunds, cash in/out, expected cash; after close the count and discrepancy. */
  async summary(principal: Principal, id: number) {
    const s = await this.visible(principal, id);
    const f = await this.figures(s);
    const totals = await this.sales.totals(s.id);
    return {
      session: sessionView(s),
      opening_balance: fromMinor(f.openingBalance),
      sales_count: f.salesCount,
      sales_total: fromMinor(totals.salesTotal),
      totals_by_payment_method: Object.fromEntries(Object.entries(f.salesByMethod).map(([k, v]) => [k, fromMinor(v)])),
      cash_sales: fromMinor(f.cashSales),
      cash_refunds: fromMinor(f.cashRefunds),
      cash_in: fromMinor(f.cashIn),
      cash_out: fromMinor(f.cashOut),
      expected_cash: fromMinor(expectedCash(f)),
      closing_balance: s.closingBalance === null ? null : fromMinor(s.closingBalance),
      discrepancy: s.discrepancy === null ? null : fromMinor(s.discrepancy),
      movements: (await this.sessions.movements(s.id)).map(movementView),
    };
  }

  /** Whether a terminal can sell: store access and an open (not suspended) session there. */
  async status(principal: Principal, storeIdParam?: number) {
    const storeId = storeIdParam ?? currentStoreId(principal);
    if (storeId === null) throw ValidationFailedError.field('store_id', 'The store_id field is required.');
    const access = canAccessStore(principal, storeId);
    const s = access ? await this.sessions.live(principal.userId, storeId) : null;
    const canSell = access && s?.status === 'open';
    return {
      store_id: storeId,
      store_access: access,
      has_open_session: s?.status === 'open',
      session: s ? sessionView(s) : null,
      can_sell: canSell,
      reason: canSell ? null : !access ? 'no_store_access' : !s ? 'no_open_session' : 'session_suspended',
    };
  }

  /** Published to reports (closeout), read only: sessions by id with their cash in and out summed. */
  async cashSummaries(ids: number[]): Promise<SessionCashSummary[]> {
    const [sessions, cash] = await Promise.all([this.sessions.findMany(ids), this.sessions.cashTotals(ids)]);
    return sessions.map((session) => ({ session, cashIn: cash.get(session.id)?.cashIn ?? 0, cashOut: cash.get(session.id)?.cashOut ?? 0 }));
  }

  /** The open session a checkout must attach to (409 without one). */
  async requireOpen(principal: Principal, storeId: number): Promise<SessionRecord> {
    const s = await this.sessions.live(principal.userId, storeId);
    if (!s) throw SessionErrors.noOpenSession();
    transition(s.status, 'sell');
    return s;
  }

  /**
   * The session whose drawer a user's cash goes through in a store right now: their open one
   * (null when they have none, or it is suspended: cash movements are refused then too).
   */
  async openSessionId(userId: number, storeId: number): Promise<number | null> {
    const s = await this.sessions.live(userId, storeId);
    return s?.status === 'open' ? s.id : null;
  }

  private async figures(s: SessionRecord) {
    const [totals, cashRefunds, movements] = await Promise.all([this.sales.totals(s.id), this.refunds.cashRefunds(s.id), this.sessions.movements(s.id)]);
    const sum = (type: string) => movements.filter((m) => m.type === type).reduce((a, m) => a + m.amount, 0);
    return {
      openingBalance: s.openingBalance,
      salesByMethod: totals.byMethod,
      salesCount: totals.salesCount,
      cashSales: totals.cashSales,
      cashRefunds,
      cashIn: sum('cash_in'),
      cashOut: sum('cash_out'),
    };
  }

  private async move(principal: Principal, id: number, action: 'suspend' | 'resume', changes: Partial<SessionRecord>) {
    const s = await this.visible(principal, id);
    const status = transition(s.status, action);
    await this.sessions.update(s.id, { ...changes, status, updatedAt: this.clock.now() });
    return sessionView((await this.sessions.find(s.id))!);
  }

  private async visible(principal: Principal, id: number): Promise<SessionRecord> {
    const s = await this.sessions.find(id);
    if (!s || !canAccessStore(principal, s.storeId)) throw new NotFoundError('Session');
    return s;
  }
}
