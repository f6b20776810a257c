import type { ReceivableGroup } from '@pos/sales';
import { chart, dailyPoints, groupRows, n, total, perCurrency } from '../application/report-kit';
import { formatDay } from '../domain/calendar';
import { figure, row } from '../domain/report-figures';
import type { SummaryFigure } from '../domain/report-payload';
import { SALES } from '../domain/rollup-tables';
import { defineReport } from './definition';
import { currencyOf, ISSUED, openInvoices, settled } from './invoices/receivables';

// A compute report: issue figures from the sales rollup, the status now from the open invoices.
export default defineReport({
  route: 'invoices',
  operation: 'getInvoicesReport',
  title: 'Invoices',
  description: 'Invoices issued per day: amount, paid at the till, on account, void; the period’s invoices by status now (open, past due).',
  permission: 'reports.sales',
  summary: [
    'invoices_issued',
    'amount_issued',
    'paid_at_till',
    'on_account_invoices',
    'on_account_amount',
    'open_invoices',
    'open_balance',
    'overdue_invoices',
    'overdue_balance',
    'collected_on_account',
    'void_invoices',
    'void_amount',
    'credit_notes',
    'credit_note_total',
  ],
  columns: [
    'date',
    'currency',
    'invoices_issued',
    'amount_issued',
    'paid_at_till',
    'on_account_invoices',
    'on_account_amount',
    'void_invoices',
    'credit_notes',
  ],
  build: async (ctx) => {
    const { scope, money } = ctx;
    const [daily, open, settledOf] = await Promise.all([
      ctx.kit.sum(scope, { table: SALES, daily: true, groupBy: ['day', 'currency_code'], measures: ISSUED }),
      openInvoices(ctx, false),
      settled(ctx),
    ]);
    const byCur = groupRows(daily, 'currency_code');
    const summary: SummaryFigure[] = [];
    const statusSeries = [];
    for (const c of scope.currencies) {
      const t = total(byCur.get(c) ?? [], ISSUED);
      const mine = open.filter((g) => currencyOf(scope, g.storeId) === c);
      const sumOf = (list: ReceivableGroup[], k: 'count' | 'balance') => list.reduce((a, g) => a + g[k], 0);
      const overdue = mine.filter((g) => g.overdue);
      const issued = n(t, 'sales_count') + n(t, 'void_count');
      const openCount = sumOf(mine, 'count');
      summary.push(
        figure('invoices_issued', issued, c),
        figure('amount_issued', money.v(n(t, 'total') + n(t, 'void_total'), c), c),
        figure('paid_at_till', money.v(n(t, 'total') - n(t, 'on_account'), c), c),
        figure('on_account_invoices', n(t, 'credit_count'), c),
        figure('on_account_amount', money.v(n(t, 'on_account'), c), c),
        figure('open_invoices', openCount, c),
        figure('open_balance', money.v(sumOf(mine, 'balance'), c), c),
        figure('overdue_invoices', sumOf(overdue, 'count'), c),
        figure('overdue_balance', money.v(sumOf(overdue, 'balance'), c), c),
        figure('collected_on_account', money.v(settledOf(c).collected, c), c),
        figure('void_invoices', n(t, 'void_count'), c),
        figure('void_amount', money.v(n(t, 'void_total'), c), c),
        figure('credit_notes', n(t, 'credit_note_count'), c),
        figure('credit_note_total', money.v(n(t, 'credit_note_total'), c), c),
      );
      statusSeries.push({
        name: c,
        currency: c,
        data: [
          { x: 'paid', y: issued - n(t, 'void_count') - openCount },
          { x: 'open (not yet due)', y: openCount - sumOf(overdue, 'count') },
          { x: 'overdue', y: sumOf(overdue, 'count') },
          { x: 'void', y: n(t, 'void_count') },
        ],
      });
    }
    const rows = daily
      .sort((a, b) => n(a, 'day') - n(b, 'day'))
      .map((r) => {
        const c = String(r.currency_code);
        return row({
          date: formatDay(n(r, 'day')),
          currency: c,
          invoices_issued: n(r, 'sales_count') + n(r, 'void_count'),
          amount_issued: money.v(n(r, 'total') + n(r, 'void_total'), c),
          paid_at_till: money.v(n(r, 'total') - n(r, 'on_account'), c),
          on_account_invoices: n(r, 'credit_count'),
          on_account_amount: money.v(n(r, 'on_account'), c),
          void_invoices: n(r, 'void_count'),
          credit_notes: n(r, 'credit_note_count'),
        });
      });
    const amountPerDay = perCurrency(scope, (c) => dailyPoints(scope, byCur.get(c) ?? [], (r) => money.v(n(r, 'total') + n(r, 'void_total'), c)));
    return {
      summary,
      rows,
      charts: [chart('line', 'Amount invoiced per day', amountPerDay), chart('pie', 'Invoices issued in the period by status now', statusSeries)],
    };
  },
});
