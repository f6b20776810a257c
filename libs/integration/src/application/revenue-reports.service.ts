import { Injectable } from '@nestjs/common';
import { Principal } from '@pos/identity';
import { formatDay } from '../domain/calendar';
import { figure, row } from '../domain/report-figures';
import { average, percent } from '../domain/report-math';
import { ReportResult, SummaryFigure } from '../domain/report-payload';
import { chart, groupRows, Money, n, reportResult, total } from './report-kit';
import { ReportFilters } from './report-scope';
import { DERIVED, Derived, derive, SalesRollups } from './sales-rollups';

/** Sales, revenue and profit reports (contract 4.10): overview, sales, revenue, profit, stores. Figures: metrics.ts. */
@Injectable()
export class RevenueReportsService {
  constructor(private readonly base: SalesRollups) {}

  private headline(money: Money, c: string, d: Derived): SummaryFigure[] {
    return [
      figure('net_sales', money.v(d.netSales, c), c),
      figure('refund_net', money.v(d.refundNet, c), c),
      figure('net_revenue', money.v(d.revenue, c), c),
      figure('cogs', money.v(d.cogs, c), c),
      figure('gross_profit', money.v(d.profit, c), c),
      figure('margin_percent', d.margin, c),
      figure('net_tax', money.v(d.tax - d.refundTax, c), c),
      figure('total', money.v(d.total, c), c),
      figure('sales_count', d.salesCount, c),
      figure('average_sale', money.of(d.average, c), c),
      figure('items_sold', d.units, c),
      figure('voids', d.voids, c),
      figure('returns', d.returns, c),
    ];
  }

  async overview(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.base.open(p, f);
    const [byStore, daily] = await Promise.all([this.base.sales(scope, ['store_id']), this.base.dailySales(scope, ['net', 'refund_net'])]);
    const byCur = groupRows(byStore, 'currency_code');
    const summary = scope.currencies.flatMap((c) => this.headline(money, c, derive(total(byCur.get(c) ?? [], DERIVED))));
    const rows = scope.stores.map((s) => {
      const d = derive(byStore.find((r) => r.store_id === s.id) ?? {});
      const c = s.currencyCode;
      return row({
        store_id: s.id,
        store_name: s.name,
        currency: c,
        sales_count: d.salesCount,
        net_sales: money.v(d.netSales, c),
        refund_net: money.v(d.refundNet, c),
        net_revenue: money.v(d.revenue, c),
        gross_profit: money.v(d.profit, c),
        margin_percent: d.margin,
        average_sale: money.of(d.average, c),
      });
    });
    return reportResult(scope, summary, rows, [
      this.base.dailyChart(scope, 'Net revenue per day', daily, (r, c) => money.v(n(r, 'net') - n(r, 'refund_net'), c)),
      chart(
        'bar',
        'Net revenue by store',
        scope.currencies.map((c) => ({ name: c, currency: c, data: rows.filter((r) => r.currency === c).map((r) => ({ x: r.store_name, y: r.net_revenue })) })),
      ),
    ]);
  }

  async sales(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.base.open(p, f);
    const daily = await this.base.dailySales(scope, DERIVED);
    const byCur = groupRows(daily, 'currency_code');
    const summary = scope.currencies.flatMap((c) => {
      const d = derive(total(byCur.get(c) ?? [], DERIVED));
      return [
        figure('sales_count', d.salesCount, c),
        figure('items_sold', d.units, c),
        figure('gross_sales', money.v(d.gross, c), c),
        figure('discounts', money.v(d.discounts, c), c),
        figure('net_sales', money.v(d.netSales, c), c),
        figure('tax', money.v(d.tax, c), c),
        figure('total', money.v(d.total, c), c),
        figure('average_sale', money.of(d.average, c), c),
        figure('refunds', money.v(d.refundTotal, c), c),
        figure('total_after_refunds', money.v(d.total - d.refundTotal, c), c),
        figure('voids', d.voids, c),
        figure('voided_total', money.v(d.voidTotal, c), c),
      ];
    });
    const rows = daily
      .sort((a, b) => n(a, 'day') - n(b, 'day') || String(a.currency_code).localeCompare(String(b.currency_code)))
      .map((r) => {
        const c = String(r.currency_code);
        const d = derive(r);
        return row({
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
        });
      });
    return reportResult(scope, summary, rows, [this.base.dailyChart(scope, 'Sales total per day (incl. tax)', daily, (r, c) => money.v(n(r, 'total'), c))]);
  }

