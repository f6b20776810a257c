import { Money } from '../application/report-kit';
import type { RollupQuery, RollupResult } from '../application/rollup.ports';
import type { ReportContext, ReportParts } from './definition';
import discounts from './discounts';
import payments from './payments';
import priceSource from './price-source';
import voids from './voids';

/**
 * The renderer's ways of showing a rollup (rollup-report.ts) on two currencies, through the
 * reports that use them: a pie of several figures (discounts), rows only where a figure is above
 * 0 with a chart that follows them and names an unnamed cashier by id (voids), a line per payment
 * method (payments), a template figure per value (price-source). The rollup is a fake that sums
 * its raw rows as the SQL store does.
 */
const DAY = 20_000; // 2024-10-04
type Raw = Record<string, number | string>;

let queries = 0;

function contextOver(raw: Raw[]): ReportContext {
  queries = 0;
  const sum = async (q: RollupQuery): Promise<RollupResult[]> => {
    queries++;
    const groups = new Map<string, RollupResult>();
    for (const r of raw.filter((x) => x.table === q.table.name && (!q.where?.user_id || x.user_id === q.where.user_id))) {
      const key = q.groupBy.map((c) => r[c]).join('|');
      const g = groups.get(key) ?? Object.fromEntries([...q.groupBy.map((c) => [c, r[c]]), ...q.measures.map((m) => [m, 0])]);
      for (const m of q.measures) g[m] = Number(g[m]) + Number(r[m] ?? 0);
      groups.set(key, g);
    }
    return [...groups.values()];
  };
  const scope = { period: { from: DAY, to: DAY + 1, days: 2 }, currencies: ['EUR', 'USD'], stores: [], storeIds: [1, 2], warehouseId: null };
  const kit = { rollups: { sum }, where: () => ({}), users: async (ids: number[]) => new Map(ids.filter((id) => id !== 8).map((id) => [id, `User ${id}`])) };
  return {
    scope,
    kit,
    money: new Money(
      new Map([
        ['EUR', 2],
        ['USD', 2],
      ]),
    ),
  } as unknown as ReportContext;
}

const build = (report: { build(ctx: ReportContext): Promise<unknown> }, raw: Raw[]) => report.build(contextOver(raw)) as Promise<ReportParts>;
const summaryOf = (parts: ReportParts) => parts.summary.map((s) => `${s.currency} ${s.key}=${s.value}`);

describe('rollupReport', () => {
  it('discounts: a pie of the kinds per currency, from the currency’s totals', async () => {
    const sale = { table: 'rpt_sales', sales_count: 1, gross: 1000, discounted_count: 1 };
    const parts = await build(discounts, [
      { ...sale, day: DAY, currency_code: 'USD', discount_rule: 100, discount_cart: 50 },
      { ...sale, day: DAY + 1, currency_code: 'USD', discount_rule: 20 },
      { ...sale, day: DAY, currency_code: 'EUR', discount_bundle: 300 },
    ]);
    const [pie, line] = parts.charts;
    expect(pie.series).toEqual([
      {
        name: 'EUR',
        currency: 'EUR',
        data: ['Pricing rules', 'Bundles', 'Manual line discounts', 'Cart discounts'].map((x, i) => ({ x, y: [0, 3, 0, 0][i] })),
      },
      {
        name: 'USD',
        currency: 'USD',
        data: ['Pricing rules', 'Bundles', 'Manual line discounts', 'Cart discounts'].map((x, i) => ({ x, y: [1.2, 0, 0, 0.5][i] })),
      },
    ]);
    expect(line.series[1].data).toEqual([
      { x: '2024-10-04', y: 1.5 },
      { x: '2024-10-05', y: 0.2 },
    ]);
    expect(summaryOf(parts)).toContain('USD discount_rate=8.5');
    // The rows by day and the line per day are one read.
    expect(queries).toBe(1);
  });

  it('voids: rows only of cashiers who voided, most first; the chart shows those rows; the rate counts every cashier', async () => {
    const c = { table: 'rpt_cashiers', day: DAY, currency_code: 'USD' };
    const parts = await build(voids, [
      { ...c, user_id: 7, sales_count: 3, void_count: 1, void_total: 500 },
      { ...c, user_id: 8, sales_count: 1, void_count: 2, void_total: 900 },
      { ...c, user_id: 9, sales_count: 4 },
      { ...c, currency_code: 'EUR', user_id: 7, sales_count: 2 },
    ]);
    expect(parts.rows.map((r) => [r.currency, r.cashier_id, r.cashier_name, r.voids])).toEqual([
      ['USD', 8, null, 2],
      ['USD', 7, 'User 7', 1],
    ]);
    // An unnamed cashier is their id on the chart (the row keeps the name null).
    expect(parts.charts[1].series).toEqual([
      { name: 'EUR', currency: 'EUR', data: [] },
      {
        name: 'USD',
        currency: 'USD',
        data: [
          { x: '8', y: 2 },
          { x: 'User 7', y: 1 },
        ],
      },
    ]);
    expect(summaryOf(parts)).toEqual(expect.arrayContaining(['EUR void_rate=0', 'USD voids=3', 'USD void_rate=27.27']));
  });

  it('payments: a line per currency and method, named "<method> (<currency>)", in that order', async () => {
    const p = { table: 'rpt_payments', payment_count: 1 };
    const parts = await build(payments, [
      { ...p, day: DAY, currency_code: 'USD', method_code: 'card', method_type: 'card', amount: 1000 },
      { ...p, day: DAY + 1, currency_code: 'USD', method_code: 'cash', method_type: 'cash', amount: 300, refund_amount: 100 },
      { ...p, day: DAY + 1, currency_code: 'EUR', method_code: 'cash', method_type: 'cash', amount: 700 },
    ]);
    expect(parts.charts[1].series.map((s) => [s.name, s.currency, s.data.map((d) => d.y)])).toEqual([
      ['cash (EUR)', 'EUR', [0, 7]],
      ['card (USD)', 'USD', [10, 0]],
      ['cash (USD)', 'USD', [0, 2]],
    ]);
    expect(parts.rows.map((r) => [r.currency, r.method_code, r.share_percent])).toEqual([
      ['USD', 'card', 76.92],
      ['EUR', 'cash', 100],
      ['USD', 'cash', 23.08],
    ]);
    expect(summaryOf(parts)).toEqual(expect.arrayContaining(['USD net_cash=2', 'USD net_card=10', 'EUR net_on_account=0']));
  });

  it('price-source: the template share once per source, filled in key and label', async () => {
    const l = { table: 'rpt_price_sources', day: DAY, currency_code: 'USD' };
    const parts = await build(priceSource, [
      { ...l, price_source: 'base', line_count: 3, net: 300 },
      { ...l, price_source: 'manual', line_count: 1, net: 50 },
    ]);
    const usd = parts.summary.filter((s) => s.currency === 'USD');
    expect(usd.map((s) => `${s.key}=${s.value}`)).toEqual([
      'lines=4',
      'net_sales=3.5',
      'base_share=75',
      'price_book_share=0',
      'pricing_rule_share=0',
      'bundle_share=0',
      'manual_share=25',
      'offline_share=0',
    ]);
    expect(usd[6].label).toBe('Share of lines priced by manual');
    expect(parts.summary.find((s) => s.currency === 'EUR' && s.key === 'base_share')?.value).toBeNull();
  });
});
