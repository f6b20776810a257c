import { Injectable } from '@nestjs/common';
import { Principal } from '@pos/identity';
import { NotFoundError } from '@pos/kernel';
import { formatDay } from '../domain/calendar';
import { figure, row } from '../domain/report-figures';
import { percent } from '../domain/report-math';
import { ReportResult } from '../domain/report-payload';
import { chart, groupRows, Money, n, reportResult, Row, total } from './report-kit';
import { ReportFilters } from './report-scope';
import { CASHIER_MEASURES, derive, SalesRollups } from './sales-rollups';

/** Reports per cashier (contract 4.10): cashier, cashier/{cashier}, voids. Figures: metrics.ts. */
@Injectable()
export class CashierReportsService {
  constructor(private readonly base: SalesRollups) {}

  private cashierView(money: Money, r: Row, name: string | null) {
    const c = String(r.currency_code);
    const d = derive(r);
    return row({
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
    });
  }

  async cashiers(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.base.open(p, f);
    const byUser = await this.base.cashierSums(scope);
    const names = await this.base.kit.users(byUser.map((r) => n(r, 'user_id')));
    const rows = byUser
      .sort((a, b) => n(b, 'total') - n(a, 'total') || n(a, 'user_id') - n(b, 'user_id'))
      .map((r) => this.cashierView(money, r, names.get(n(r, 'user_id')) ?? null));
    const byCur = groupRows(byUser, 'currency_code');
    const summary = scope.currencies.flatMap((c) => {
      const list = byCur.get(c) ?? [];
      const d = derive(total(list, CASHIER_MEASURES));
      return [
        figure('cashiers', new Set(list.map((r) => r.user_id)).size, c),
        figure('sales_count', d.salesCount, c),
        figure('total', money.v(d.total, c), c),
        figure('average_sale', money.of(d.average, c), c),
        figure('voids', d.voids, c),
      ];
    });
    return reportResult(scope, summary, rows, [
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
    const names = await this.base.kit.users([cashierId]);
    if (!names.has(cashierId)) throw new NotFoundError('Cashier');
    const { scope, money } = await this.base.open(p, f);
    const [mine, daily] = await Promise.all([
      this.base.cashierSums(scope, CASHIER_MEASURES, { user_id: cashierId }),
      this.base.cashierSums(scope, CASHIER_MEASURES, { user_id: cashierId }, true),
    ]);
    const byCur = groupRows(mine, 'currency_code');
    const summary = scope.currencies.flatMap((c) => {
      const v = this.cashierView(money, { ...total(byCur.get(c) ?? [], CASHIER_MEASURES), user_id: cashierId, currency_code: c }, names.get(cashierId) ?? null);
      return [
        figure('sales_count', v.sales_count, c),
        figure('items_sold', v.items_sold, c),
        figure('total', v.total, c),
        figure('net_sales', v.net_sales, c),
        figure('average_sale', v.average_sale, c),
        figure('discounts', v.discounts, c),
        figure('voids', v.voids, c),
        figure('returns_processed', v.returns_processed, c),
        figure('refunds', v.refunds, c),
      ];
    });
    const rows = daily
      .sort((a, b) => n(a, 'day') - n(b, 'day'))
      .map((r) => ({ date: formatDay(n(r, 'day')), ...this.cashierView(money, { ...r, user_id: cashierId }, names.get(cashierId) ?? null) }));
    return reportResult(scope, summary, rows, [
      this.base.dailyChart(scope, `Total per day: ${names.get(cashierId)}`, daily, (r, c) => money.v(n(r, 'total'), c)),
    ]);
  }

  async voids(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.base.open(p, f);
    const vm = ['sales_count', 'void_count', 'void_total', 'void_net', 'void_on_account'] as const;
    const [byUser, daily] = await Promise.all([this.base.cashierSums(scope, vm), this.base.dailySales(scope, ['void_count', 'void_total'])]);
    const byCur = groupRows(byUser, 'currency_code');
    const names = await this.base.kit.users(byUser.map((r) => n(r, 'user_id')));
    const summary = scope.currencies.flatMap((c) => {
      const t = total(byCur.get(c) ?? [], vm);
      return [
        figure('voids', n(t, 'void_count'), c),
        figure('voided_total', money.v(n(t, 'void_total'), c), c),
        figure('voided_net', money.v(n(t, 'void_net'), c), c),
        figure('voided_on_account', money.v(n(t, 'void_on_account'), c), c),
        figure('void_rate', percent(n(t, 'void_count'), n(t, 'void_count') + n(t, 'sales_count')), c),
      ];
    });
    const rows = byUser
      .filter((r) => n(r, 'void_count') > 0)
      .sort((a, b) => n(b, 'void_count') - n(a, 'void_count') || n(a, 'user_id') - n(b, 'user_id'))
      .map((r) => {
        const c = String(r.currency_code);
        return row({
          cashier_id: n(r, 'user_id'),
          cashier_name: names.get(n(r, 'user_id')) ?? null,
          currency: c,
          voids: n(r, 'void_count'),
          voided_total: money.v(n(r, 'void_total'), c),
          sales_kept: n(r, 'sales_count'),
          void_rate: percent(n(r, 'void_count'), n(r, 'void_count') + n(r, 'sales_count')),
        });
      });
    return reportResult(scope, summary, rows, [
      this.base.dailyChart(scope, 'Voided sales per day', daily, (r) => n(r, 'void_count')),
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
}
