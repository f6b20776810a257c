import { Injectable } from '@nestjs/common';
import { Principal } from '@pos/identity';
import { figure, row } from '../domain/report-figures';
import { percent } from '../domain/report-math';
import { ReportResult } from '../domain/report-payload';
import { PAYMENTS } from '../domain/rollup-tables';
import { chart, dailyPoints, groupRows, n, reportResult, total } from './report-kit';
import { ReportFilters } from './report-scope';
import { SalesRollups } from './sales-rollups';

const PM = ['payment_count', 'amount', 'change_given', 'void_count', 'void_amount', 'refund_count', 'refund_amount'];

/** Payments per method (contract 4.10): taken after change, refunded, change, voided. Figures: metrics.ts. */
@Injectable()
export class PaymentReportService {
  constructor(private readonly base: SalesRollups) {}

  async payments(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money } = await this.base.open(p, f);
    const [byMethod, daily] = await Promise.all([
      this.base.kit.sum(scope, { table: PAYMENTS, groupBy: ['method_code', 'method_type', 'currency_code'], measures: PM }),
      this.base.kit.sum(scope, { table: PAYMENTS, daily: true, groupBy: ['day', 'method_code', 'currency_code'], measures: ['amount', 'refund_amount'] }),
    ]);
    const byCur = groupRows(byMethod, 'currency_code');
    const summary = scope.currencies.flatMap((c) => {
      const list = byCur.get(c) ?? [];
      const t = total(list, PM);
      const netOf = (type: string) => {
        const x = total(
          list.filter((r) => r.method_type === type),
          ['amount', 'refund_amount'],
        );
        return money.v(n(x, 'amount') - n(x, 'refund_amount'), c);
      };
      return [
        figure('payments', n(t, 'payment_count'), c),
        figure('taken', money.v(n(t, 'amount'), c), c),
        figure('refunded', money.v(n(t, 'refund_amount'), c), c),
        figure('net_taken', money.v(n(t, 'amount') - n(t, 'refund_amount'), c), c),
        figure('change_given', money.v(n(t, 'change_given'), c), c),
        figure('voided', money.v(n(t, 'void_amount'), c), c),
        figure('net_cash', netOf('cash'), c),
        figure('net_card', netOf('card'), c),
        figure('net_on_account', netOf('on_account'), c),
      ];
    });
    const rows = byMethod
      .sort((a, b) => n(b, 'amount') - n(a, 'amount'))
      .map((r) => {
        const c = String(r.currency_code);
        const all = n(total(byCur.get(c) ?? [], ['amount']), 'amount');
        return row({
          method_code: String(r.method_code),
          method_type: String(r.method_type),
          currency: c,
          payments: n(r, 'payment_count'),
          taken: money.v(n(r, 'amount'), c),
          change_given: money.v(n(r, 'change_given'), c),
          refund_count: n(r, 'refund_count'),
          refunded: money.v(n(r, 'refund_amount'), c),
          net: money.v(n(r, 'amount') - n(r, 'refund_amount'), c),
          share_percent: percent(n(r, 'amount'), all),
          voided_payments: n(r, 'void_count'),
          voided_amount: money.v(n(r, 'void_amount'), c),
        });
      });
    const methods = [...new Set(daily.map((r) => `${r.currency_code}|${r.method_code}`))].sort();
    return reportResult(scope, summary, rows, [
      chart(
        'pie',
        'Money taken by method',
        scope.currencies.map((c) => ({
          name: c,
          currency: c,
          data: rows.filter((r) => r.currency === c).map((r) => ({ x: r.method_code, y: r.taken })),
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
}
