import { percent } from '../../domain/report-math';
import type { MeasureOf } from '../../domain/rollup-tables';
import { PAYMENTS } from '../../domain/rollup-tables';
import type { FigureSet, FormulaContext } from '../formula';

type P = MeasureOf<typeof PAYMENTS>;

/** Net taken (taken - refunded) by the currency's methods of one type (cash, card, on_account). */
const netOfType = (type: string) => ({
  of: ['amount', 'refund_amount'] as const,
  value: (_r: unknown, x: FormulaContext<P>) => x.groups.filter((g) => g.method_type === type).reduce((a, g) => a + g.amount - g.refund_amount, 0),
});

/** The payment figures of metrics.ts over the payments rollup (rpt_payments), in minor units. */
export const PAYMENT_FIGURES = {
  payments: (r) => r.payment_count,
  taken: (r) => r.amount,
  refunded: (r) => r.refund_amount,
  refund_count: (r) => r.refund_count,
  net_taken: (r) => r.amount - r.refund_amount,
  net: (r) => r.amount - r.refund_amount,
  change_given: (r) => r.change_given,
  voided: (r) => r.void_amount,
  voided_amount: (r) => r.void_amount,
  voided_payments: (r) => r.void_count,
  share_percent: (r, x) => percent(r.amount, x.total.amount),
  net_cash: netOfType('cash'),
  net_card: netOfType('card'),
  net_on_account: netOfType('on_account'),
} satisfies FigureSet<P>;
