import { figure } from '../domain/report-figures';
import type { Chart, SummaryFigure } from '../domain/report-payload';
import type { DrawerRecord } from './closeout-drawers';
import { chart, dailyPoints, groupRows, Money, n, total, perCurrency } from './report-kit';
import type { SumRow } from './rollup.ports';
import { ReportScope } from './report-scope';

/** The sales measures of a closeout row (rpt_sessions). */
export const SM = [
  'sales_count',
  'gross',
  'discounts',
  'net',
  'tax',
  'total',
  'void_count',
  'void_total',
  'return_count',
  'refund_tax',
  'refund_total',
] as const;

/** The sales measures of the summary. */
const SUMMED = ['sales_count', 'total', 'tax', 'discounts', 'refund_total'] as const;

/** A closeout row's key and sales (rpt_sessions): a day and session (a session-less cashier's sales by cashier). */
export type DayRow = SumRow<(typeof SM)[number], 'day' | 'store_id' | 'user_id' | 'session_id' | 'currency_code'>;
export type TenderRow = SumRow<'amount' | 'refund_amount', 'day' | 'session_id' | 'user_id' | 'method_code' | 'method_type' | 'currency_code'>;
/** The period's takings per currency and payment method. */
export type MethodTotal = SumRow<'amount', 'method_code' | 'currency_code'>;

/**
 * A currency's closeout summary: sales summed over the rows, drawers by session (the closed ones' cash:
 * `expectedOf` a closed drawer is the expected cash stored at its close).
 */
export function closeoutSummary(
  money: Money,
  c: string,
  days: DayRow[],
  tenders: MethodTotal[],
  drawers: Map<number, DrawerRecord>,
  expectedOf: (d: DrawerRecord) => number,
): SummaryFigure[] {
  const mine = days.filter((r) => r.currency_code === c);
  const t = total(mine, SUMMED);
  const own = [...drawers.values()].filter((d) => d.currency === c);
  const closed = own.filter((d) => d.s.status === 'closed');
  const sessions = new Set([...mine.filter((r) => r.session_id > 0).map((r) => r.session_id), ...own.map((d) => d.s.sessionId)]);
  const sumOf = (f: (d: DrawerRecord) => number) =>
    money.v(
      closed.reduce((a, d) => a + f(d), 0),
      c,
    );
  const methods = groupRows(
    tenders.filter((r) => r.currency_code === c),
    'method_code',
  );
  return [
    figure('sessions', sessions.size, c),
    figure('sessions_closed', closed.length, c),
    figure('sales_count', n(t, 'sales_count'), c),
    figure('total', money.v(n(t, 'total'), c), c),
    figure('tax', money.v(n(t, 'tax'), c), c),
    figure('discounts', money.v(n(t, 'discounts'), c), c),
    figure('refunds', money.v(n(t, 'refund_total'), c), c),
    ...[...methods].map(([code, list]) => figure('taken_{method}', money.v(n(total(list, ['amount']), 'amount'), c), c, { method: code })),
    figure('expected_cash', sumOf(expectedOf), c),
    figure(
      'counted_cash',
      sumOf((d) => d.s.countedCash ?? 0),
      c,
    ),
    figure(
      'discrepancy',
      sumOf((d) => d.s.discrepancy ?? 0),
      c,
    ),
  ];
}

/** Taken by payment method, the day's total, and the discrepancy of the sessions closed each day. */
export function closeoutCharts(scope: ReportScope, money: Money, days: DayRow[], tenders: MethodTotal[], drawers: Map<number, DrawerRecord>): Chart[] {
  const perDay = (rows: { day: number; v: number }[], c: string) => {
    const byDay = new Map<number, number>();
    for (const r of rows) byDay.set(r.day, (byDay.get(r.day) ?? 0) + r.v);
    return dailyPoints(
      scope,
      [...byDay].map(([day, v]) => ({ day, v })),
      (r) => money.v(n(r, 'v'), c),
    );
  };
  return [
    chart(
      'bar',
      'Taken by payment method',
      perCurrency(scope, (c) =>
        [
          ...groupRows(
            tenders.filter((r) => r.currency_code === c),
            'method_code',
          ),
        ].map(([code, list]) => ({ x: code, y: money.v(n(total(list, ['amount']), 'amount'), c) })),
      ),
    ),
    chart(
      'line',
      'Total per day (incl. tax)',
      perCurrency(scope, (c) =>
        perDay(
          days.filter((r) => r.currency_code === c).map((r) => ({ day: n(r, 'day'), v: n(r, 'total') })),
          c,
        ),
      ),
    ),
    chart(
      'bar',
      'Cash discrepancy per day (sessions closed that day)',
      perCurrency(scope, (c) =>
        perDay(
          [...drawers.values()].filter((d) => d.currency === c && d.s.status === 'closed').map((d) => ({ day: d.day, v: d.s.discrepancy ?? 0 })),
          c,
        ),
      ),
    ),
  ];
}
