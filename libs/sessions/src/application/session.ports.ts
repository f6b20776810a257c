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
  /** Inserts; returns null when a live session already holds the user's store slot. */
  abstract open(session: Omit<SessionRecord, 'id'>): Promise<SessionRecord | null>;
  abstract update(id: number, changes: Partial<SessionRecord>): Promise<void>;
  abstract addMovement(m: Omit<CashMovementRecord, 'id'>): Promise<CashMovementRecord>;
  abstract movements(sessionId: number): Promise<CashMovementRecord[]>;
  /** Whether a (live) store with this id exists: a user with every store may still name one that does not. */
  abstract storeExists(storeId: number): Promise<boolean>;
  abstract list(filter: { storeIds: readonly number[] | 'all'; userId?: number; status?: SessionStatus }, page: PageRequest): Promise<Page<SessionRecord>>;
}

/** Sales figures of a session; provided by the sales context (checkout). */
export abstract class SessionSalesTotals {
  abstract totals(
    sessionId: number,
  ): Promise<{ salesCount: number; salesTotal: number; byMethod: Record<string, number>; cashSales: number; cashRefunds: number }>;
}
