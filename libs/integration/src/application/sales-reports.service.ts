import { Injectable } from '@nestjs/common';
import { Principal } from '@pos/identity';
import { NotFoundError } from '@pos/kernel';
import { formatDay, WEEKDAYS } from '../domain/calendar';
import { abcClassify, average, percent } from '../domain/report-math';
import { Chart, ReportResult, ReportRow, SummaryFigure } from '../domain/report-payload';
import { CASHIERS, HOURS, PAYMENTS, PRICE_SOURCES, RETURNS, SALES, TAX } from '../domain/rollup-tables';
import { chart, dailyPoints, figure, groupRows, Money, n, ReportKit, Row, total } from './report-kit';
import { ReportFilters, reportMeta, ReportScope, ReportScopeResolver } from './report-scope';

/** What `derive` reads (a report sums no more columns than it shows). */
const DERIVED = [
  'sales_count',
  'units',
  'gross',
  'discount_rule',
  'discount_bundle',
  'discount_manual',
  'discount_cart',
  'net',
  'tax',
  'total',
  'cost',
  'refund_net',
  'refund_tax',
  'refund_total',
  'refund_cost',
  'void_count',
  'void_total',
  'return_count',
];
const CASHIER_MEASURES = [...CASHIERS.measures];
const ITEM_MEASURES = ['line_count', 'units', 'gross', 'discounts', 'net', 'tax', 'total', 'cost', 'return_units', 'refund_net', 'refund_total', 'refund_cost'];

/** Derived figures of sales rollup sums (minor units); README "Reports" defines each one. */
function derive(r: Row) {
  const revenue = n(r, 'net') - n(r, 'refund_net');
  const cogs = n(r, 'cost') - n(r, 'refund_cost');
  return {
    salesCount: n(r, 'sales_count'),
    gross: n(r, 'gross'),
    discounts: n(r, 'discount_rule') + n(r, 'discount_bundle') + n(r, 'discount_manual') + n(r, 'discount_cart'),
    netSales: n(r, 'net'),
    tax: n(r, 'tax'),
    total: n(r, 'total'),
    refundNet: n(r, 'refund_net'),
    refundTax: n(r, 'refund_tax'),
    refundTotal: n(r, 'refund_total'),
    revenue,
    cogs,
    profit: revenue - cogs,
    margin: percent(revenue - cogs, revenue),
    average: average(n(r, 'total'), n(r, 'sales_count')),
    units: n(r, 'units'),
    voids: n(r, 'void_count'),
    voidTotal: n(r, 'void_total'),
    returns: n(r, 'return_count'),
  };
}

/**
 * The sales-side reports (contract 4.10): each reads the rollups of its scope (a handful of block
 * rows, never the sales), turns minor units into JSON amounts in each currency's decimals, and
 * reports per currency. Definitions: README "Reports".
 */
@Injectable()
export class SalesReportsService {
  constructor(
    private readonly scopes: ReportScopeResolver,
    private readonly kit: ReportKit,
  ) {}

  /** Per currency: the sums of rpt_sales in scope, grouped further by `by` (e.g. store_id). */
  private sales(scope: ReportScope, by: string[] = [], measures = DERIVED) {
    return this.kit.sum(scope, { table: SALES, groupBy: [...by, 'currency_code'], measures });
  }

  private dailySales(scope: ReportScope, measures: string[]) {
    return this.kit.sum(scope, { table: SALES, daily: true, groupBy: ['day', 'currency_code'], measures });
  }

  /** The same per cashier (rpt_cashiers). */
  private cashierSums(scope: ReportScope, measures = CASHIER_MEASURES, where: Record<string, number | undefined> = {}, daily = false) {
    return this.kit.sum(scope, { table: CASHIERS, daily, groupBy: [...(daily ? ['day'] : []), 'user_id', 'currency_code'], measures, where });
  }

  private async open(p: Principal, f: ReportFilters): Promise<{ scope: ReportScope; money: Money }> {
    const scope = await this.scopes.resolve(p, f);
    return { scope, money: await this.kit.money(scope.currencies) };
  }

  /** Daily line charts, one series per currency. */
  private dailyChart(scope: ReportScope, title: string, rows: Row[], value: (r: Row, currency: string) => number | null): Chart {
    const byCur = groupRows(rows, 'currency_code');
    return chart(
      'line',
      title,
      scope.currencies.map((c) => ({ name: c, currency: c, data: dailyPoints(scope, byCur.get(c) ?? [], (r) => value(r, c)) })),
    );
  }

  private headline(money: Money, c: string, d: ReturnType<typeof derive>): SummaryFigure[] {
    return [
      figure('net_sales', 'Net sales (excl. tax, voids excluded)', money.v(d.netSales, c), 'money', c),
      figure('refunds', 'Refunds (excl. tax)', money.v(d.refundNet, c), 'money', c),
      figure('net_revenue', 'Net revenue (net sales - refunds)', money.v(d.revenue, c), 'money', c),
      figure('cogs', 'Cost of goods sold (net of returns)', money.v(d.cogs, c), 'money', c),
      figure('gross_profit', 'Gross profit', money.v(d.profit, c), 'money', c),
      figure('margin_percent', 'Gross margin', d.margin, 'percent', c),
      figure('tax', 'Tax collected (net of refunds)', money.v(d.tax - d.refundTax, c), 'money', c),
      figure('total', 'Total taken incl. tax', money.v(d.total, c), 'money', c),
      figure('sales_count', 'Sales', d.salesCount, 'count', c),
      figure('average_sale', 'Average sale incl. tax', money.of(d.average, c), 'money', c),
      figure('items_sold', 'Units sold', d.units, 'quantity', c),
      figure('voids', 'Voided sales', d.voids, 'count', c),
      figure('returns', 'Returns processed', d.returns, 'count', c),
    ];
  }

