import { Injectable } from '@nestjs/common';
import { Principal } from '@pos/identity';
import { SessionService } from '@pos/sessions';
import { formatDay } from '../domain/calendar';
import { ReportResult, ReportRow } from '../domain/report-payload';
import { SESSION_PAYMENTS, SESSIONS } from '../domain/rollup-tables';
import { chart, dailyPoints, figure, groupRows, n, ReportKit, Row, total } from './report-kit';
import { ReportFilters, reportMeta, ReportScopeResolver } from './report-scope';

const SM = ['sales_count', 'gross', 'discounts', 'net', 'tax', 'total', 'void_count', 'void_total', 'return_count', 'refund_tax', 'refund_total'];

/**
 * Closeout (decisions.md): per business day and cashier session, the totals by payment method,
 * tax, discounts and refunds from the rollups, and the session's own cash count from the sessions
 * context: opening balance, cash in and out, expected cash (stored at close; for a session still
 * open, opening + cash taken - cash refunded + cash in - cash out so far) and counted cash with the
 * discrepancy. The cash figures are the whole session's, repeated on each of its days.
 */
@Injectable()
export class CloseoutReportService {
  constructor(
    private readonly scopes: ReportScopeResolver,
    private readonly kit: ReportKit,
    private readonly sessions: SessionService,
  ) {}

