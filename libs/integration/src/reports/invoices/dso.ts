import { chart, n, perCurrency } from '../../application/report-kit';
import { figure, row } from '../../domain/report-figures';
import { daysSalesOutstanding } from '../../domain/report-math';
import { SALES } from '../../domain/rollup-tables';
import { defineReport } from '../definition';
import { openInvoices } from './receivables';

// A compute report: credit sales from the sales rollup over the receivables now (two sources).
export default defineReport({
  route: 'invoices/dso',
  operation: 'getInvoiceDsoReport',
  title: 'Invoices: DSO',
  description: 'Days sales outstanding = open receivables / credit (on-account) sales of the period x days in the period, per store and currency.',
  permission: 'reports.sales',
  summary: ['dso_days', 'receivables', 'credit_sales', 'days'],
  columns: ['store_id', 'store_name', 'currency', 'receivables', 'credit_sales', 'days', 'dso_days'],
  build: async (ctx) => {
    const { scope, money } = ctx;
    const [credit, open] = await Promise.all([
      ctx.kit.sum(scope, { table: SALES, groupBy: ['store_id', 'currency_code'], measures: ['on_account'] }),
      openInvoices(ctx, true),
    ]);
    const days = scope.period.days;
    const receivablesOf = (storeIds: number[]) => open.filter((g) => storeIds.includes(g.storeId)).reduce((a, g) => a + g.balance, 0);
    const creditOf = (storeIds: number[]) => credit.filter((r) => storeIds.includes(n(r, 'store_id'))).reduce((a, r) => a + n(r, 'on_account'), 0);
    const rows = scope.stores.map((s) => {
      const rec = receivablesOf([s.id]);
      const cs = creditOf([s.id]);
      return row({
        store_id: s.id,
        store_name: s.name,
        currency: s.currencyCode,
        receivables: money.v(rec, s.currencyCode),
        credit_sales: money.v(cs, s.currencyCode),
        days,
        dso_days: daysSalesOutstanding(rec, cs, days),
      });
    });
    const summary = scope.currencies.flatMap((c) => {
      const ids = scope.stores.filter((s) => s.currencyCode === c).map((s) => s.id);
      const rec = receivablesOf(ids);
      const cs = creditOf(ids);
      return [
        figure('dso_days', daysSalesOutstanding(rec, cs, days), c),
        figure('receivables', money.v(rec, c), c),
        figure('credit_sales', money.v(cs, c), c),
        figure('days', days, c),
      ];
    });
    const byStore = perCurrency(scope, (c) => rows.filter((r) => r.currency === c).map((r) => ({ x: r.store_name, y: r.dso_days })));
    return { summary, rows, charts: [chart('bar', 'DSO by store', byStore)], note: 'Receivables as of generated_at.' };
  },
});
