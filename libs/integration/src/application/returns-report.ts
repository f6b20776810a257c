import { figure, row } from '../domain/report-figures';
import { percent } from '../domain/report-math';
import { RETURNS } from '../domain/rollup-tables';
import type { ReportContext, ReportParts } from '../reports/definition';
import { chart, groupRows, n, total, perCurrency } from './report-kit';
import { SalesRollups } from './sales-rollups';

const RM = ['returns_count', 'line_count', 'units', 'restocked_units', 'refund_net', 'refund_tax', 'refund_total', 'cost'] as const;

/**
 * Returns (contract 4.10): processed returns on the day processed, by reason and condition.
 * refund_net is the goods refunded before tax (refund total - refund tax), in both tax modes.
 */
export async function returnsReport(ctx: ReportContext): Promise<ReportParts> {
  const { scope, money } = ctx;
  const base = ctx.use(SalesRollups);
  const [byReason, daily, sold] = await Promise.all([
    ctx.kit.sum(scope, { table: RETURNS, groupBy: ['reason_code', 'item_condition', 'currency_code'], measures: RM }),
    base.dailySales(scope, ['return_count', 'refund_total']),
    base.sales(scope, [], ['sales_count', 'total', 'units']),
  ]);
  const byCur = groupRows(byReason, 'currency_code');
  const soldCur = groupRows(sold, 'currency_code');
  const summary = scope.currencies.flatMap((c) => {
    const t = total(byCur.get(c) ?? [], RM);
    const s = total(soldCur.get(c) ?? [], ['sales_count', 'total', 'units']);
    // Distinct returns from the sales rollup: a row counts a return in each condition it has.
    const returns = total(
      daily.filter((d) => d.currency_code === c),
      ['return_count'],
    );
    return [
      figure('returns', n(returns, 'return_count'), c),
      figure('units_returned', n(t, 'units'), c),
      figure('units_restocked', n(t, 'restocked_units'), c),
      figure('refund_total', money.v(n(t, 'refund_total'), c), c),
      figure('refund_net', money.v(n(t, 'refund_net'), c), c),
      figure('refund_tax', money.v(n(t, 'refund_tax'), c), c),
      figure('cost_returned', money.v(n(t, 'cost'), c), c),
      figure('refund_rate', percent(n(t, 'refund_total'), n(s, 'total')), c),
    ];
  });
  const rows = byReason
    .sort((a, b) => n(b, 'refund_total') - n(a, 'refund_total'))
    .map((r) => {
      const c = String(r.currency_code);
      return row({
        reason: r.reason_code === '' ? null : String(r.reason_code),
        condition: String(r.item_condition),
        currency: c,
        returns: n(r, 'returns_count'),
        lines_returned: n(r, 'line_count'),
        units_returned: n(r, 'units'),
        units_restocked: n(r, 'restocked_units'),
        refund_net: money.v(n(r, 'refund_net'), c),
        refund_tax: money.v(n(r, 'refund_tax'), c),
        refund_total: money.v(n(r, 'refund_total'), c),
        cost: money.v(n(r, 'cost'), c),
      });
    });
  const charts = [
    chart(
      'bar',
      'Refunds by reason',
      perCurrency(scope, (c) =>
        [...groupRows(byCur.get(c) ?? [], 'reason_code')].map(([reason, list]) => ({
          x: reason || 'none',
          y: money.v(n(total(list, ['refund_total']), 'refund_total'), c),
        })),
      ),
    ),
    base.dailyChart(scope, 'Refunds per day (incl. tax)', daily, (r, c) => money.v(n(r, 'refund_total'), c)),
  ];
  return { summary, rows, charts };
}

/** Return rate: units returned / units sold and refunds / sales total, overall, per day and per returned item. */
export async function returnRateReport(ctx: ReportContext): Promise<ReportParts> {
  const { scope, money } = ctx;
  const base = ctx.use(SalesRollups);
  const dm = ['total', 'refund_total', 'units', 'return_units', 'sales_count', 'return_count'] as const;
  // The returned items first (few: rpt_returns has rows only for them), then what they sold.
  const [returned, daily] = await Promise.all([ctx.kit.sum(scope, { table: RETURNS, groupBy: ['item_id'], measures: ['units'] }), base.dailySales(scope, dm)]);
  const returnedIds = returned.filter((r) => n(r, 'units') !== 0).map((r) => n(r, 'item_id'));
  const items = returnedIds.length
    ? await ctx.kit.itemSums(scope, ['item_id', 'currency_code'], ['units', 'return_units', 'total', 'refund_total'], returnedIds)
    : [];
  const byCur = groupRows(daily, 'currency_code');
  const summary = scope.currencies.flatMap((c) => {
    const t = total(byCur.get(c) ?? [], dm);
    return [
      figure('unit_return_rate', percent(n(t, 'return_units'), n(t, 'units')), c),
      figure('value_return_rate', percent(n(t, 'refund_total'), n(t, 'total')), c),
      figure('returns_per_100_sales', percent(n(t, 'return_count'), n(t, 'sales_count')), c),
      figure('units_returned', n(t, 'return_units'), c),
      figure('refund_total', money.v(n(t, 'refund_total'), c), c),
    ];
  });
  const info = await ctx.kit.itemInfo(items.filter((r) => n(r, 'return_units') > 0).map((r) => n(r, 'item_id')));
  const rows = items
    .filter((r) => n(r, 'return_units') > 0)
    .sort((a, b) => n(b, 'return_units') - n(a, 'return_units') || n(a, 'item_id') - n(b, 'item_id'))
    .map((r) => {
      const c = String(r.currency_code);
      return row({
        item_id: n(r, 'item_id'),
        sku: info.get(n(r, 'item_id'))?.sku ?? null,
        name: info.get(n(r, 'item_id'))?.name ?? null,
        currency: c,
        units_sold: n(r, 'units'),
        units_returned: n(r, 'return_units'),
        unit_return_rate: percent(n(r, 'return_units'), n(r, 'units')),
        refunds: money.v(n(r, 'refund_total'), c),
        value_return_rate: percent(n(r, 'refund_total'), n(r, 'total')),
      });
    });
  const charts = [
    base.dailyChart(scope, 'Refunds / sales total per day (%)', daily, (r) => percent(n(r, 'refund_total'), n(r, 'total'))),
    chart(
      'bar',
      'Most returned items (units)',
      perCurrency(scope, (c) =>
        rows
          .filter((r) => r.currency === c)
          .slice(0, 10)
          .map((r) => ({ x: String(r.sku ?? r.item_id), y: r.units_returned })),
      ),
    ),
  ];
  return { summary, rows, charts };
}
