import { SessionErrors } from './session.errors';

/** Cashier session states (decisions.md): open -> suspended -> open; open|suspended -> closed. */
export type SessionStatus = 'open' | 'suspended' | 'closed';
export type SessionAction = 'suspend' | 'resume' | 'close' | 'cash_movement' | 'sell';

const ALLOWED: Record<SessionAction, SessionStatus[]> = {
  suspend: ['open'],
  resume: ['suspended'],
  close: ['open', 'suspended'],
  cash_movement: ['open'],
  sell: ['open'],
};

const NEXT: Partial<Record<SessionAction, SessionStatus>> = { suspend: 'suspended', resume: 'open', close: 'closed' };

/** The status after an action, or a 409 naming the state that forbids it. */
export function transition(status: SessionStatus, action: SessionAction): SessionStatus {
  if (!ALLOWED[action].includes(status)) {
    throw SessionErrors.invalidState(status, action);
  }
  return NEXT[action] ?? status;
}

export interface SessionFigures {
  openingBalance: number;
  /** Payment amounts applied to sales, by payment method code (cash net of change). */
  salesByMethod: Record<string, number>;
  salesCount: number;
  cashSales: number;
  cashRefunds: number;
  cashIn: number;
  cashOut: number;
}

/** Expected cash in the drawer: opening + cash sales - cash refunds + cash in - cash out. */
export function expectedCash(f: SessionFigures): number {
  return f.openingBalance + f.cashSales - f.cashRefunds + f.cashIn - f.cashOut;
}
