import { formatDay } from '../domain/calendar';
import { row } from '../domain/report-figures';
import { SESSION_PAYMENTS, SESSIONS } from '../domain/rollup-tables';
import { ReportContext, ReportParts, rowsOnPage } from '../reports/definition';
import { Drawer, drawersOf } from './closeout-drawers';
import { closeoutCharts, closeoutSummary, DayRow, SM, TenderRow } from './closeout-figures';
import { Money, n } from './report-kit';
import { ReportScope } from './report-scope';
import { SessionDrawer, SessionDrawerReader } from './session-drawer.reader';

/**
 * Closeout (decisions.md): per business day and cashier session, the sales of that day (totals by
 * payment method, tax, discounts, refunds) from the rollups, and each session's drawer (opening
 * float, cash in and out, cash sales and refunds, change given, expected and counted cash, the
 * discrepancy) read from the sessions' own records (closeout-drawers.ts). Every session closed in
 * the period is in it, sales or not, and so is every session still open that was opened in it. A
 * drawer's figures are on the row of the day it closed only (domain/closeout.ts), so a session
 * spanning midnight has its sales on each day and its drawer once; the summary sums sales by day
 * and drawers by session (closeout-figures.ts).
 */
export async function closeoutReport(ctx: ReportContext): Promise<ReportParts> {
  const { scope, money, kit } = ctx;
  const sessions = ctx.use(SessionDrawerReader);
  const [days, taken, drawers] = await Promise.all([
    kit.sum(scope, { table: SESSIONS, groupBy: ['day', 'store_id', 'user_id', 'session_id', 'currency_code'], measures: SM, sumInApp: true }),
    // the period's takings per method (summary and chart), summed by the database
    kit.sum(scope, { table: SESSION_PAYMENTS, groupBy: ['currency_code', 'method_code'], measures: ['amount'] }),
    drawersOf(scope, kit, sessions),
  ]);
  // Sessions whose sales are in the period but whose drawer is not (closed after it, or opened before it and still open).
  const others = await sessions.byIds([...new Set(days.map((r) => n(r, 'session_id')).filter((id) => id > 0 && !drawers.has(id)))]);
  const sessionOf = new Map([...[...drawers.values()].map((d) => d.s), ...others].map((s) => [s.sessionId, s]));
  const rows = closeoutRows(days, drawers, sessionOf);
  // only the asked page's rows are viewed, their takings by method read and their cashiers named (a year is thousands of rows)
  const page = rowsOnPage(rows, ctx.rows);
  const [tenders, names] = await Promise.all([pageTenders(scope, kit, page), kit.users(page.map((r) => r.userId))]);
  const byMethod = [...taken].sort((a, b) => (String(a.method_code) < String(b.method_code) ? -1 : String(a.method_code) > String(b.method_code) ? 1 : 0));
  return {
    summary: scope.currencies.flatMap((c) => closeoutSummary(money, c, days, byMethod, drawers)),
    rows: page.map((r) => rowView(scope, money, r, tenders.get(tenderKey(r.day, r.sessionId, r.userId)) ?? [], names.get(r.userId) ?? null)),
    rowsTotal: rows.length,
    charts: closeoutCharts(scope, money, days, byMethod, drawers),
  };
}

/** A session's takings are keyed by day and session; the sales without a drawer (session 0) by their cashier too. */
const tenderKey = (day: number, session: number, user: number) => `${day}:${session}:${session ? 0 : user}`;

/** The takings by method of the page's rows: only the page's days (rows are in day order) and sessions are read. */
async function pageTenders(scope: ReportScope, kit: ReportContext['kit'], page: CloseoutRow[]): Promise<Map<string, TenderRow[]>> {
  const out = new Map<string, TenderRow[]>();
  if (!page.length) return out;
  const period = { ...scope.period, from: page[0].day, to: page[page.length - 1].day };
  const tenders = await kit.sum(
    { ...scope, period },
    {
      table: SESSION_PAYMENTS,
      where: { session_id: [...new Set(page.map((r) => r.sessionId))] },
      groupBy: ['day', 'session_id', 'user_id', 'method_code', 'method_type', 'currency_code'],
      measures: ['amount', 'refund_amount'],
      sumInApp: true,
    },
  );
  for (const t of tenders) {
    const k = tenderKey(n(t, 'day'), n(t, 'session_id'), n(t, 'user_id'));
    const list = out.get(k);
    if (list) list.push(t);
    else out.set(k, [t]);
  }
  return out;
}

interface CloseoutRow {
  day: number;
  storeId: number;
  userId: number;
  currency: string;
  sessionId: number;
  session: SessionDrawer | null;
  sales: Partial<DayRow>;
  drawer: Drawer | null;
}

/** One row per business day and session with sales that day, plus the drawer's row where that day had none. */
function closeoutRows(days: DayRow[], drawers: Map<number, Drawer>, sessionOf: Map<number, SessionDrawer>): CloseoutRow[] {
  const key = (day: number, session: number) => `${day}:${session}`;
  const rows = days.map((r): CloseoutRow => {
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
        drawer: d,
      });
  return rows.sort((a, b) => a.day - b.day || a.storeId - b.storeId || a.sessionId - b.sessionId || a.userId - b.userId);
}

function rowView(scope: ReportScope, money: Money, r: CloseoutRow, tenders: TenderRow[], cashierName: string | null) {
  const c = r.currency;
  const m = (v: number) => money.v(v, c);
  const byMethod = (k: 'amount' | 'refund_amount') => Object.fromEntries(tenders.map((t) => [String(t.method_code), m(n(t, k))]));
  const ofType = (type: string, k: 'amount' | 'refund_amount') => tenders.filter((t) => t.method_type === type).reduce((a, t) => a + n(t, k), 0);
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
