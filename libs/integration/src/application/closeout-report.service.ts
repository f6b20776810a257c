import { Injectable } from '@nestjs/common';
import { Principal } from '@pos/identity';
import { EpochDay, formatDay, ZoneCalendar } from '../domain/calendar';
import { drawerDay, expectedDrawerCash } from '../domain/closeout';
import { figure, row } from '../domain/report-figures';
import { ReportResult, SummaryFigure } from '../domain/report-payload';
import { SESSION_PAYMENTS, SESSIONS } from '../domain/rollup-tables';
import { chart, dailyPoints, groupRows, Money, n, ReportKit, reportResult, Row, total } from './report-kit';
import { ReportFilters, ReportScope, ReportScopeResolver } from './report-scope';
import { SessionDrawer, SessionDrawerReader } from './session-drawer.reader';

const SM = ['sales_count', 'gross', 'discounts', 'net', 'tax', 'total', 'void_count', 'void_total', 'return_count', 'refund_tax', 'refund_total'];

/** A session's drawer in the period: its record, the day it belongs to, its whole cash. */
interface Drawer {
  s: SessionDrawer;
  day: EpochDay;
  currency: string;
  cashSales: number;
  cashRefunds: number;
  changeGiven: number;
  expected: number;
}

/**
 * Closeout (decisions.md): per business day and cashier session, the sales of that day (totals by
 * payment method, tax, discounts, refunds) from the rollups, and each session's drawer (opening
 * float, cash in and out, cash sales and refunds, change given, expected and counted cash, the
 * discrepancy) read from the sessions' own records. Every session closed in the period is in it,
 * sales or not, and so is every session still open that was opened in it. A drawer's figures are
 * on the row of the day it closed only (domain/closeout.ts), so a session spanning midnight has its
 * sales on each day and its drawer once; the summary sums sales by day and drawers by session.
 */
@Injectable()
export class CloseoutReportService {
  constructor(
    private readonly scopes: ReportScopeResolver,
    private readonly kit: ReportKit,
    private readonly sessions: SessionDrawerReader,
  ) {}

  async closeout(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const scope = await this.scopes.resolve(p, f);
    const money = await this.kit.money(scope.currencies);
    const [days, tenders, drawers] = await Promise.all([
      this.kit.sum(scope, { table: SESSIONS, groupBy: ['day', 'store_id', 'user_id', 'session_id', 'currency_code'], measures: SM, sumInApp: true }),
      this.kit.sum(scope, {
        table: SESSION_PAYMENTS,
        groupBy: ['day', 'session_id', 'user_id', 'method_code', 'method_type', 'currency_code'],
        measures: ['amount', 'refund_amount'],
        sumInApp: true,
      }),
      this.drawersOf(scope),
    ]);
    // Sessions whose sales are in the period but whose drawer is not (closed after it, or opened before it and still open).
    const others = await this.sessions.byIds([...new Set(days.map((r) => n(r, 'session_id')).filter((id) => id > 0 && !drawers.has(id)))]);
    const sessionOf = new Map([...[...drawers.values()].map((d) => d.s), ...others].map((s) => [s.sessionId, s]));
    const rows = this.rows(scope, days, tenders, drawers, sessionOf);
    const names = await this.kit.users(rows.map((r) => r.userId));
    const view = rows.map((r) => this.rowView(scope, money, r, names.get(r.userId) ?? null));
    return reportResult(
      scope,
      scope.currencies.flatMap((c) => this.summary(money, c, days, tenders, drawers)),
      view,
      this.charts(scope, money, days, tenders, drawers),
    );
  }

  /** Every session of the scope's stores closed in the period, or still open and opened in it, with its whole cash. */
  private async drawersOf(scope: ReportScope): Promise<Map<number, Drawer>> {
    const calendars = new Map(scope.stores.map((s) => [s.id, ZoneCalendar.of(s.timeZone)]));
    const currencyOf = new Map(scope.stores.map((s) => [s.id, s.currencyCode]));
    const found = await this.sessions.inWindows(
      scope.stores.map((s) => ({
        storeId: s.id,
        from: calendars.get(s.id)!.startOf(scope.period.from),
        to: calendars.get(s.id)!.startOf(scope.period.to + 1),
      })),
    );
    const cash = new Map<number, { sales: number; refunds: number; change: number }>();
    for (const t of await this.kit.rollups.sessionTenders(found.map((s) => s.sessionId))) {
      if (t.methodType !== 'cash') continue;
      const c = cash.get(t.sessionId) ?? { sales: 0, refunds: 0, change: 0 };
      c.sales += t.amount;
      c.refunds += t.refunded;
      c.change += t.changeGiven;
      cash.set(t.sessionId, c);
    }
    const out = new Map<number, Drawer>();
    for (const s of found) {
      const c = cash.get(s.sessionId) ?? { sales: 0, refunds: 0, change: 0 };
      const day = drawerDay(s, (at) => calendars.get(s.storeId)!.dayOf(at));
      // Closed: the expected cash stored at close; still open: what the drawer should hold now.
      const expected = s.expectedCash ?? expectedDrawerCash(s, c.sales, c.refunds);
      out.set(s.sessionId, { s, day, currency: currencyOf.get(s.storeId) ?? '', cashSales: c.sales, cashRefunds: c.refunds, changeGiven: c.change, expected });
    }
    return out;
  }

