import { fromMinor } from '@pos/kernel';
import { SessionRecord } from './session.ports';

export type SessionView = ReturnType<typeof sessionView>;

export function sessionView(s: SessionRecord) {
  const m = (v: number | null) => (v === null ? null : fromMinor(v));
  return {
    id: s.id,
    user_id: s.userId,
    store_id: s.storeId,
    cash_register_id: s.cashRegisterId,
    status: s.status,
    opening_balance: fromMinor(s.openingBalance),
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
