import { Page, PageRequest } from '@pos/kernel';
import { SessionStatus } from '../domain/session';

export interface SessionRecord {
  id: number;
  userId: number;
  storeId: number;
  cashRegisterId: number | null;
  status: SessionStatus;
  liveKey: string | null;
  openingBalance: number;
  closingBalance: number | null;
  expectedCash: number | null;
  discrepancy: number | null;
  notes: string | null;
  discrepancyNotes: string | null;
  openedAt: Date;
  suspendedAt: Date | null;
  closedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface CashMovementRecord {
  id: number;
  sessionId: number;
  type: 'cash_in' | 'cash_out';
  amount: number;
  reason: string;
  notes: string | null;
  reference: string | null;
  userId: number;
  createdAt: Date;
}

export abstract class SessionRepository {
  abstract live(userId: number, storeId: number): Promise<SessionRecord | null>;
  abstract find(id: number): Promise<SessionRecord | null>;
  /** Row lock on MySQL (SQLite serialises writers): cash taken out of one drawer is judged one at a time. */
  abstract lock(id: number): Promise<void>;
  /** The user's session in the store that was opened at or before `at` and not closed before it (the latest such). */
  abstract liveAt(userId: number, storeId: number, at: Date): Promise<SessionRecord | null>;
  /** Inserts; returns null when a live session already holds the user's store slot. */
  abstract open(session: Omit<SessionRecord, 'id'>): Promise<SessionRecord | null>;
  abstract update(id: number, changes: Partial<SessionRecord>): Promise<void>;
  /** A closed session's expected cash raised by `cash` and its discrepancy lowered by it, in one statement; false when the session is not closed. */
  abstract restateClosedCash(id: number, cash: number, at: Date): Promise<boolean>;
  abstract addMovement(m: Omit<CashMovementRecord, 'id'>): Promise<CashMovementRecord>;
  abstract movements(sessionId: number): Promise<CashMovementRecord[]>;
  abstract findMany(ids: number[]): Promise<SessionRecord[]>;
  /** Cash in and cash out per session, in two sums (ids without movements are absent). */
  abstract cashTotals(ids: number[]): Promise<Map<number, { cashIn: number; cashOut: number }>>;
  abstract list(filter: { storeIds: readonly number[] | 'all'; userId?: number; status?: SessionStatus }, page: PageRequest): Promise<Page<SessionRecord>>;
}

/** A session's own cash figures for reports (closeout): the record and its cash movements summed. */
export interface SessionCashSummary {
  session: SessionRecord;
  cashIn: number;
  cashOut: number;
}

/** A session's sales (voided ones excluded), in minor units of the store's currency. */
export interface SessionSalesFigures {
  salesCount: number;
  salesTotal: number;
  /** What the payments paid towards the sales' totals, per payment method code (cash net of change). */
  byMethod: Record<string, number>;
  /** Payment amounts of cash tenders (methods of type cash): what stayed in the drawer, net of change. */
  cashSales: number;
  /** Cash handed over by customers (`tendered`), before change. */
  cashTendered: number;
  /** Change handed back from the drawer; cashTendered - changeGiven = cashSales. */
  changeGiven: number;
}

/**
 * Sales figures of a session. Sessions own the port; the sales context (which depends on
 * sessions) binds it, and SessionService checks the binding at boot (requirePort).
 */
export abstract class SessionSalesTotals {
  /**
   * `closed`: a closed session's figures as its drawer stood when counted (a sale voided after the
   * close still counts: its cash was in the drawer).
   */
  abstract totals(sessionId: number, closed?: boolean): Promise<SessionSalesFigures>;
}

/**
 * Cash paid back to customers at a session's till (returns processed by its cashier while it was
 * open). Sessions own the port; the returns context binds it, and SessionService checks the
 * binding at boot (requirePort).
 */
export abstract class SessionRefundTotals {
  abstract cashRefunds(sessionId: number): Promise<number>;
}
