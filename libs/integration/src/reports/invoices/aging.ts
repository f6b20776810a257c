import type { AgingGroup } from '@pos/sales';
import { chart } from '../../application/report-kit';
import { figure, row } from '../../domain/report-figures';
import { AGING_BUCKETS, agingCutoffs } from '../../domain/report-math';
import type { SummaryFigure } from '../../domain/report-payload';
import { defineReport, rowsOnPage } from '../definition';
import { agingGroups } from './receivables';

interface AgingRow {
  customerId: number | null;
  currency: string;
  buckets: number[];
  count: number;
  overdue: number;
  total: number;
}

const newRow = (customerId: number | null, currency: string): AgingRow => ({
  customerId,
  currency,
  buckets: AGING_BUCKETS.map(() => 0),
  count: 0,
  overdue: 0,
  total: 0,
});

function add(row: AgingRow, g: AgingGroup): void {
  for (let i = 0; i < row.buckets.length; i++) row.buckets[i] += g.buckets[i];
  row.count += g.count;
  row.overdue += g.overdue;
  row.total += g.buckets.reduce((a, v) => a + v, 0);
}

// A compute report: the open invoices now, bucketed by age per customer (no rollup holds balances).
export default defineReport({
  route: 'invoices/aging',
  operation: 'getInvoiceAgingReport',
  title: 'Invoices: aging',
  description: 'Open balances now by days since issue (0-30, 31-60, 61-90, 91-120, 120+) per customer; invoices issued up to date_to.',
  permission: 'reports.sales',
  summary: ['receivables', 'open_invoices', 'customers', 'past_due', 'bucket_{range}'],
  columns: [
    'customer_id',
    'customer_name',
    'currency',
    'open_invoices',
    'days_0_30',
    'days_31_60',
    'days_61_90',
    'days_91_120',
    'days_120_plus',
    'receivables',
    'past_due',
  ],
  build: async (ctx) => {
    const { scope, money } = ctx;
    const groups = await agingGroups(ctx, agingCutoffs(scope.now));
    // one pass: a row per currency and customer (a customer's stores of one currency add up), and the currency's totals
    const currencyOfStore = new Map(scope.stores.map((s) => [s.id, s.currencyCode]));
    const perCurrency = new Map(scope.currencies.map((c) => [c, { rows: new Map<number, AgingRow>(), total: newRow(null, c) }]));
    for (const g of groups) {
      const of = perCurrency.get(currencyOfStore.get(g.storeId) ?? '');
      if (!of) continue;
      const key = g.customerId ?? 0;
      let entry = of.rows.get(key);
      if (!entry) of.rows.set(key, (entry = newRow(g.customerId, of.total.currency)));
      add(entry, g);
      add(of.total, g);
    }
    const entries = [...perCurrency.values()]
      .flatMap((c) => [...c.rows.values()])
      .sort((a, b) => b.total - a.total || (a.customerId ?? 0) - (b.customerId ?? 0));
    // only the asked page's rows are built and their customers named (a customer a row: thousands)
    const page = rowsOnPage(entries, ctx.rows);
    const names = await ctx.kit.customers(page.map((e) => e.customerId).filter((id): id is number => id !== null));
    const rows = page.map((e) => {
      const m = (minor: number) => money.v(minor, e.currency);
      return row({
        customer_id: e.customerId,
        customer_name: e.customerId === null ? null : (names.get(e.customerId) ?? null),
        currency: e.currency,
        open_invoices: e.count,
        days_0_30: m(e.buckets[0]),
        days_31_60: m(e.buckets[1]),
        days_61_90: m(e.buckets[2]),
        days_91_120: m(e.buckets[3]),
        days_120_plus: m(e.buckets[4]),
        receivables: m(e.total),
        past_due: m(e.overdue),
      });
    });
    const summary: SummaryFigure[] = [];
    const series = [];
    for (const [c, { rows: mine, total: all }] of perCurrency) {
      summary.push(
        figure('receivables', money.v(all.total, c), c),
        figure('open_invoices', all.count, c),
        figure('customers', mine.size, c),
        figure('past_due', money.v(all.overdue, c), c),
        ...AGING_BUCKETS.map((b, i) => figure('bucket_{range}', money.v(all.buckets[i], c), c, { range: b })),
      );
      series.push({ name: c, currency: c, data: AGING_BUCKETS.map((b, i) => ({ x: b, y: money.v(all.buckets[i], c) })) });
    }
    return {
      summary,
      rows,
      rowsTotal: entries.length,
      charts: [chart('bar', 'Open receivables by age (days since issue)', series)],
      note: 'Balances and ages as of generated_at; invoices issued up to date_to.',
    };
  },
});
