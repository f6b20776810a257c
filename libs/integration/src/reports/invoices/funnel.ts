import type { ReceivableGroup } from '@pos/sales';
import { chart, n, total } from '../../application/report-kit';
import { figure, row } from '../../domain/report-figures';
import { percent } from '../../domain/report-math';
import type { ReportRow, SummaryFigure } from '../../domain/report-payload';
import { SALES } from '../../domain/rollup-tables';
import { defineReport } from '../definition';
import { currencyOf, ISSUED, openInvoices, settled } from './receivables';

// A compute report: the period's on-account invoices (sales rollup) in their state now (open invoices, settlements).
export default defineReport({
  route: 'invoices/funnel',
  operation: 'getInvoiceFunnelReport',
  title: 'Invoices: funnel',
  description:
    'On-account invoices issued in the period: voided, received a payment after the sale, paid in full (a credit note cancelling the invoice whole is not a payment), unpaid, partially paid, past due (state now).',
  permission: 'reports.sales',
  summary: ['issued', 'paid_in_full', 'collection_rate', 'open_balance', 'overdue_share'],
  columns: ['stage', 'label', 'invoices', 'amount', 'amount_is', 'currency', 'share_of_issued'],
  build: async (ctx) => {
    const { scope, money } = ctx;
    const [sold, open, settledOf] = await Promise.all([
      ctx.kit.sum(scope, { table: SALES, groupBy: ['currency_code'], measures: ISSUED }),
      openInvoices(ctx, false),
      settled(ctx),
    ]);
    const rows: ReportRow[] = [];
    const summary: SummaryFigure[] = [];
    const series = [];
    for (const c of scope.currencies) {
      const t = total(
        sold.filter((r) => r.currency_code === c),
        ISSUED,
      );
      const mine = open.filter((g) => currencyOf(scope, g.storeId) === c);
      const of = (pred: (g: ReceivableGroup) => boolean) => ({
        count: mine.filter(pred).reduce((a, g) => a + g.count, 0),
        balance: mine.filter(pred).reduce((a, g) => a + g.balance, 0),
      });
      const issued = n(t, 'credit_count') + n(t, 'void_credit_count');
      const unpaid = of((g) => g.status === 'issued');
      const partial = of((g) => g.status === 'partially_paid');
      const overdue = of((g) => g.overdue);
      // Settled = neither open nor void; paid in full = settled less what credit notes cancelled whole (the goods came back, nobody paid).
      const { invoicesPaidLater, creditedWhole } = settledOf(c);
      const paid = n(t, 'credit_count') - unpaid.count - partial.count - creditedWhole;
      const onAccount = 'on-account amount';
      const balance = 'open balance';
      const stages = [
        {
          stage: 'issued',
          label: 'On-account invoices issued',
          invoices: issued,
          amount: money.v(n(t, 'on_account') + n(t, 'void_on_account'), c),
          amount_is: onAccount,
        },
        { stage: 'voided', label: 'Voided', invoices: n(t, 'void_credit_count'), amount: money.v(n(t, 'void_on_account'), c), amount_is: onAccount },
        { stage: 'any_payment', label: 'Received a payment after the sale (in part or in full)', invoices: invoicesPaidLater, amount: null, amount_is: null },
        { stage: 'paid_in_full', label: 'Paid in full', invoices: paid, amount: null, amount_is: null },
        { stage: 'unpaid', label: 'No payment yet', invoices: unpaid.count, amount: money.v(unpaid.balance, c), amount_is: balance },
        { stage: 'partially_paid', label: 'Partially paid', invoices: partial.count, amount: money.v(partial.balance, c), amount_is: balance },
        { stage: 'overdue', label: 'Past due now', invoices: overdue.count, amount: money.v(overdue.balance, c), amount_is: balance },
      ];
      for (const s of stages) rows.push(row({ ...s, currency: c, share_of_issued: percent(s.invoices, issued) }));
      summary.push(
        figure('issued', issued, c),
        figure('paid_in_full', paid, c),
        figure('collection_rate', percent(paid, n(t, 'credit_count')), c),
        figure('open_balance', money.v(unpaid.balance + partial.balance, c), c),
        figure('overdue_share', percent(overdue.count, n(t, 'credit_count')), c),
      );
      const stage = (k: string) => stages.find((s) => s.stage === k)?.invoices ?? 0;
      series.push({ name: c, currency: c, data: ['issued', 'any_payment', 'paid_in_full'].map((k) => ({ x: k, y: stage(k) })) });
    }
    return {
      summary,
      rows,
      charts: [chart('bar', 'On-account invoice funnel', series)],
      note: 'Invoices issued in the period, in their state as of generated_at.',
    };
  },
});