  async overview(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.open(p, f);
    const [byStore, daily] = await Promise.all([this.sales(scope, ['store_id']), this.dailySales(scope, ['net', 'refund_net'])]);
    const byCur = groupRows(byStore, 'currency_code');
    const summary = scope.currencies.flatMap((c) => this.headline(money, c, derive(total(byCur.get(c) ?? [], DERIVED))));
    const rows = scope.stores.map((s) => {
      const d = derive(byStore.find((r) => r.store_id === s.id) ?? {});
      const c = s.currencyCode;
      return {
        store_id: s.id,
        store_name: s.name,
        currency: c,
        sales_count: d.salesCount,
        net_sales: money.v(d.netSales, c),
        refunds: money.v(d.refundNet, c),
        net_revenue: money.v(d.revenue, c),
        gross_profit: money.v(d.profit, c),
        margin_percent: d.margin,
        average_sale: money.of(d.average, c),
      };
    });
    return this.result(scope, summary, rows, [
      this.dailyChart(scope, 'Net revenue per day', daily, (r, c) => money.v(n(r, 'net') - n(r, 'refund_net'), c)),
      chart(
        'bar',
        'Net revenue by store',
        scope.currencies.map((c) => ({ name: c, currency: c, data: rows.filter((r) => r.currency === c).map((r) => ({ x: r.store_name, y: r.net_revenue })) })),
      ),
    ]);
  }

  async sales_(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.open(p, f);
    const daily = await this.dailySales(scope, DERIVED);
    const byCur = groupRows(daily, 'currency_code');
    const summary = scope.currencies.flatMap((c) => {
      const d = derive(total(byCur.get(c) ?? [], DERIVED));
      return [
        figure('sales_count', 'Sales', d.salesCount, 'count', c),
        figure('items_sold', 'Units sold', d.units, 'quantity', c),
        figure('gross_sales', 'Gross sales (before discounts)', money.v(d.gross, c), 'money', c),
        figure('discounts', 'Discounts', money.v(d.discounts, c), 'money', c),
        figure('net_sales', 'Net sales (excl. tax)', money.v(d.netSales, c), 'money', c),
        figure('tax', 'Tax', money.v(d.tax, c), 'money', c),
        figure('total', 'Total incl. tax', money.v(d.total, c), 'money', c),
        figure('average_sale', 'Average sale incl. tax', money.of(d.average, c), 'money', c),
        figure('refunds', 'Refunds incl. tax', money.v(d.refundTotal, c), 'money', c),
        figure('total_after_refunds', 'Total incl. tax less refunds', money.v(d.total - d.refundTotal, c), 'money', c),
        figure('voids', 'Voided sales', d.voids, 'count', c),
        figure('voided_total', 'Voided sales total', money.v(d.voidTotal, c), 'money', c),
      ];
    });
    const rows = daily
      .sort((a, b) => n(a, 'day') - n(b, 'day') || String(a.currency_code).localeCompare(String(b.currency_code)))
      .map((r) => {
        const c = String(r.currency_code);
        const d = derive(r);
        return {
          date: formatDay(n(r, 'day')),
          currency: c,
          sales_count: d.salesCount,
          items_sold: d.units,
          gross_sales: money.v(d.gross, c),
          discounts: money.v(d.discounts, c),
          net_sales: money.v(d.netSales, c),
          tax: money.v(d.tax, c),
          total: money.v(d.total, c),
          refunds: money.v(d.refundTotal, c),
          total_after_refunds: money.v(d.total - d.refundTotal, c),
          voids: d.voids,
        };
      });
    return this.result(scope, summary, rows, [this.dailyChart(scope, 'Sales total per day (incl. tax)', daily, (r, c) => money.v(n(r, 'total'), c))]);
  }

  async discounts(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.open(p, f);
    const measures = ['sales_count', 'gross', 'discount_rule', 'discount_bundle', 'discount_manual', 'discount_cart', 'discounted_count'];
    const daily = await this.dailySales(scope, measures);
    const byCur = groupRows(daily, 'currency_code');
    const kinds = [
      ['discount_rule', 'Pricing rules'],
      ['discount_bundle', 'Bundles'],
      ['discount_manual', 'Manual line discounts'],
      ['discount_cart', 'Cart discounts'],
    ] as const;
    const summary = scope.currencies.flatMap((c) => {
      const t = total(byCur.get(c) ?? [], measures);
      const all = kinds.reduce((a, [k]) => a + n(t, k), 0);
      return [
        figure('discounts', 'Discounts', money.v(all, c), 'money', c),
        ...kinds.map(([k, label]) => figure(k.replace('discount_', 'discounts_'), label, money.v(n(t, k), c), 'money', c)),
        figure('discount_rate', 'Discounts / gross sales', percent(all, n(t, 'gross')), 'percent', c),
        figure('discounted_sales', 'Sales with a discount', n(t, 'discounted_count'), 'count', c),
        figure('discounted_share', 'Share of sales with a discount', percent(n(t, 'discounted_count'), n(t, 'sales_count')), 'percent', c),
      ];
    });
    const rows = daily
      .sort((a, b) => n(a, 'day') - n(b, 'day'))
      .map((r) => {
        const c = String(r.currency_code);
        const all = kinds.reduce((a, [k]) => a + n(r, k), 0);
        return {
          date: formatDay(n(r, 'day')),
          currency: c,
          gross_sales: money.v(n(r, 'gross'), c),
          pricing_rules: money.v(n(r, 'discount_rule'), c),
          bundles: money.v(n(r, 'discount_bundle'), c),
          manual: money.v(n(r, 'discount_manual'), c),
          cart: money.v(n(r, 'discount_cart'), c),
          discounts: money.v(all, c),
          discount_rate: percent(all, n(r, 'gross')),
          discounted_sales: n(r, 'discounted_count'),
        };
      });
    return this.result(scope, summary, rows, [
      chart(
        'pie',
        'Discounts by kind',
        scope.currencies.map((c) => {
          const t = total(byCur.get(c) ?? [], measures);
          return { name: c, currency: c, data: kinds.map(([k, label]) => ({ x: label, y: money.v(n(t, k), c) })) };
        }),
      ),
      this.dailyChart(scope, 'Discounts per day', daily, (r, c) =>
        money.v(
          kinds.reduce((a, [k]) => a + n(r, k), 0),
          c,
        ),
      ),
    ]);
  }

