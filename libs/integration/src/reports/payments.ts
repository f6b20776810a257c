import { PAYMENTS } from '../domain/rollup-tables';
import { defineReport } from './definition';
import { PAYMENT_FIGURES } from './figures/payments.figures';
import { BY_METHOD, BY_METHOD_DAY } from './grain-codes';
import { rollupReport } from './rollup-report';

export default defineReport({
  route: 'payments',
  operation: 'getPaymentsReport',
  title: 'Payments',
  description: 'Per payment method: payments, money taken (after change), change given, refunds, net, share; voided sales’ payments are reversed.',
  permission: 'reports.payments',
  ...rollupReport({
    table: PAYMENTS,
    figures: PAYMENT_FIGURES,
    summary: ['payments', 'taken', 'refunded', 'net_taken', 'change_given', 'voided', 'net_cash', 'net_card', 'net_on_account'],
    rows: {
      grain: BY_METHOD,
      columns: [
        'method_code',
        'method_type',
        'currency',
        'payments',
        'taken',
        'change_given',
        'refund_count',
        'refunded',
        'net',
        'share_percent',
        'voided_payments',
        'voided_amount',
      ],
      rankBy: 'taken',
    },
    charts: [
      { type: 'pie', title: 'Money taken by method', metric: 'taken', grain: BY_METHOD, x: 'method_code' },
      { type: 'line', title: 'Net taken per day by method', metric: 'net_taken', grain: BY_METHOD_DAY, split: 'method_code' },
    ],
  }),
});