  async closeout(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const scope = await this.scopes.resolve(p, f);
    const money = await this.kit.money(scope.currencies);
    const [days, tenders] = await Promise.all([
      this.kit.sum(scope, { table: SESSIONS, groupBy: ['day', 'store_id', 'user_id', 'session_id', 'currency_code'], measures: SM, sumInApp: true }),
      this.kit.sum(scope, {
        table: SESSION_PAYMENTS,
        groupBy: ['day', 'session_id', 'method_code', 'method_type', 'currency_code'],
        measures: ['amount', 'refund_amount'],
        sumInApp: true,
      }),
    ]);
    const sessionIds = [...new Set(days.map((r) => n(r, 'session_id')).filter((id) => id > 0))];
    const [cash, names] = await Promise.all([this.sessions.cashSummaries(sessionIds), this.kit.users(days.map((r) => n(r, 'user_id')))]);
    // Cash taken over every day of the sessions still open (a closed session's expected cash is stored).
    const allTenders = await this.kit.rollups.sessionTenders(cash.filter((c) => c.session.expectedCash === null).map((c) => c.session.id));
    const cashOf = new Map(cash.map((c) => [c.session.id, c]));
    const storeName = new Map(scope.stores.map((s) => [s.id, s.name]));
    const tenderKey = (r: { day?: unknown; session_id?: unknown }) => `${String(r.day)}:${String(r.session_id)}`;
    const tendersByDay = new Map<string, Row[]>();
    for (const t of tenders) {
      const k = tenderKey(t);
      const list = tendersByDay.get(k);
      if (list) list.push(t);
      else tendersByDay.set(k, [t]);
    }
    // Expected cash per session: stored at close; for one still open, what its drawer should hold now.
    const openCash = new Map<number, number>();
    for (const x of allTenders) if (x.methodType === 'cash') openCash.set(x.sessionId, (openCash.get(x.sessionId) ?? 0) + x.amount - x.refunded);
    const expectedCash = new Map<number, number | null>();
    const expectedNow = (sessionId: number) => {
      let e = expectedCash.get(sessionId);
      if (e === undefined) {
        const c = cashOf.get(sessionId);
        e = !c
          ? null
          : c.session.expectedCash !== null
            ? c.session.expectedCash
            : c.session.openingBalance + (openCash.get(sessionId) ?? 0) + c.cashIn - c.cashOut;
        expectedCash.set(sessionId, e);
      }
      return e;
    };
    const rows: ReportRow[] = days
      .sort((a, b) => n(a, 'day') - n(b, 'day') || n(a, 'store_id') - n(b, 'store_id') || n(a, 'session_id') - n(b, 'session_id'))
      .map((r) => {
        const c = String(r.currency_code);
        const sid = n(r, 'session_id');
        const s = cashOf.get(sid);
        const mine = tendersByDay.get(tenderKey(r)) ?? [];
        const byMethod = (m: 'amount' | 'refund_amount') => Object.fromEntries(mine.map((t) => [String(t.method_code), money.v(n(t, m), c)]));
        const ofType = (type: string, m: string) => mine.filter((t) => t.method_type === type).reduce((a, t) => a + n(t, m), 0);
        const expected = sid ? expectedNow(sid) : null;
        return {
          date: formatDay(n(r, 'day')),
          store_id: n(r, 'store_id'),
          store_name: storeName.get(n(r, 'store_id')) ?? null,
          session_id: sid || null,
          session_status: s?.session.status ?? null,
          cashier_id: n(r, 'user_id'),
          cashier_name: names.get(n(r, 'user_id')) ?? null,
          currency: c,
          sales_count: n(r, 'sales_count'),
          gross_sales: money.v(n(r, 'gross'), c),
          discounts: money.v(n(r, 'discounts'), c),
          net_sales: money.v(n(r, 'net'), c),
          tax: money.v(n(r, 'tax'), c),
          total: money.v(n(r, 'total'), c),
          voids: n(r, 'void_count'),
          voided_total: money.v(n(r, 'void_total'), c),
          returns: n(r, 'return_count'),
          refunds: money.v(n(r, 'refund_total'), c),
          refunded_tax: money.v(n(r, 'refund_tax'), c),
          totals_by_payment_method: byMethod('amount'),
          refunds_by_payment_method: byMethod('refund_amount'),
          cash_sales: money.v(ofType('cash', 'amount'), c),
          cash_refunds: money.v(ofType('cash', 'refund_amount'), c),
          opening_balance: s ? money.v(s.session.openingBalance, c) : null,
          cash_in: s ? money.v(s.cashIn, c) : null,
          cash_out: s ? money.v(s.cashOut, c) : null,
          expected_cash: money.of(expected, c),
          counted_cash: s && s.session.closingBalance !== null ? money.v(s.session.closingBalance, c) : null,
          discrepancy: s && s.session.discrepancy !== null ? money.v(s.session.discrepancy, c) : null,
        };
      });
    const byCur = groupRows(days, 'currency_code');
    const tendersCur = groupRows(tenders, 'currency_code');
    const summary = scope.currencies.flatMap((c) => {
      const t = total(byCur.get(c) ?? [], SM);
      const sessionsHere = [...new Set((byCur.get(c) ?? []).map((r) => n(r, 'session_id')).filter((id) => id > 0))];
      const closed = sessionsHere.map((id) => cashOf.get(id)).filter((s) => s && s.session.closingBalance !== null);
      const methods = groupRows(tendersCur.get(c) ?? [], 'method_code');
      return [
        figure('sessions', 'Cashier sessions', sessionsHere.length, 'count', c),
        figure('sales_count', 'Sales', n(t, 'sales_count'), 'count', c),
        figure('total', 'Total incl. tax', money.v(n(t, 'total'), c), 'money', c),
        figure('tax', 'Tax', money.v(n(t, 'tax'), c), 'money', c),
        figure('discounts', 'Discounts', money.v(n(t, 'discounts'), c), 'money', c),
        figure('refunds', 'Refunds incl. tax', money.v(n(t, 'refund_total'), c), 'money', c),
        ...[...methods].map(([code, list]) => figure(`taken_${code}`, `Taken by ${code}`, money.v(n(total(list, ['amount']), 'amount'), c), 'money', c)),
        figure(
          'expected_cash',
          'Expected cash of the closed sessions',
          money.v(
            closed.reduce((a, s) => a + (s!.session.expectedCash ?? 0), 0),
            c,
          ),
          'money',
          c,
        ),
        figure(
          'counted_cash',
          'Counted cash of the closed sessions',
          money.v(
            closed.reduce((a, s) => a + (s!.session.closingBalance ?? 0), 0),
            c,
          ),
          'money',
          c,
        ),
        figure(
          'discrepancy',
          'Counted - expected (closed sessions)',
          money.v(
            closed.reduce((a, s) => a + (s!.session.discrepancy ?? 0), 0),
            c,
          ),
          'money',
          c,
        ),
      ];
    });
    return {
      data: {
        summary,
        rows,
        charts: [
          chart(
            'bar',
            'Taken by payment method',
            scope.currencies.map((c) => ({
              name: c,
              currency: c,
              data: [...groupRows(tendersCur.get(c) ?? [], 'method_code')].map(([code, list]) => ({
                x: code,
                y: money.v(n(total(list, ['amount']), 'amount'), c),
              })),
            })),
          ),
          chart(
            'line',
            'Total per day (incl. tax)',
            scope.currencies.map((c) => {
              const perDay = [...groupRows(byCur.get(c) ?? [], 'day')].map(([day, list]) => ({ day: Number(day), total: n(total(list, ['total']), 'total') }));
              return { name: c, currency: c, data: dailyPoints(scope, perDay, (r) => money.v(n(r, 'total'), c)) };
            }),
          ),
        ],
      },
      meta: reportMeta(scope),
    };
  }
}