  async returns(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.open(p, f);
    const rm = ['returns_count', 'line_count', 'units', 'restocked_units', 'refund_net', 'refund_tax', 'refund_total', 'cost'];
    const [byReason, daily, sold] = await Promise.all([
      this.kit.sum(scope, { table: RETURNS, groupBy: ['reason_code', 'item_condition', 'currency_code'], measures: rm }),
      this.dailySales(scope, ['return_count', 'refund_total']),
      this.sales(scope, [], ['sales_count', 'total', 'units']),
    ]);
    const byCur = groupRows(byReason, 'currency_code');
    const soldCur = groupRows(sold, 'currency_code');
    const summary = scope.currencies.flatMap((c) => {
      const t = total(byCur.get(c) ?? [], rm);
      const s = total(soldCur.get(c) ?? [], ['sales_count', 'total', 'units']);
      return [
        figure('returns', 'Returns processed', n(t, 'returns_count'), 'count', c),
        figure('units_returned', 'Units returned', n(t, 'units'), 'quantity', c),
        figure('units_restocked', 'Units back in sellable stock', n(t, 'restocked_units'), 'quantity', c),
        figure('refund_total', 'Refunds incl. tax', money.v(n(t, 'refund_total'), c), 'money', c),
        figure('refund_net', 'Refunds excl. tax', money.v(n(t, 'refund_net'), c), 'money', c),
        figure('refund_tax', 'Tax refunded', money.v(n(t, 'refund_tax'), c), 'money', c),
        figure('cost_returned', 'Cost of goods returned', money.v(n(t, 'cost'), c), 'money', c),
        figure('refund_rate', 'Refunds / sales total', percent(n(t, 'refund_total'), n(s, 'total')), 'percent', c),
      ];
    });
    const rows = byReason
      .sort((a, b) => n(b, 'refund_total') - n(a, 'refund_total'))
      .map((r) => {
        const c = String(r.currency_code);
        return {
          reason: r.reason_code === '' ? null : r.reason_code,
          condition: r.item_condition,
          currency: c,
          returns: n(r, 'returns_count'),
          lines: n(r, 'line_count'),
          units: n(r, 'units'),
          units_restocked: n(r, 'restocked_units'),
          refund_net: money.v(n(r, 'refund_net'), c),
          refund_tax: money.v(n(r, 'refund_tax'), c),
          refund_total: money.v(n(r, 'refund_total'), c),
          cost: money.v(n(r, 'cost'), c),
        };
      });
    return this.result(scope, summary, rows, [
      chart(
        'bar',
        'Refunds by reason',
        scope.currencies.map((c) => ({
          name: c,
          currency: c,
          data: [...groupRows(byCur.get(c) ?? [], 'reason_code')].map(([reason, list]) => ({
            x: reason || 'none',
            y: money.v(n(total(list, ['refund_total']), 'refund_total'), c),
          })),
        })),
      ),
      this.dailyChart(scope, 'Refunds per day (incl. tax)', daily, (r, c) => money.v(n(r, 'refund_total'), c)),
    ]);
  }

  async profit(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.open(p, f);
    const m = ['net', 'cost', 'refund_net', 'refund_cost', 'sales_count'];
    const [daily, byStore] = await Promise.all([this.dailySales(scope, m), this.sales(scope, ['store_id'], m)]);
    const byCur = groupRows(daily, 'currency_code');
    const summary = scope.currencies.flatMap((c) => {
      const d = derive(total(byCur.get(c) ?? [], m));
      return [
        figure('revenue', 'Revenue (net sales - refunds, excl. tax)', money.v(d.revenue, c), 'money', c),
        figure('cogs', 'COGS (unit cost snapshotted on each line, net of returns)', money.v(d.cogs, c), 'money', c),
        figure('gross_profit', 'Gross profit', money.v(d.profit, c), 'money', c),
        figure('margin_percent', 'Gross margin (profit / revenue)', d.margin, 'percent', c),
        figure('markup_percent', 'Markup (profit / COGS)', percent(d.profit, d.cogs), 'percent', c),
      ];
    });
    const rows = daily
      .sort((a, b) => n(a, 'day') - n(b, 'day'))
      .map((r) => {
        const c = String(r.currency_code);
        const d = derive(r);
        return {
          date: formatDay(n(r, 'day')),
          currency: c,
          revenue: money.v(d.revenue, c),
          cogs: money.v(d.cogs, c),
          gross_profit: money.v(d.profit, c),
          margin_percent: d.margin,
        };
      });
    const storeName = new Map(scope.stores.map((s) => [s.id, s.name]));
    return this.result(scope, summary, rows, [
      this.dailyChart(scope, 'Gross profit per day', daily, (r, c) => money.v(derive(r).profit, c)),
      chart(
        'bar',
        'Gross profit by store',
        scope.currencies.map((c) => ({
          name: c,
          currency: c,
          data: byStore
            .filter((r) => r.currency_code === c)
            .map((r) => ({ x: storeName.get(n(r, 'store_id')) ?? String(r.store_id), y: money.v(derive(r).profit, c) })),
        })),
      ),
    ]);
  }

  private async itemRows(scope: ReportScope, money: Money, measures = ITEM_MEASURES) {
    const items = await this.kit.itemSums(scope, ['item_id', 'currency_code'], measures);
    const info = await this.kit.itemInfo(items.map((r) => n(r, 'item_id')));
    return items.map((r) => {
      const c = String(r.currency_code);
      const id = n(r, 'item_id');
      const i = info.get(id);
      const revenue = n(r, 'net') - n(r, 'refund_net');
      const cogs = n(r, 'cost') - n(r, 'refund_cost');
      return {
        raw: r,
        revenueMinor: revenue,
        view: {
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
          refunds: money.v(n(r, 'refund_net'), c),
          revenue: money.v(revenue, c),
          tax: money.v(n(r, 'tax'), c),
          cogs: money.v(cogs, c),
          gross_profit: money.v(revenue - cogs, c),
          margin_percent: percent(revenue - cogs, revenue),
        } as ReportRow,
      };
    });
  }