  /** One row per business day and session with sales that day, plus the drawer's row where that day had none. */
  private rows(scope: ReportScope, days: Row[], tenders: Row[], drawers: Map<number, Drawer>, sessionOf: Map<number, SessionDrawer>) {
    const key = (day: number, session: number) => `${day}:${session}`;
    // A session is one cashier's; the sales without a drawer (session 0) are each cashier's own.
    const tenderKey = (day: number, session: number, user: number) => `${day}:${session}:${session ? 0 : user}`;
    const tendersOf = groupRows(
      tenders.map((t) => ({ ...t, key: tenderKey(n(t, 'day'), n(t, 'session_id'), n(t, 'user_id')) })),
      'key',
    );
    const rows = days.map((r) => {
      const sessionId = n(r, 'session_id');
      const drawer = drawers.get(sessionId);
      return {
        day: n(r, 'day'),
        storeId: n(r, 'store_id'),
        userId: n(r, 'user_id'),
        currency: String(r.currency_code),
        sessionId,
        session: sessionOf.get(sessionId) ?? null,
        sales: r,
        tenders: tendersOf.get(tenderKey(n(r, 'day'), sessionId, n(r, 'user_id'))) ?? [],
        drawer: drawer && drawer.day === n(r, 'day') ? drawer : null,
      };
    });
    const withSales = new Set(rows.map((r) => key(r.day, r.sessionId)));
    for (const d of drawers.values())
      if (!withSales.has(key(d.day, d.s.sessionId)))
        rows.push({
          day: d.day,
          storeId: d.s.storeId,
          userId: d.s.userId,
          currency: d.currency,
          sessionId: d.s.sessionId,
          session: d.s,
          sales: {},
          tenders: [],
          drawer: d,
        });
    return rows.sort((a, b) => a.day - b.day || a.storeId - b.storeId || a.sessionId - b.sessionId || a.userId - b.userId);
  }

  private rowView(scope: ReportScope, money: Money, r: ReturnType<CloseoutReportService['rows']>[number], cashierName: string | null) {
    const c = r.currency;
    const m = (v: number) => money.v(v, c);
    const byMethod = (k: 'amount' | 'refund_amount') => Object.fromEntries(r.tenders.map((t) => [String(t.method_code), m(n(t, k))]));
    const ofType = (type: string, k: string) => r.tenders.filter((t) => t.method_type === type).reduce((a, t) => a + n(t, k), 0);
    const d = r.drawer;
    const closed = d !== null && d.s.status === 'closed';
    return row({
      date: formatDay(r.day),
      store_id: r.storeId,
      store_name: scope.stores.find((s) => s.id === r.storeId)?.name ?? null,
      session_id: r.sessionId || null,
      session_status: r.session?.status ?? null,
      cashier_id: r.userId,
      cashier_name: cashierName,
      currency: c,
      sales_count: n(r.sales, 'sales_count'),
      gross_sales: m(n(r.sales, 'gross')),
      discounts: m(n(r.sales, 'discounts')),
      net_sales: m(n(r.sales, 'net')),
      tax: m(n(r.sales, 'tax')),
      total: m(n(r.sales, 'total')),
      voids: n(r.sales, 'void_count'),
      voided_total: m(n(r.sales, 'void_total')),
      returns: n(r.sales, 'return_count'),
      refunds: m(n(r.sales, 'refund_total')),
      refunded_tax: m(n(r.sales, 'refund_tax')),
      totals_by_payment_method: byMethod('amount'),
      refunds_by_payment_method: byMethod('refund_amount'),
      cash_sales: m(ofType('cash', 'amount')),
      cash_refunds: m(ofType('cash', 'refund_amount')),
      drawer_figures: d !== null,
      opening_balance: d ? m(d.s.openingBalance) : null,
      cash_in: d ? m(d.s.cashIn) : null,
      cash_out: d ? m(d.s.cashOut) : null,
      session_cash_sales: d ? m(d.cashSales) : null,
      session_cash_refunds: d ? m(d.cashRefunds) : null,
      change_given: d ? m(d.changeGiven) : null,
      expected_cash: d ? m(d.expected) : null,
      counted_cash: closed && d.s.countedCash !== null ? m(d.s.countedCash) : null,
      discrepancy: closed && d.s.discrepancy !== null ? m(d.s.discrepancy) : null,
    });
  }

  private summary(money: Money, c: string, days: Row[], tenders: Row[], drawers: Map<number, Drawer>): SummaryFigure[] {
    const mine = days.filter((r) => r.currency_code === c);
    const t = total(mine, SM);
    const own = [...drawers.values()].filter((d) => d.currency === c);
    const closed = own.filter((d) => d.s.status === 'closed');
    const sessions = new Set([...mine.map((r) => n(r, 'session_id')).filter((id) => id > 0), ...own.map((d) => d.s.sessionId)]);
    const sumOf = (f: (d: Drawer) => number) =>
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
      figure(
        'expected_cash',
        sumOf((d) => d.expected),
        c,
      ),
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

  private charts(scope: ReportScope, money: Money, days: Row[], tenders: Row[], drawers: Map<number, Drawer>) {
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
        scope.currencies.map((c) => ({
          name: c,
          currency: c,
          data: [
            ...groupRows(
              tenders.filter((r) => r.currency_code === c),
              'method_code',
            ),
          ].map(([code, list]) => ({ x: code, y: money.v(n(total(list, ['amount']), 'amount'), c) })),
        })),
      ),
      chart(
        'line',
        'Total per day (incl. tax)',
        scope.currencies.map((c) => ({
          name: c,
          currency: c,
          data: perDay(
            days.filter((r) => r.currency_code === c).map((r) => ({ day: n(r, 'day'), v: n(r, 'total') })),
            c,
          ),
        })),
      ),
      chart(
        'bar',
        'Cash discrepancy per day (sessions closed that day)',
        scope.currencies.map((c) => ({
          name: c,
          currency: c,
          data: perDay(
            [...drawers.values()].filter((d) => d.currency === c && d.s.status === 'closed').map((d) => ({ day: d.day, v: d.s.discrepancy ?? 0 })),
            c,
          ),
        })),
      ),
    ];
  }
}
