import { figure, row } from '../domain/report-figures';
import { percent } from '../domain/report-math';
import { TAX } from '../domain/rollup-tables';
import type { ReportContext, ReportParts } from '../reports/definition';
import { chart, groupRows, n, total } from './report-kit';
import { SalesRollups } from './sales-rollups';

const TM = ['line_count', 'taxable', 'tax', 'refund_taxable', 'refund_tax'] as const;

/**
 * Tax per store and rate (contract 4.10). The lines of tax-exempt sales are a row of their own
 * (rate `exempt`): no rate applied to them, so they are neither taxable sales nor part of any
 * rate's effective rate, and their refunds stay on that row too. Figures: metrics.ts.
 */
export async function taxReport(ctx: ReportContext): Promise<ReportParts> {
  const { scope, money } = ctx;
  const [byRate, daily, exempt] = await Promise.all([
    ctx.kit.sum(scope, { table: TAX, groupBy: ['store_id', 'exempt', 'rate_bp', 'currency_code'], measures: TM }),
    ctx.kit.sum(scope, { table: TAX, daily: true, groupBy: ['day', 'currency_code'], measures: ['tax', 'refund_tax'] }),
    ctx.use(SalesRollups).sales(scope, [], ['exempt_count', 'exempt_net']),
  ]);
  const isExempt = (r: { exempt: number }) => r.exempt === 1;
  const byCur = groupRows(byRate, 'currency_code');
  const exemptCur = groupRows(exempt, 'currency_code');
  const summary = scope.currencies.flatMap((c) => {
    const t = total(byCur.get(c) ?? [], TM);
    const taxable = total(
      (byCur.get(c) ?? []).filter((r) => !isExempt(r)),
      ['taxable'],
    );
    const e = total(exemptCur.get(c) ?? [], ['exempt_count', 'exempt_net']);
    return [
      figure('taxable_sales', money.v(n(taxable, 'taxable'), c), c),
      figure('tax_collected', money.v(n(t, 'tax'), c), c),
      figure('tax_refunded', money.v(n(t, 'refund_tax'), c), c),
      figure('net_tax', money.v(n(t, 'tax') - n(t, 'refund_tax'), c), c),
      figure('exempt_sales', n(e, 'exempt_count'), c),
      figure('exempt_net', money.v(n(e, 'exempt_net'), c), c),
    ];
  });
  const storeName = new Map(scope.stores.map((s) => [s.id, s.name]));
  // Per store: one row per rate, then the exempt lines' row.
  const rows = byRate
    .sort((a, b) => n(a, 'store_id') - n(b, 'store_id') || n(a, 'exempt') - n(b, 'exempt') || n(a, 'rate_bp') - n(b, 'rate_bp'))
    .map((r) => {
      const c = String(r.currency_code);
      const ex = isExempt(r);
      // `taxable` / `refund_taxable` hold the row's line net before tax (rollup-tables.ts TAX).
      return row({
        store_id: n(r, 'store_id'),
        store_name: storeName.get(n(r, 'store_id')) ?? null,
        rate: ex ? 'exempt' : `${n(r, 'rate_bp') / 100}%`,
        rate_percent: ex ? null : n(r, 'rate_bp') / 100,
        currency: c,
        lines: n(r, 'line_count'),
        taxable_sales: money.v(ex ? 0 : n(r, 'taxable'), c),
        exempt_net: money.v(ex ? n(r, 'taxable') : 0, c),
        tax_collected: money.v(n(r, 'tax'), c),
        effective_rate_percent: ex ? null : percent(n(r, 'tax'), n(r, 'taxable')),
        refunded_taxable: money.v(ex ? 0 : n(r, 'refund_taxable'), c),
        refunded_exempt: money.v(ex ? n(r, 'refund_taxable') : 0, c),
        tax_refunded: money.v(n(r, 'refund_tax'), c),
        net_tax: money.v(n(r, 'tax') - n(r, 'refund_tax'), c),
      });
    });
  const charts = [
    chart(
      'bar',
      'Net tax by rate',
      scope.currencies.map((c) => {
        const byRateOnly = new Map<number, number>();
        for (const r of (byCur.get(c) ?? []).filter((x) => !isExempt(x)))
          byRateOnly.set(n(r, 'rate_bp'), (byRateOnly.get(n(r, 'rate_bp')) ?? 0) + n(r, 'tax') - n(r, 'refund_tax'));
        return { name: c, currency: c, data: [...byRateOnly].sort((a, b) => a[0] - b[0]).map(([bp, v]) => ({ x: `${bp / 100}%`, y: money.v(v, c) })) };
      }),
    ),
    ctx.use(SalesRollups).dailyChart(scope, 'Net tax per day', daily, (r, c) => money.v(n(r, 'tax') - n(r, 'refund_tax'), c)),
  ];
  return { summary, rows, charts };
}