  async products(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.open(p, f);
    const items = (await this.itemRows(scope, money)).sort((a, b) => b.revenueMinor - a.revenueMinor || Number(a.view.item_id) - Number(b.view.item_id));
    const summary = scope.currencies.flatMap((c) => {
      const list = items.filter((i) => i.view.currency === c);
      const t = total(
        list.map((i) => i.raw),
        ITEM_MEASURES,
      );
      const revenue = n(t, 'net') - n(t, 'refund_net');
      const profit = revenue - (n(t, 'cost') - n(t, 'refund_cost'));
      return [
        figure('items_sold', 'Distinct items sold', list.filter((i) => n(i.raw, 'units') > 0).length, 'count', c),
        figure('units_sold', 'Units sold', n(t, 'units'), 'quantity', c),
        figure('units_returned', 'Units returned', n(t, 'return_units'), 'quantity', c),
        figure('revenue', 'Revenue (excl. tax, net of refunds)', money.v(revenue, c), 'money', c),
        figure('gross_profit', 'Gross profit', money.v(profit, c), 'money', c),
      ];
    });
    const categories = (c: string) => {
      const out = new Map<string, number>();
      for (const i of items.filter((x) => x.view.currency === c))
        out.set(String(i.view.category ?? 'Uncategorised'), (out.get(String(i.view.category ?? 'Uncategorised')) ?? 0) + i.revenueMinor);
      return [...out].sort((a, b) => b[1] - a[1]).map(([x, v]) => ({ x, y: money.v(v, c) }));
    };
    return this.result(
      scope,
      summary,
      items.map((i) => i.view),
      [
        chart(
          'bar',
          'Top 10 items by revenue',
          scope.currencies.map((c) => ({
            name: c,
            currency: c,
            data: items
              .filter((i) => i.view.currency === c)
              .slice(0, 10)
              .map((i) => ({ x: String(i.view.sku ?? i.view.item_id), y: i.view.revenue as number })),
          })),
        ),
        chart(
          'pie',
          'Revenue by category',
          scope.currencies.map((c) => ({ name: c, currency: c, data: categories(c) })),
        ),
      ],
    );
  }

