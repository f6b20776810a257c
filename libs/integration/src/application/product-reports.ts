import { figure, row } from '../domain/report-figures';
import { abcClassify, percent } from '../domain/report-math';
import type { Chart, ReportRow, SummaryFigure } from '../domain/report-payload';
import type { ReportContext, ReportParts } from '../reports/definition';
import { chart, n, total, perCurrency } from './report-kit';
import { ITEMS, MeasureOf } from '../domain/rollup-tables';

type ItemMeasure = MeasureOf<typeof ITEMS>;

const ITEM_MEASURES = ITEMS.measures;

/** The item rows of products and products/abc: the rollup sums, their revenue in minor units, the row shown. */
async function itemRows(ctx: ReportContext, measures: readonly ItemMeasure[] = ITEM_MEASURES) {
  const { scope, money } = ctx;
  const items = await ctx.kit.itemSums(scope, ['item_id', 'currency_code'], measures);
  const info = await ctx.kit.itemInfo(items.map((r) => n(r, 'item_id')));
  return items.map((r) => {
    const c = String(r.currency_code);
    const id = n(r, 'item_id');
    const i = info.get(id);
    const revenue = n(r, 'net') - n(r, 'refund_net');
    const cogs = n(r, 'cost') - n(r, 'refund_cost');
    return {
      raw: r,
      revenueMinor: revenue,
      view: row({
        item_id: id,
        sku: i?.sku ?? null,
        name: i?.name ?? null,
        category: i?.categoryName ?? null,
        currency: c,
        units_sold: n(r, 'units'),
        units_returned: n(r, 'return_units'),
        net_units: n(r, 'units') - n(r, 'return_units'),
        lines: n(r, 'line_count'),
        gross_sales: money.v(n(r, 'gross'), c),
        discounts: money.v(n(r, 'discounts'), c),
        net_sales: money.v(n(r, 'net'), c),
        refund_net: money.v(n(r, 'refund_net'), c),
        revenue: money.v(revenue, c),
        tax: money.v(n(r, 'tax'), c),
        cogs: money.v(cogs, c),
        gross_profit: money.v(revenue - cogs, c),
        margin_percent: percent(revenue - cogs, revenue),
      }),
    };
  });
}

/** Products (contract 4.10): per item sold or returned in the period, by revenue. Figures: metrics.ts. */
export async function productsReport(ctx: ReportContext): Promise<ReportParts> {
  const { scope, money } = ctx;
  const items = (await itemRows(ctx)).sort((a, b) => b.revenueMinor - a.revenueMinor || a.view.item_id - b.view.item_id);
  const summary = scope.currencies.flatMap((c) => {
    const list = items.filter((i) => i.view.currency === c);
    const t = total(
      list.map((i) => i.raw),
      ITEM_MEASURES,
    );
    const revenue = n(t, 'net') - n(t, 'refund_net');
    const profit = revenue - (n(t, 'cost') - n(t, 'refund_cost'));
    return [
      figure('distinct_items_sold', list.filter((i) => n(i.raw, 'units') > 0).length, c),
      figure('units_sold', n(t, 'units'), c),
      figure('units_returned', n(t, 'return_units'), c),
      figure('revenue', money.v(revenue, c), c),
      figure('gross_profit', money.v(profit, c), c),
    ];
  });
  const categories = (c: string) => {
    const out = new Map<string, number>();
    for (const i of items.filter((x) => x.view.currency === c))
      out.set(String(i.view.category ?? 'Uncategorised'), (out.get(String(i.view.category ?? 'Uncategorised')) ?? 0) + i.revenueMinor);
    return [...out].sort((a, b) => b[1] - a[1]).map(([x, v]) => ({ x, y: money.v(v, c) }));
  };
  const charts = [
    chart(
      'bar',
      'Top 10 items by revenue',
      perCurrency(scope, (c) =>
        items
          .filter((i) => i.view.currency === c)
          .slice(0, 10)
          .map((i) => ({ x: String(i.view.sku ?? i.view.item_id), y: i.view.revenue })),
      ),
    ),
    chart(
      'pie',
      'Revenue by category',
      perCurrency(scope, (c) => categories(c)),
    ),
  ];
  return { summary, rows: items.map((i) => i.view), charts };
}

/** Products: ABC. Items ranked by revenue per currency; A while the cumulative share is <= 80%, B <= 95%, C the rest. */
export async function abcReport(ctx: ReportContext): Promise<ReportParts> {
  const { scope, money } = ctx;
  const items = await itemRows(ctx, ['net', 'refund_net', 'units']);
  const rows: ReportRow[] = [];
  const summary: SummaryFigure[] = [];
  const charts: Chart[] = [chart('pie', 'Revenue by ABC class', []), chart('line', 'Cumulative revenue share (Pareto)', [])];
  for (const c of scope.currencies) {
    const ranked = abcClassify(items.filter((i) => i.view.currency === c).map((i) => ({ id: i.view.item_id, revenue: i.revenueMinor, view: i.view })));
    ranked.forEach((r, index) =>
      rows.push(
        row({
          rank: index + 1,
          item_id: r.id,
          sku: r.view.sku,
          name: r.view.name,
          currency: c,
          revenue: money.v(r.revenue, c),
          share_percent: r.share,
          cumulative_percent: r.cumulative,
          class: r.abc,
          units_sold: r.view.units_sold,
        }),
      ),
    );
    const classTotal = (k: string) => ranked.filter((r) => r.abc === k).reduce((a, r) => a + Math.max(r.revenue, 0), 0);
    const all = ranked.reduce((a, r) => a + Math.max(r.revenue, 0), 0);
    for (const k of ['A', 'B', 'C']) {
      const vars = { class: k.toLowerCase() };
      summary.push(
        figure('class_{class}_items', ranked.filter((r) => r.abc === k).length, c, vars),
        figure('class_{class}_revenue', money.v(classTotal(k), c), c, vars),
        figure('class_{class}_share', percent(classTotal(k), all), c, vars),
      );
    }
    charts[0].series.push({ name: c, currency: c, data: ['A', 'B', 'C'].map((k) => ({ x: k, y: money.v(classTotal(k), c) })) });
    charts[1].series.push({ name: c, currency: c, data: ranked.map((r, i) => ({ x: i + 1, y: r.cumulative })) });
  }
  return { summary, rows, charts };
}