  async revenue(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.base.open(p, f);
    const m = ['gross', 'discount_rule', 'discount_bundle', 'discount_manual', 'discount_cart', 'net', 'refund_net', 'tax', 'refund_tax', 'sales_count'];
    const [daily, byStore] = await Promise.all([this.base.dailySales(scope, m), this.base.sales(scope, ['store_id'], ['net', 'refund_net'])]);
    const byCur = groupRows(daily, 'currency_code');
    const summary = scope.currencies.flatMap((c) => {
      const d = derive(total(byCur.get(c) ?? [], m));
      return [
        figure('gross_sales', money.v(d.gross, c), c),
        figure('discounts', money.v(d.discounts, c), c),
        figure('net_sales', money.v(d.netSales, c), c),
        figure('refund_net', money.v(d.refundNet, c), c),
        figure('net_revenue', money.v(d.revenue, c), c),
        figure('average_daily_revenue', money.of(average(d.revenue, scope.period.days), c), c),
        figure('net_tax', money.v(d.tax - d.refundTax, c), c),
      ];
    });
    const rows = daily
      .sort((a, b) => n(a, 'day') - n(b, 'day'))
      .map((r) => {
        const c = String(r.currency_code);
        const d = derive(r);
        return row({
          date: formatDay(n(r, 'day')),
          currency: c,
          gross_sales: money.v(d.gross, c),
          discounts: money.v(d.discounts, c),
          net_sales: money.v(d.netSales, c),
          refund_net: money.v(d.refundNet, c),
          net_revenue: money.v(d.revenue, c),
          net_tax: money.v(d.tax - d.refundTax, c),
        });
      });
    const storeName = new Map(scope.stores.map((s) => [s.id, s.name]));
    return reportResult(scope, summary, rows, [
      this.base.dailyChart(scope, 'Net revenue per day', daily, (r, c) => money.v(derive(r).revenue, c)),
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

  async profit(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.base.open(p, f);
    const m = ['net', 'cost', 'refund_net', 'refund_cost', 'sales_count'];
    const [daily, byStore] = await Promise.all([this.base.dailySales(scope, m), this.base.sales(scope, ['store_id'], m)]);
    const byCur = groupRows(daily, 'currency_code');
    const summary = scope.currencies.flatMap((c) => {
      const d = derive(total(byCur.get(c) ?? [], m));
      return [
        figure('revenue', money.v(d.revenue, c), c),
        figure('cogs', money.v(d.cogs, c), c),
        figure('gross_profit', money.v(d.profit, c), c),
        figure('margin_percent', d.margin, c),
        figure('markup_percent', percent(d.profit, d.cogs), c),
      ];
    });
    const rows = daily
      .sort((a, b) => n(a, 'day') - n(b, 'day'))
      .map((r) => {
        const c = String(r.currency_code);
        const d = derive(r);
        return row({
          date: formatDay(n(r, 'day')),
          currency: c,
          revenue: money.v(d.revenue, c),
          cogs: money.v(d.cogs, c),
          gross_profit: money.v(d.profit, c),
          margin_percent: d.margin,
        });
      });
    const storeName = new Map(scope.stores.map((s) => [s.id, s.name]));
    return reportResult(scope, summary, rows, [
      this.base.dailyChart(scope, 'Gross profit per day', daily, (r, c) => money.v(derive(r).profit, c)),
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

  async stores(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.base.open(p, f);
    const byStore = await this.base.sales(scope, ['store_id']);
    const rows = scope.stores.map((s) => {
      const c = s.currencyCode;
      const d = derive(byStore.find((r) => r.store_id === s.id) ?? {});
      return row({
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
      });
    });
    const byCur = groupRows(byStore, 'currency_code');
    const summary = scope.currencies.flatMap((c) => {
      const d = derive(total(byCur.get(c) ?? [], DERIVED));
      return [
        figure('stores', scope.stores.filter((s) => s.currencyCode === c).length, c),
        figure('net_revenue', money.v(d.revenue, c), c),
        figure('gross_profit', money.v(d.profit, c), c),
        figure('sales_count', d.salesCount, c),
        figure('total', money.v(d.total, c), c),
      ];
    });
    return reportResult(scope, summary, rows, [
      chart(
        'bar',
        'Net revenue by store',
        scope.currencies.map((c) => ({ name: c, currency: c, data: rows.filter((r) => r.currency === c).map((r) => ({ x: r.store_name, y: r.net_revenue })) })),
      ),
    ]);
  }
}