  async abc(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.open(p, f);
    const items = await this.itemRows(scope, money, ['net', 'refund_net', 'units']);
    const rows: ReportRow[] = [];
    const summary: SummaryFigure[] = [];
    const charts: Chart[] = [chart('pie', 'Revenue by ABC class', []), chart('line', 'Cumulative revenue share (Pareto)', [])];
    for (const c of scope.currencies) {
      const ranked = abcClassify(
        items.filter((i) => i.view.currency === c).map((i) => ({ id: Number(i.view.item_id), revenue: i.revenueMinor, view: i.view })),
      );
      ranked.forEach((r, index) =>
        rows.push({
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
      );
      const classTotal = (k: string) => ranked.filter((r) => r.abc === k).reduce((a, r) => a + Math.max(r.revenue, 0), 0);
      const all = ranked.reduce((a, r) => a + Math.max(r.revenue, 0), 0);
      for (const k of ['A', 'B', 'C']) {
        summary.push(figure(`class_${k.toLowerCase()}_items`, `Class ${k} items`, ranked.filter((r) => r.abc === k).length, 'count', c));
        summary.push(figure(`class_${k.toLowerCase()}_revenue`, `Class ${k} revenue`, money.v(classTotal(k), c), 'money', c));
        summary.push(figure(`class_${k.toLowerCase()}_share`, `Class ${k} share of revenue`, percent(classTotal(k), all), 'percent', c));
      }
      charts[0].series.push({ name: c, currency: c, data: ['A', 'B', 'C'].map((k) => ({ x: k, y: money.v(classTotal(k), c) })) });
      charts[1].series.push({ name: c, currency: c, data: ranked.map((r, i) => ({ x: i + 1, y: r.cumulative })) });
    }
    return this.result(scope, summary, rows, charts);
  }

  async customers(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.open(p, f);
    const cm = ['sales_count', 'net', 'total', 'on_account', 'return_count', 'refund_total'];
    const [perCustomer, sold] = await Promise.all([
      this.kit.customerSums(scope, ['customer_id', 'currency_code'], cm),
      this.sales(scope, [], ['sales_count', 'total', 'customer_count']),
    ]);
    const soldCur = groupRows(sold, 'currency_code');
    const ranked = perCustomer
      .filter((r) => n(r, 'sales_count') > 0 || n(r, 'return_count') > 0)
      .sort((a, b) => n(b, 'total') - n(a, 'total') || n(a, 'customer_id') - n(b, 'customer_id'));
    const top = scope.currencies.flatMap((c) => ranked.filter((r) => r.currency_code === c).slice(0, 100));
    const names = await this.kit.customers(top.map((r) => n(r, 'customer_id')));
    const summary = scope.currencies.flatMap((c) => {
      const list = ranked.filter((r) => r.currency_code === c);
      const t = total(list, cm);
      const s = total(soldCur.get(c) ?? [], ['sales_count', 'total', 'customer_count']);
      const served = list.filter((r) => n(r, 'sales_count') > 0).length;
      return [
        figure('customers_served', 'Customers who bought', served, 'count', c),
        figure('customer_sales', 'Sales to a named customer', n(t, 'sales_count'), 'count', c),
        figure('customer_sales_share', 'Share of sales with a customer', percent(n(t, 'sales_count'), n(s, 'sales_count')), 'percent', c),
        figure('anonymous_sales', 'Sales without a customer', n(s, 'sales_count') - n(s, 'customer_count'), 'count', c),
        figure('customer_revenue', 'Total incl. tax from named customers', money.v(n(t, 'total'), c), 'money', c),
        figure('revenue_per_customer', 'Average total per customer', money.of(average(n(t, 'total'), served), c), 'money', c),
        figure('on_account', 'Sold on account', money.v(n(t, 'on_account'), c), 'money', c),
        figure('customer_refunds', 'Refunds to named customers', money.v(n(t, 'refund_total'), c), 'money', c),
      ];
    });
    const rows = top.map((r) => {
      const c = String(r.currency_code);
      return {
        customer_id: n(r, 'customer_id'),
        name: names.get(n(r, 'customer_id')) ?? null,
        currency: c,
        sales_count: n(r, 'sales_count'),
        net_sales: money.v(n(r, 'net'), c),
        total: money.v(n(r, 'total'), c),
        average_sale: money.of(average(n(r, 'total'), n(r, 'sales_count')), c),
        on_account: money.v(n(r, 'on_account'), c),
        returns: n(r, 'return_count'),
        refunds: money.v(n(r, 'refund_total'), c),
      };
    });
    return this.result(scope, summary, rows, [
      chart(
        'bar',
        'Top 10 customers (total incl. tax)',
        scope.currencies.map((c) => ({
          name: c,
          currency: c,
          data: rows
            .filter((r) => r.currency === c)
            .slice(0, 10)
            .map((r) => ({ x: r.name ?? String(r.customer_id), y: r.total })),
        })),
      ),
      chart(
        'pie',
        'Sales with and without a customer',
        scope.currencies.map((c) => {
          const s = total(soldCur.get(c) ?? [], ['sales_count', 'customer_count']);
          return {
            name: c,
            currency: c,
            data: [
              { x: 'with customer', y: n(s, 'customer_count') },
              { x: 'without', y: n(s, 'sales_count') - n(s, 'customer_count') },
            ],
          };
        }),
      ),
    ]);
  }

  async payments(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.open(p, f);
    const pm = ['payment_count', 'amount', 'change_given', 'void_count', 'void_amount', 'refund_count', 'refund_amount'];
    const [byMethod, daily] = await Promise.all([
      this.kit.sum(scope, { table: PAYMENTS, groupBy: ['method_code', 'method_type', 'currency_code'], measures: pm }),
      this.kit.sum(scope, { table: PAYMENTS, daily: true, groupBy: ['day', 'method_code', 'currency_code'], measures: ['amount', 'refund_amount'] }),
    ]);
    const byCur = groupRows(byMethod, 'currency_code');
    const summary = scope.currencies.flatMap((c) => {
      const list = byCur.get(c) ?? [];
      const t = total(list, pm);
      const ofType = (type: string) =>
        total(
          list.filter((r) => r.method_type === type),
          ['amount', 'refund_amount'],
        );
      return [
        figure('payments', 'Payments', n(t, 'payment_count'), 'count', c),
        figure('taken', 'Money taken (after change)', money.v(n(t, 'amount'), c), 'money', c),
        figure('refunded', 'Refunded', money.v(n(t, 'refund_amount'), c), 'money', c),
        figure('net_taken', 'Taken less refunded', money.v(n(t, 'amount') - n(t, 'refund_amount'), c), 'money', c),
        figure('change_given', 'Change given', money.v(n(t, 'change_given'), c), 'money', c),
        figure('voided', 'Payments of voided sales (reversed)', money.v(n(t, 'void_amount'), c), 'money', c),
        ...['cash', 'card', 'on_account'].map((type) =>
          figure(`net_${type}`, `Net ${type.replace('_', ' ')}`, money.v(n(ofType(type), 'amount') - n(ofType(type), 'refund_amount'), c), 'money', c),
        ),
      ];
    });
    const rows = byMethod
      .sort((a, b) => n(b, 'amount') - n(a, 'amount'))
      .map((r) => {
        const c = String(r.currency_code);
        const all = n(total(byCur.get(c) ?? [], ['amount']), 'amount');
        return {
          method_code: r.method_code,
          method_type: r.method_type,
          currency: c,
          payments: n(r, 'payment_count'),
          taken: money.v(n(r, 'amount'), c),
          change_given: money.v(n(r, 'change_given'), c),
          refunds: n(r, 'refund_count'),
          refunded: money.v(n(r, 'refund_amount'), c),
          net: money.v(n(r, 'amount') - n(r, 'refund_amount'), c),
          share_percent: percent(n(r, 'amount'), all),
          voided_payments: n(r, 'void_count'),
          voided_amount: money.v(n(r, 'void_amount'), c),
        };
      });
    const methods = [...new Set(daily.map((r) => `${r.currency_code}|${r.method_code}`))].sort();
    return this.result(scope, summary, rows, [
      chart(
        'pie',
        'Money taken by method',
        scope.currencies.map((c) => ({
          name: c,
          currency: c,
          data: rows.filter((r) => r.currency === c).map((r) => ({ x: String(r.method_code), y: r.taken })),
        })),
      ),
      chart(
        'line',
        'Net taken per day by method',
        methods.map((key) => {
          const [c, code] = key.split('|');
          return {
            name: `${code} (${c})`,
            currency: c,
            data: dailyPoints(
              scope,
              daily.filter((r) => r.currency_code === c && r.method_code === code),
              (r) => money.v(n(r, 'amount') - n(r, 'refund_amount'), c),
            ),
          };
        }),
      ),
    ]);
  }

  async stores(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.open(p, f);
    const byStore = await this.sales(scope, ['store_id']);
    const rows = scope.stores.map((s) => {
      const c = s.currencyCode;
      const d = derive(byStore.find((r) => r.store_id === s.id) ?? {});
      return {
        store_id: s.id,
        store_name: s.name,
        store_code: s.code,
        currency: c,
        sales_count: d.salesCount,
        items_sold: d.units,
        net_sales: money.v(d.netSales, c),
        tax: money.v(d.tax, c),
        total: money.v(d.total, c),
        refunds: money.v(d.refundTotal, c),
        net_revenue: money.v(d.revenue, c),
        gross_profit: money.v(d.profit, c),
        margin_percent: d.margin,
        average_sale: money.of(d.average, c),
        voids: d.voids,
        returns: d.returns,
      };
    });
    const byCur = groupRows(byStore, 'currency_code');
    const summary = scope.currencies.flatMap((c) => {
      const d = derive(total(byCur.get(c) ?? [], DERIVED));
      return [
        figure('stores', 'Stores', scope.stores.filter((s) => s.currencyCode === c).length, 'count', c),
        figure('net_revenue', 'Net revenue', money.v(d.revenue, c), 'money', c),
        figure('gross_profit', 'Gross profit', money.v(d.profit, c), 'money', c),
        figure('sales_count', 'Sales', d.salesCount, 'count', c),
        figure('total', 'Total incl. tax', money.v(d.total, c), 'money', c),
      ];
    });
    return this.result(scope, summary, rows, [
      chart(
        'bar',
        'Net revenue by store',
        scope.currencies.map((c) => ({ name: c, currency: c, data: rows.filter((r) => r.currency === c).map((r) => ({ x: r.store_name, y: r.net_revenue })) })),
      ),
    ]);
  }

  async tax(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.open(p, f);
    const tm = ['line_count', 'taxable', 'tax', 'refund_taxable', 'refund_tax'];
    const [byRate, daily, exempt] = await Promise.all([
      this.kit.sum(scope, { table: TAX, groupBy: ['store_id', 'exempt', 'rate_bp', 'currency_code'], measures: tm }),
      this.kit.sum(scope, { table: TAX, daily: true, groupBy: ['day', 'currency_code'], measures: ['tax', 'refund_tax'] }),
      this.sales(scope, [], ['exempt_count', 'exempt_net']),
    ]);
    const isExempt = (r: Row) => n(r, 'exempt') === 1;
    const byCur = groupRows(byRate, 'currency_code');
    const exemptCur = groupRows(exempt, 'currency_code');
    const summary = scope.currencies.flatMap((c) => {
      const t = total(byCur.get(c) ?? [], tm);
      const taxable = total(
        (byCur.get(c) ?? []).filter((r) => !isExempt(r)),
        ['taxable'],
      );
      const e = total(exemptCur.get(c) ?? [], ['exempt_count', 'exempt_net']);
      return [
        figure('taxable_sales', 'Taxable sales (excl. tax; exempt sales excluded)', money.v(n(taxable, 'taxable'), c), 'money', c),
        figure('tax_collected', 'Tax collected', money.v(n(t, 'tax'), c), 'money', c),
        figure('tax_refunded', 'Tax refunded', money.v(n(t, 'refund_tax'), c), 'money', c),
        figure('net_tax', 'Net tax (collected - refunded)', money.v(n(t, 'tax') - n(t, 'refund_tax'), c), 'money', c),
        figure('exempt_sales', 'Tax-exempt sales', n(e, 'exempt_count'), 'count', c),
        figure('exempt_net', 'Tax-exempt sales (excl. tax)', money.v(n(e, 'exempt_net'), c), 'money', c),
      ];
    });
    const storeName = new Map(scope.stores.map((s) => [s.id, s.name]));
    // Per store: one row per rate, then the exempt lines' row (rate `exempt`).
    const rows = byRate
      .sort((a, b) => n(a, 'store_id') - n(b, 'store_id') || n(a, 'exempt') - n(b, 'exempt') || n(a, 'rate_bp') - n(b, 'rate_bp'))
      .map((r) => {
        const c = String(r.currency_code);
        const ex = isExempt(r);
        return {
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
        };
      });
    return this.result(scope, summary, rows, [
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
      this.dailyChart(scope, 'Net tax per day', daily, (r, c) => money.v(n(r, 'tax') - n(r, 'refund_tax'), c)),
    ]);
  }

  async revenue(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.open(p, f);
    const m = ['gross', 'discount_rule', 'discount_bundle', 'discount_manual', 'discount_cart', 'net', 'refund_net', 'tax', 'refund_tax', 'sales_count'];
    const [daily, byStore] = await Promise.all([this.dailySales(scope, m), this.sales(scope, ['store_id'], ['net', 'refund_net'])]);
    const byCur = groupRows(daily, 'currency_code');
    const summary = scope.currencies.flatMap((c) => {
      const d = derive(total(byCur.get(c) ?? [], m));
      return [
        figure('gross_sales', 'Gross sales (before discounts)', money.v(d.gross, c), 'money', c),
        figure('discounts', 'Discounts', money.v(d.discounts, c), 'money', c),
        figure('net_sales', 'Net sales (excl. tax)', money.v(d.netSales, c), 'money', c),
        figure('refunds', 'Refunds (excl. tax)', money.v(d.refundNet, c), 'money', c),
        figure('net_revenue', 'Net revenue', money.v(d.revenue, c), 'money', c),
        figure('average_daily_revenue', 'Average net revenue per day', money.of(average(d.revenue, scope.period.days), c), 'money', c),
        figure('tax', 'Tax (net of refunds)', money.v(d.tax - d.refundTax, c), 'money', c),
      ];
    });
    const rows = daily
      .sort((a, b) => n(a, 'day') - n(b, 'day'))
      .map((r) => {
        const c = String(r.currency_code);
        const d = derive(r);
        return {
          date: formatDay(n(r, 'day')),
          currency: c,
          gross_sales: money.v(d.gross, c),
          discounts: money.v(d.discounts, c),
          net_sales: money.v(d.netSales, c),
          refunds: money.v(d.refundNet, c),
          net_revenue: money.v(d.revenue, c),
          tax: money.v(d.tax - d.refundTax, c),
        };
      });
    const storeName = new Map(scope.stores.map((s) => [s.id, s.name]));
    return this.result(scope, summary, rows, [
      this.dailyChart(scope, 'Net revenue per day', daily, (r, c) => money.v(derive(r).revenue, c)),
      chart(
        'bar',
        'Net revenue by store',
        scope.currencies.map((c) => ({
          name: c,
          currency: c,
          data: byStore
            .filter((r) => r.currency_code === c)
            .map((r) => ({ x: storeName.get(n(r, 'store_id')) ?? String(r.store_id), y: money.v(n(r, 'net') - n(r, 'refund_net'), c) })),
        })),
      ),
    ]);
  }

  async heatmap(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.open(p, f);
    const cells = await this.kit.sum(scope, { table: HOURS, groupBy: ['weekday', 'hour', 'currency_code'], measures: ['sales_count', 'net', 'total'] });
    const rows: ReportRow[] = [];
    const summary: SummaryFigure[] = [];
    const series = [];
    for (const c of scope.currencies) {
      const mine = cells.filter((r) => r.currency_code === c);
      const at = new Map(mine.map((r) => [`${r.weekday}:${r.hour}`, r]));
      const data = [];
      for (let w = 0; w < 7; w++)
        for (let h = 0; h < 24; h++) {
          const r = at.get(`${w}:${h}`);
          rows.push({
            weekday: WEEKDAYS[w],
            weekday_index: w,
            hour: h,
            currency: c,
            sales_count: n(r, 'sales_count'),
            net_sales: money.v(n(r, 'net'), c),
            total: money.v(n(r, 'total'), c),
          });
          data.push({ x: h, y: WEEKDAYS[w], value: n(r, 'sales_count') });
        }
      const busiest = [...mine].sort(
        (a, b) => n(b, 'sales_count') - n(a, 'sales_count') || n(a, 'weekday') - n(b, 'weekday') || n(a, 'hour') - n(b, 'hour'),
      )[0];
      summary.push(
        figure(
          'sales_count',
          'Sales',
          mine.reduce((a, r) => a + n(r, 'sales_count'), 0),
          'count',
          c,
        ),
        figure('busiest_weekday', 'Busiest weekday (0 Monday)', busiest ? n(busiest, 'weekday') : null, 'count', c),
        figure('busiest_hour', 'Busiest hour (local, 0-23)', busiest ? n(busiest, 'hour') : null, 'count', c),
        figure('busiest_sales', 'Sales in the busiest hour', busiest ? n(busiest, 'sales_count') : 0, 'count', c),
      );
      series.push({ name: c, currency: c, data });
    }
    return this.result(scope, summary, rows, [chart('heatmap', 'Sales by weekday and hour (store local time)', series)]);
  }

  async voids(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.open(p, f);
    const vm = ['sales_count', 'void_count', 'void_total', 'void_net', 'void_on_account'];
    const [byUser, daily] = await Promise.all([this.cashierSums(scope, vm), this.dailySales(scope, ['void_count', 'void_total'])]);
    const byCur = groupRows(byUser, 'currency_code');
    const names = await this.kit.users(byUser.map((r) => n(r, 'user_id')));
    const summary = scope.currencies.flatMap((c) => {
      const t = total(byCur.get(c) ?? [], vm);
      return [
        figure('voids', 'Voided sales', n(t, 'void_count'), 'count', c),
        figure('voided_total', 'Voided total incl. tax', money.v(n(t, 'void_total'), c), 'money', c),
        figure('voided_net', 'Voided net sales (excl. tax)', money.v(n(t, 'void_net'), c), 'money', c),
        figure('voided_on_account', 'Voided on-account balances', money.v(n(t, 'void_on_account'), c), 'money', c),
        figure('void_rate', 'Voids / sales rung (voided + kept)', percent(n(t, 'void_count'), n(t, 'void_count') + n(t, 'sales_count')), 'percent', c),
      ];
    });
    const rows = byUser
      .filter((r) => n(r, 'void_count') > 0)
      .sort((a, b) => n(b, 'void_count') - n(a, 'void_count') || n(a, 'user_id') - n(b, 'user_id'))
      .map((r) => {
        const c = String(r.currency_code);
        return {
          cashier_id: n(r, 'user_id'),
          cashier_name: names.get(n(r, 'user_id')) ?? null,
          currency: c,
          voids: n(r, 'void_count'),
          voided_total: money.v(n(r, 'void_total'), c),
          sales_kept: n(r, 'sales_count'),
          void_rate: percent(n(r, 'void_count'), n(r, 'void_count') + n(r, 'sales_count')),
        };
      });
    return this.result(scope, summary, rows, [
      this.dailyChart(scope, 'Voided sales per day', daily, (r) => n(r, 'void_count')),
      chart(
        'bar',
        'Voids by cashier',
        scope.currencies.map((c) => ({
          name: c,
          currency: c,
          data: rows.filter((r) => r.currency === c).map((r) => ({ x: r.cashier_name ?? String(r.cashier_id), y: r.voids })),
        })),
      ),
    ]);
  }

  async returnRate(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.open(p, f);
    // The returned items first (few: rpt_returns has rows only for them), then what they sold.
    const [returned, daily] = await Promise.all([
      this.kit.sum(scope, { table: RETURNS, groupBy: ['item_id'], measures: ['units'] }),
      this.dailySales(scope, ['total', 'refund_total', 'units', 'return_units', 'sales_count', 'return_count']),
    ]);
    const returnedIds = returned.filter((r) => n(r, 'units') !== 0).map((r) => n(r, 'item_id'));
    const items = returnedIds.length
      ? await this.kit.itemSums(scope, ['item_id', 'currency_code'], ['units', 'return_units', 'total', 'refund_total'], returnedIds)
      : [];
    const byCur = groupRows(daily, 'currency_code');
    const summary = scope.currencies.flatMap((c) => {
      const t = total(byCur.get(c) ?? [], ['total', 'refund_total', 'units', 'return_units', 'sales_count', 'return_count']);
      return [
        figure('unit_return_rate', 'Units returned / units sold', percent(n(t, 'return_units'), n(t, 'units')), 'percent', c),
        figure('value_return_rate', 'Refunds / sales total (incl. tax)', percent(n(t, 'refund_total'), n(t, 'total')), 'percent', c),
        figure('returns_per_100_sales', 'Returns per 100 sales', percent(n(t, 'return_count'), n(t, 'sales_count')), 'ratio', c),
        figure('units_returned', 'Units returned', n(t, 'return_units'), 'quantity', c),
        figure('refund_total', 'Refunds incl. tax', money.v(n(t, 'refund_total'), c), 'money', c),
      ];
    });
    const info = await this.kit.itemInfo(items.filter((r) => n(r, 'return_units') > 0).map((r) => n(r, 'item_id')));
    const rows = items
      .filter((r) => n(r, 'return_units') > 0)
      .sort((a, b) => n(b, 'return_units') - n(a, 'return_units') || n(a, 'item_id') - n(b, 'item_id'))
      .map((r) => {
        const c = String(r.currency_code);
        return {
          item_id: n(r, 'item_id'),
          sku: info.get(n(r, 'item_id'))?.sku ?? null,
          name: info.get(n(r, 'item_id'))?.name ?? null,
          currency: c,
          units_sold: n(r, 'units'),
          units_returned: n(r, 'return_units'),
          unit_return_rate: percent(n(r, 'return_units'), n(r, 'units')),
          refunds: money.v(n(r, 'refund_total'), c),
          value_return_rate: percent(n(r, 'refund_total'), n(r, 'total')),
        };
      });
    return this.result(scope, summary, rows, [
      this.dailyChart(scope, 'Refunds / sales total per day (%)', daily, (r) => percent(n(r, 'refund_total'), n(r, 'total'))),
      chart(
        'bar',
        'Most returned items (units)',
        scope.currencies.map((c) => ({
          name: c,
          currency: c,
          data: rows
            .filter((r) => r.currency === c)
            .slice(0, 10)
            .map((r) => ({ x: String(r.sku ?? r.item_id), y: r.units_returned })),
        })),
      ),
    ]);
  }

  async priceSource(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.open(p, f);
    const pm = ['line_count', 'units', 'gross', 'discounts', 'net'];
    const bySource = await this.kit.sum(scope, { table: PRICE_SOURCES, groupBy: ['price_source', 'currency_code'], measures: pm });
    const byCur = groupRows(bySource, 'currency_code');
    const sources = ['base', 'price_book', 'pricing_rule', 'bundle', 'manual', 'offline'];
    const summary = scope.currencies.flatMap((c) => {
      const list = byCur.get(c) ?? [];
      const t = total(list, pm);
      return [
        figure('lines', 'Sale lines', n(t, 'line_count'), 'count', c),
        figure('net_sales', 'Net sales (excl. tax)', money.v(n(t, 'net'), c), 'money', c),
        ...sources.map((s) =>
          figure(
            `${s}_share`,
            `Share of lines priced by ${s.replace('_', ' ')}`,
            percent(
              n(
                list.find((r) => r.price_source === s),
                'line_count',
              ),
              n(t, 'line_count'),
            ),
            'percent',
            c,
          ),
        ),
      ];
    });
    const rows = bySource
      .sort((a, b) => n(b, 'net') - n(a, 'net'))
      .map((r) => {
        const c = String(r.currency_code);
        const t = total(byCur.get(c) ?? [], pm);
        return {
          price_source: r.price_source,
          currency: c,
          lines: n(r, 'line_count'),
          units: n(r, 'units'),
          gross_sales: money.v(n(r, 'gross'), c),
          discounts: money.v(n(r, 'discounts'), c),
          net_sales: money.v(n(r, 'net'), c),
          share_of_lines: percent(n(r, 'line_count'), n(t, 'line_count')),
          share_of_net_sales: percent(n(r, 'net'), n(t, 'net')),
        };
      });
    return this.result(scope, summary, rows, [
      chart(
        'pie',
        'Net sales by price source',
        scope.currencies.map((c) => ({
          name: c,
          currency: c,
          data: rows.filter((r) => r.currency === c).map((r) => ({ x: String(r.price_source), y: r.net_sales })),
        })),
      ),
    ]);
  }

  private cashierView(money: Money, r: Row, name: string | null) {
    const c = String(r.currency_code);
    const d = derive(r);
    return {
      cashier_id: n(r, 'user_id'),
      cashier_name: name,
      currency: c,
      sales_count: d.salesCount,
      items_sold: d.units,
      net_sales: money.v(d.netSales, c),
      total: money.v(d.total, c),
      average_sale: money.of(d.average, c),
      discounts: money.v(d.discounts, c),
      manual_discounts: money.v(n(r, 'discount_manual') + n(r, 'discount_cart'), c),
      voids: d.voids,
      voided_total: money.v(d.voidTotal, c),
      returns_processed: d.returns,
      refunds: money.v(d.refundTotal, c),
    };
  }

  async cashiers(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.open(p, f);
    const byUser = await this.cashierSums(scope);
    const names = await this.kit.users(byUser.map((r) => n(r, 'user_id')));
    const rows = byUser
      .sort((a, b) => n(b, 'total') - n(a, 'total') || n(a, 'user_id') - n(b, 'user_id'))
      .map((r) => this.cashierView(money, r, names.get(n(r, 'user_id')) ?? null));
    const byCur = groupRows(byUser, 'currency_code');
    const summary = scope.currencies.flatMap((c) => {
      const list = byCur.get(c) ?? [];
      const d = derive(total(list, CASHIER_MEASURES));
      return [
        figure('cashiers', 'Cashiers with activity', new Set(list.map((r) => r.user_id)).size, 'count', c),
        figure('sales_count', 'Sales', d.salesCount, 'count', c),
        figure('total', 'Total incl. tax', money.v(d.total, c), 'money', c),
        figure('average_sale', 'Average sale incl. tax', money.of(d.average, c), 'money', c),
        figure('voids', 'Voided sales', d.voids, 'count', c),
      ];
    });
    return this.result(scope, summary, rows, [
      chart(
        'bar',
        'Total by cashier (incl. tax)',
        scope.currencies.map((c) => ({
          name: c,
          currency: c,
          data: rows.filter((r) => r.currency === c).map((r) => ({ x: r.cashier_name ?? String(r.cashier_id), y: r.total })),
        })),
      ),
    ]);
  }

  async cashier(p: Principal, f: ReportFilters, cashierId: number): Promise<ReportResult> {
    const names = await this.kit.users([cashierId]);
    if (!names.has(cashierId)) throw new NotFoundError('Cashier');
    const { scope, money } = await this.open(p, f);
    const [mine, daily] = await Promise.all([
      this.cashierSums(scope, CASHIER_MEASURES, { user_id: cashierId }),
      this.cashierSums(scope, CASHIER_MEASURES, { user_id: cashierId }, true),
    ]);
    const byCur = groupRows(mine, 'currency_code');
    const summary = scope.currencies.flatMap((c) => {
      const v = this.cashierView(money, { ...total(byCur.get(c) ?? [], CASHIER_MEASURES), user_id: cashierId, currency_code: c }, names.get(cashierId) ?? null);
      return [
        figure('sales_count', 'Sales', v.sales_count, 'count', c),
        figure('items_sold', 'Units sold', v.items_sold, 'quantity', c),
        figure('total', 'Total incl. tax', v.total, 'money', c),
        figure('net_sales', 'Net sales (excl. tax)', v.net_sales, 'money', c),
        figure('average_sale', 'Average sale incl. tax', v.average_sale, 'money', c),
        figure('discounts', 'Discounts given', v.discounts, 'money', c),
        figure('voids', 'Voided sales', v.voids, 'count', c),
        figure('returns_processed', 'Returns processed', v.returns_processed, 'count', c),
        figure('refunds', 'Refunds incl. tax', v.refunds, 'money', c),
      ];
    });
    const rows = daily
      .sort((a, b) => n(a, 'day') - n(b, 'day'))
      .map((r) => ({ date: formatDay(n(r, 'day')), ...this.cashierView(money, { ...r, user_id: cashierId }, names.get(cashierId) ?? null) }));
    return this.result(scope, summary, rows, [this.dailyChart(scope, `Total per day: ${names.get(cashierId)}`, daily, (r, c) => money.v(n(r, 'total'), c))]);
  }

  private result(scope: ReportScope, summary: SummaryFigure[], rows: ReportRow[], charts: Chart[]): ReportResult {
    return { data: { summary, rows, charts }, meta: reportMeta(scope) };
  }
}
