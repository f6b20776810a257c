import { Injectable, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { amountToMinor, Clock, ConflictError, fromMinor, minorToString, NotFoundError, ValidationFailedError } from '@pos/kernel';
import { canAccessStore, currentStoreId, hasPermission, Permission, Principal } from '@pos/identity';
import { StoreContext } from '@pos/catalog';
import { CurrencyDecimals } from '@pos/pricing';
import { AuditLog, ChangeLog, requirePort, Transactional } from '@pos/platform';
import { SessionClosed, SessionOpened } from './session.events';
import { movementView, sessionView } from './session.views';
import { expectedCash, transition } from '../domain/session';
import { SessionErrors } from '../domain/session.errors';
import { SessionCashSummary, SessionRecord, SessionRefundTotals, SessionRepository, SessionSalesTotals } from './session.ports';

/** Reading or acting on another user's session (managers checking and closing tills). */
const SUPERVISE_SESSIONS: Permission = 'sessions.supervise';

/**
 * Cashier sessions: one live (open or suspended) session per user and store, enforced by a
 * unique index; states and 409s per decisions.md. A session is its user's own: another user
 * reads or acts on it only with `sessions.supervise` and access to its store; to anyone else it
 * is 404, as an unknown id (its existence is not revealed). Amounts are in the minor units of the
 * store's currency; JSON amounts in and out use that currency's decimals (USD 2, JPY 0).
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
    private readonly currencies: CurrencyDecimals,
  ) {}

  onModuleInit(): void {
    this.sales = requirePort(this.moduleRef, SessionSalesTotals, 'SessionService', 'SalesModule');
    this.refunds = requirePort(this.moduleRef, SessionRefundTotals, 'SessionService', 'ReturnsModule');
  }

  async current(principal: Principal, storeIdParam?: number) {
    const store = await this.stores.resolve(principal, storeIdParam);
    const s = await this.sessions.live(principal.userId, store.id);
    return s ? sessionView(s, await this.decimals(s.storeId)) : null;
  }

  /** `openingBalance` is the JSON amount, in the store's currency (more decimals than it has: 422). */
  @Transactional()
  async open(principal: Principal, input: { storeId: number; openingBalance: number; cashRegisterId?: number; notes?: string }) {
    await this.stores.resolve(principal, input.storeId);
    const decimals = await this.decimals(input.storeId);
    const openingBalance = amountToMinor(input.openingBalance, decimals, 'opening_balance');
    const now = this.clock.now();
    const created = await this.sessions.open({
      userId: principal.userId,
      storeId: input.storeId,
      cashRegisterId: input.cashRegisterId ?? null,
      status: 'open',
      liveKey: `${principal.userId}:${input.storeId}`,
      openingBalance,
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
    const view = sessionView(created, decimals);
    await this.changes.event(SessionOpened, { session: view }, created.storeId);
    await this.audit.record({ action: 'session.opened', target: { type: 'session', id: created.id }, storeId: created.storeId, after: view });
    return view;
  }

  async show(principal: Principal, id: number) {
    const s = await this.visible(principal, id);
    return sessionView(s, await this.decimals(s.storeId));
  }

  /** `amount` is the JSON amount, in the store's currency. */
  @Transactional()
  async cashMovement(
    principal: Principal,
    id: number,
    input: { type: 'cash_in' | 'cash_out'; amount: number; reason: string; notes?: string; reference?: string },
  ) {
    // First, before any read: two payouts from one drawer take turns, and the second reads what
    // the first committed (MySQL's snapshot starts at the transaction's first plain read).
    if (input.type === 'cash_out') await this.sessions.lock(id);
    const s = await this.visible(principal, id);
    transition(s.status, 'cash_movement');
    const decimals = await this.decimals(s.storeId);
    const amount = amountToMinor(input.amount, decimals, 'amount');
    if (amount <= 0) throw ValidationFailedError.field('amount', 'The amount must be greater than 0.');
    if (input.type === 'cash_out') {
      // A drawer cannot give what it does not hold: a shortfall would read as an overage at the count.
      const expected = expectedCash(await this.figures(s));
      if (amount > expected)
        throw ValidationFailedError.field('amount', `The drawer is expected to hold ${minorToString(expected, decimals)}: it cannot pay out more.`);
    }
    const movement = await this.sessions.addMovement({
      sessionId: s.id,
      type: input.type,
      amount,
      reason: input.reason,
      notes: input.notes ?? null,
      reference: input.reference ?? null,
      userId: principal.userId,
      createdAt: this.clock.now(),
    });
    return { movement: movementView(movement, decimals), session: sessionView(s, decimals) };
  }

  /** The session of a user in a store at a moment (an offline sale attaches to it), if there was one. */
  sessionAt(userId: number, storeId: number, at: Date): Promise<SessionRecord | null> {
    return this.sessions.liveAt(userId, storeId, at);
  }

  /**
   * A cash movement a terminal recorded while offline, at `at`: into the session named, else the
   * caller's session that was live in the store then. The session must still be open or suspended
   * (a closed session's count is final: 409) and must have been open at `at` (422). Another
   * user's session is named only with `sessions.supervise` (else 422, as an unknown one). The
   * amount is already in minor units of the store's currency (the upload converts it).
   */
  @Transactional()
  async recordOfflineCashMovement(
    principal: Principal,
    input: { storeId: number; sessionId?: number; at: Date; type: 'cash_in' | 'cash_out'; amount: number; reason: string; notes?: string; reference?: string },
  ) {
    await this.stores.resolve(principal, input.storeId);
    const s = input.sessionId !== undefined ? await this.sessions.find(input.sessionId) : await this.sessions.liveAt(principal.userId, input.storeId, input.at);
    if (input.sessionId !== undefined && (!s || s.storeId !== input.storeId || !this.mayAccess(principal, s)))
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
    const decimals = await this.decimals(s.storeId);
    return { movement: movementView(movement, decimals), session: sessionView(s, decimals) };
  }

  @Transactional()
  async suspend(principal: Principal, id: number) {
    return this.move(principal, id, 'suspend', { suspendedAt: this.clock.now() });
  }

  @Transactional()
  async resume(principal: Principal, id: number) {
    return this.move(principal, id, 'resume', { suspendedAt: null });
  }

  /**
   * `closingBalance` is the counted cash as a JSON amount, in the store's currency. The audit entry
   * names who closed it (`closed_by`; its actor) beside whose it was (`user_id`).
   */
  @Transactional()
  async close(principal: Principal, id: number, input: { closingBalance: number; notes?: string; discrepancyNotes?: string }) {
    const s = await this.visible(principal, id);
    transition(s.status, 'close');
    const decimals = await this.decimals(s.storeId);
    const closingBalance = amountToMinor(input.closingBalance, decimals, 'closing_balance');
    const figures = await this.figures(s);
    const expected = expectedCash(figures);
    const now = this.clock.now();
    await this.sessions.update(s.id, {
      status: 'closed',
      liveKey: null,
      closingBalance,
      expectedCash: expected,
      discrepancy: closingBalance - expected,
      notes: input.notes ?? s.notes,
      discrepancyNotes: input.discrepancyNotes ?? null,
      closedAt: now,
      updatedAt: now,
    });
    const closed = sessionView((await this.sessions.find(s.id))!, decimals);
    await this.changes.event(SessionClosed, { session: closed }, s.storeId);
    await this.audit.record({
      action: 'session.closed',
      target: { type: 'session', id: s.id },
      storeId: s.storeId,
      before: sessionView(s, decimals),
      after: { ...closed, closed_by: principal.userId },
    });
    return closed;
  }

  /**
   * decisions.md and D3: opening balance, sales count and totals by method, cash sales (net of
   * change) with the cash tendered and the change given, cash refunds, cash in/out, expected cash
   * (opening + cash sales - cash refunds + cash in - cash out); after close the count and discrepancy.
   */
  async summary(principal: Principal, id: number) {
    const s = await this.visible(principal, id);
    const [f, decimals, movements] = await Promise.all([this.figures(s), this.decimals(s.storeId), this.sessions.movements(s.id)]);
    const m = (v: number) => fromMinor(v, decimals);
    return {
      session: sessionView(s, decimals),
      opening_balance: m(f.openingBalance),
      sales_count: f.salesCount,
      sales_total: m(f.salesTotal),
      totals_by_payment_method: Object.fromEntries(Object.entries(f.salesByMethod).map(([k, v]) => [k, m(v)])),
      cash_sales: m(f.cashSales),
      cash_tendered: m(f.cashTendered),
      change_given: m(f.changeGiven),
      cash_refunds: m(f.cashRefunds),
      cash_in: m(f.cashIn),
      cash_out: m(f.cashOut),
      expected_cash: m(expectedCash(f)),
      closing_balance: s.closingBalance === null ? null : m(s.closingBalance),
      discrepancy: s.discrepancy === null ? null : m(s.discrepancy),
      movements: movements.map((x) => movementView(x, decimals)),
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
      session: s ? sessionView(s, await this.decimals(s.storeId)) : null,
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
  /** Whether a session has closed (its drawer counted): a sale of it voided now leaves its figures alone. */
  async isClosed(sessionId: number): Promise<boolean> {
    return (await this.sessions.find(sessionId))?.status === 'closed';
  }

  /**
   * Cash a void hands back after the sale's own drawer was counted: paid out of the voiding
   * user's open session in the store, as a `cash_out` naming the sale (a return's cash refund
   * counts in the same drawer); without an open session it counts in none, as for returns.
   */
  async payOutVoidedCash(userId: number, storeId: number, amount: number, reason: string, at: Date): Promise<void> {
    if (amount <= 0) return;
    const sessionId = await this.openSessionId(userId, storeId);
    if (sessionId === null) return;
    await this.sessions.addMovement({ sessionId, type: 'cash_out', amount, reason, notes: null, reference: null, userId, createdAt: at });
  }

  /**
   * An offline sale that arrived after the close of the session it attaches to (the cashier's
   * session open when it was made): that drawer was counted with the sale's cash in it, so its
   * stored expected cash and discrepancy are restated by that cash, as its summary and the
   * closeout report count the sale. One statement, so uploads at once add up; an audit entry
   * names the sale. `cash`: the sale's cash payments net of change, in minor units.
   */
  async restateForLateSale(sessionId: number, cash: number, sale: { id: number; receiptNumber: string }, at: Date): Promise<void> {
    if (cash === 0 || !(await this.sessions.restateClosedCash(sessionId, cash, at))) return;
    const s = (await this.sessions.find(sessionId))!;
    const decimals = await this.decimals(s.storeId);
    const figures = (expected: number, discrepancy: number) => ({
      expected_cash: fromMinor(expected, decimals),
      discrepancy: fromMinor(discrepancy, decimals),
    });
    await this.audit.record({
      action: 'session.restated',
      target: { type: 'session', id: s.id },
      storeId: s.storeId,
      before: figures(s.expectedCash! - cash, s.discrepancy! + cash),
      after: { ...figures(s.expectedCash!, s.discrepancy!), late_sale_id: sale.id, late_sale_receipt: sale.receiptNumber },
    });
  }

  /**
   * Cash a drawer pays back for a return processed at it: not more than the drawer is expected to
   * hold (409 insufficient_cash), as a cash out. `cash` in minor units; no session: no drawer to check.
   */
  async assertDrawerHolds(sessionId: number | null, cash: number): Promise<void> {
    if (sessionId === null || cash <= 0) return;
    const s = (await this.sessions.find(sessionId))!;
    const expected = expectedCash(await this.figures(s));
    if (cash <= expected) return;
    const d = await this.decimals(s.storeId);
    throw new ConflictError(
      'insufficient_cash',
      `The drawer is expected to hold ${minorToString(expected, d)}: it cannot refund ${minorToString(cash, d)} in cash. Put cash in first, or process the return at another drawer.`,
    );
  }

  async openSessionId(userId: number, storeId: number): Promise<number | null> {
    const s = await this.sessions.live(userId, storeId);
    return s?.status === 'open' ? s.id : null;
  }

  private async figures(s: SessionRecord) {
    // A closed session's drawer as it stood when counted: a void after the close does not rewrite it.
    const [totals, cashRefunds, movements] = await Promise.all([
      this.sales.totals(s.id, s.status === 'closed'),
      this.refunds.cashRefunds(s.id),
      this.sessions.movements(s.id),
    ]);
    const sum = (type: string) => movements.filter((m) => m.type === type).reduce((a, m) => a + m.amount, 0);
    return {
      openingBalance: s.openingBalance,
      salesByMethod: totals.byMethod,
      salesCount: totals.salesCount,
      salesTotal: totals.salesTotal,
      cashSales: totals.cashSales,
      cashTendered: totals.cashTendered,
      changeGiven: totals.changeGiven,
      cashRefunds,
      cashIn: sum('cash_in'),
      cashOut: sum('cash_out'),
    };
  }

  private async move(principal: Principal, id: number, action: 'suspend' | 'resume', changes: Partial<SessionRecord>) {
    const s = await this.visible(principal, id);
    const status = transition(s.status, action);
    await this.sessions.update(s.id, { ...changes, status, updatedAt: this.clock.now() });
    return sessionView((await this.sessions.find(s.id))!, await this.decimals(s.storeId));
  }

  /** The session by id if the caller may read and act on it; 404 otherwise (another user's session without the permission too). */
  private async visible(principal: Principal, id: number): Promise<SessionRecord> {
    const s = await this.sessions.find(id);
    if (!s || !this.mayAccess(principal, s)) throw new NotFoundError('Session');
    return s;
  }

  /** Store scoping first, then ownership: the user's own session, or any in their stores with `sessions.supervise`. */
  private mayAccess(principal: Principal, s: SessionRecord): boolean {
    return canAccessStore(principal, s.storeId) && (s.userId === principal.userId || hasPermission(principal, SUPERVISE_SESSIONS));
  }

  /** Decimals of the currency of a session's store: its amounts are minor units of that currency. */
  private decimals(storeId: number): Promise<number> {
    return this.currencies.ofStore(storeId);
  }
}
