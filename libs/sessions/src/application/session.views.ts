import { fromMinor } from '@pos/kernel';
import { CashMovementRecord, SessionRecord } from './session.ports';

export type SessionView = ReturnType<typeof sessionView>;

/** A session as JSON; `decimals` are those of its store's currency (USD 2, JPY 0), as its amounts are. */
export function sessionView(s: SessionRecord, decimals: number) {
  const m = (v: number | null) => (v === null ? null : fromMinor(v, decimals));
  return {
    id: s.id,
    user_id: s.userId,
    store_id: s.storeId,
    cash_register_id: s.cashRegisterId,
    status: s.status,
    opening_balance: fromMinor(s.openingBalance, decimals),
    closing_balance: m(s.closingBalance),
    expected_cash: m(s.expectedCash),
    discrepancy: m(s.discrepancy),
    notes: s.notes,
    discrepancy_notes: s.discrepancyNotes,
    opened_at: s.openedAt.toISOString(),
    suspended_at: s.suspendedAt?.toISOString() ?? null,
    closed_at: s.closedAt?.toISOString() ?? null,
  };
}

export function movementView(m: CashMovementRecord, decimals: number) {
  return {
    id: m.id,
    session_id: m.sessionId,
    type: m.type,
    amount: fromMinor(m.amount, decimals),
    reason: m.reason,
    notes: m.notes,
    reference: m.reference,
    user_id: m.userId,
    created_at: m.createdAt.toISOString(),
  };
}
