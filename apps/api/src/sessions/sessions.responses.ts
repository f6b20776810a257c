import { defineView, s } from '../http/openapi';

export const Session = defineView('Session', {
  id: s.int(),
  user_id: s.int(),
  store_id: s.int(),
  cash_register_id: s.nullable(s.int()),
  status: s.enum(['open', 'suspended', 'closed']),
  opening_balance: s.money(),
  closing_balance: s.nullable(s.money()),
  expected_cash: s.nullable(s.money()),
  discrepancy: s.nullable(s.money()),
  notes: s.nullable(s.string()),
  discrepancy_notes: s.nullable(s.string()),
  opened_at: s.dateTime(),
  suspended_at: s.nullable(s.dateTime()),
  closed_at: s.nullable(s.dateTime()),
});

export const CashMovement = defineView('CashMovement', {
  id: s.int(),
  session_id: s.int(),
  type: s.enum(['cash_in', 'cash_out']),
  amount: s.money(),
  reason: s.string(),
  notes: s.nullable(s.string()),
  reference: s.nullable(s.string()),
  user_id: s.int(),
  created_at: s.dateTime(),
});

export const CashMovementResult = defineView('CashMovementResult', { movement: CashMovement, session: Session });

export const SessionSummary = defineView('SessionSummary', {
  session: Session,
  opening_balance: s.money(),
  sales_count: s.int(),
  sales_total: s.money(),
  totals_by_payment_method: s.map(s.money(), 'Payment method code -> total'),
  cash_sales: s.money('Payment amounts of cash tenders, net of change (D3)'),
  cash_tendered: s.money('Cash handed over by customers, before change'),
  change_given: s.money('Change handed back: cash_tendered - change_given = cash_sales'),
  cash_refunds: s.money(),
  cash_in: s.money(),
  cash_out: s.money(),
  expected_cash: s.money('opening_balance + cash_sales - cash_refunds + cash_in - cash_out'),
  closing_balance: s.nullable(s.money()),
  discrepancy: s.nullable(s.money('closing_balance - expected_cash')),
  movements: s.array(CashMovement),
});

export const SessionStatus = defineView('SessionStatus', {
  store_id: s.int(),
  store_access: s.bool(),
  has_open_session: s.bool(),
  session: s.nullable(Session),
  can_sell: s.bool(),
  reason: s.nullable(s.enum(['no_store_access', 'no_open_session', 'session_suspended'])),
});
