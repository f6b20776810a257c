import { expectedCash } from './invariants-other';
import { groupBy, ReturnRow, SaleRow, SessionRow, sum } from './books';
import { count, Expected, Fig, figures, money, row, text } from './recompute-common';
import { byDay, expected, SalesScope, totals } from './recompute-sales';
import { paymentsOf, refundsOf } from './recompute-tills';

/**
 * Closeout (issue 23 item 4): every drawer of the period once. A session is listed when it was
 * closed in the period (on the business day of its close), or is still open and was opened in
 * it, and on every day it rang a sale, a void or processed a return; sales, voids and returns
 * without a session (offline, or processed with no open drawer) have rows of their own per
 * cashier. A drawer's figures (float, cash in and out, the session's cash sales, refunds and
 * change, expected, counted, discrepancy) are on one row only, the day it closed (open: opened),
 * so a session across midnight counts once; its expected cash is the one stored at the close,
 * D3 while open. The summary adds each drawer once; counted and discrepancy of closed ones.
 */
export interface Drawer {
  sessionId: number | null;
  cashierId: number;
  day: string;
  byMethod: Record<string, number>;
  refundsByMethod: Record<string, number>;
}

const byMethod = (xs: { method_code: string; amount: number }[]) =>
  Object.fromEntries([...groupBy(xs, (p) => p.method_code)].map(([m, ps]) => [m, sum(ps, (p) => p.amount)]));
const cash = (xs: { method_type: string; amount: number }[]) =>
  sum(
    xs.filter((p) => p.method_type === 'cash'),
    (p) => p.amount,
  );

/** The drawer's own figures: on its drawer row, null elsewhere. */
function drawerFields(x: SalesScope, s: SessionRow | null): Record<string, Fig> {
  if (!s) {
    const none = money(null);
    const keys = ['opening_balance', 'cash_in', 'cash_out', 'session_cash_sales', 'session_cash_refunds', 'change_given', 'expected_cash', 'counted_cash'];
    return { drawer_figures: text('false'), ...Object.fromEntries(keys.map((k) => [k, none])), discrepancy: none };
  }
  const closed = s.status === 'closed';
  const moves = x.books.cashMoves.filter((m) => m.session_id === s.id);
  const sales = x.books.sales.filter((v) => v.session_id === s.id && v.status !== 'voided');
  const pays = paymentsOf(x, sales);
  const refunds = refundsOf(
    x,
    x.books.returns.filter((r) => r.session_id === s.id && r.status === 'processed'),
  );
  return {
    drawer_figures: text('true'),
    opening_balance: money(s.opening_balance),
    cash_in: money(
      sum(
        moves.filter((m) => m.type === 'cash_in'),
        (m) => m.amount,
      ),
    ),
    cash_out: money(
      sum(
        moves.filter((m) => m.type === 'cash_out'),
        (m) => m.amount,
      ),
    ),
    session_cash_sales: money(cash(pays)),
    session_cash_refunds: money(cash(refunds)),
    change_given: money(sum(pays, (p) => p.change_amount)),
    expected_cash: money(closed ? s.expected_cash : expectedCash(x.books, s)),
    counted_cash: money(closed ? s.closing_balance : null),
    discrepancy: money(closed ? s.discrepancy : null),
  };
}

export function closeoutReport(x: SalesScope): { expected: Expected; drawers: Drawer[] } {
  const c = x.store.currency_code;
  const inPeriod = (d: Date | null) => d !== null && x.day(d) >= x.filters.date_from && x.day(d) <= x.filters.date_to;
  const drawers: Drawer[] = [];
  const listed: SessionRow[] = [];
  const rows = [];
  // One group per drawer, and per cashier for what happened without one.
  type Group = { session: SessionRow | null; cashier: number; kept: SaleRow[]; voided: SaleRow[]; returns: ReturnRow[] };
  const groups: Group[] = x.books.sessions
    .filter((s) => s.store_id === x.store.id)
    .map((s) => ({
      session: s,
      cashier: s.user_id,
      kept: x.kept.filter((v) => v.session_id === s.id),
      voided: x.voided.filter((v) => v.session_id === s.id),
      returns: x.returns.filter((r) => r.session_id === s.id),
    }));
  const loose = (user: number): Group => ({
    session: null,
    cashier: user,
    kept: x.kept.filter((v) => v.session_id === null && v.user_id === user),
    voided: x.voided.filter((v) => v.session_id === null && v.user_id === user),
    returns: x.returns.filter((r) => r.session_id === null && r.processed_by === user),
  });
  const users = new Set([...x.kept, ...x.voided].filter((v) => v.session_id === null).map((v) => v.user_id));
  for (const r of x.returns) if (r.session_id === null) users.add(r.processed_by!);
  groups.push(...[...users].map(loose));

  for (const g of groups) {
    const s = g.session;
    const drawerAt = s ? (s.status === 'closed' ? s.closed_at : s.opened_at) : null;
    const drawerDay = drawerAt && inPeriod(drawerAt) ? x.day(drawerAt) : null;
    const days = byDay(x, g.kept, g.returns, g.voided);
    if (drawerDay && !days.has(drawerDay)) days.set(drawerDay, totals(x, [], []));
    if (s && days.size) listed.push(s);
    for (const [day, t] of [...days].sort()) {
      const pays = paymentsOf(
        x,
        g.kept.filter((v) => x.day(v.created_at) === day),
      );
      const refunds = refundsOf(
        x,
        g.returns.filter((r) => x.day(r.processed_at!) === day),
      );
      drawers.push({ sessionId: s?.id ?? null, cashierId: g.cashier, day, byMethod: byMethod(pays), refundsByMethod: byMethod(refunds) });
      rows.push(
        row(`${day}|${s?.id ?? null}|${g.cashier}`, c, {
          store_id: count(x.store.id),
          session_status: text(s?.status ?? null),
          sales_count: count(t.sales),
          gross_sales: money(t.gross),
          discounts: money(t.discounts),
          net_sales: money(t.net),
          tax: money(t.tax),
          total: money(t.total),
          voids: count(t.voids),
          voided_total: money(t.voidedTotal),
          returns: count(t.returns),
          refunds: money(t.refundTotal),
          refunded_tax: money(t.refundTax),
          cash_sales: money(cash(pays)),
          cash_refunds: money(cash(refunds)),
          ...drawerFields(x, day === drawerDay ? s : null),
        }),
      );
    }
  }
  const drawn = listed.filter((s) => {
    const at = s.status === 'closed' ? s.closed_at : s.opened_at;
    return inPeriod(at);
  });
  const closed = drawn.filter((s) => s.status === 'closed');
  const t = totals(x, x.kept, x.returns);
  const taken = groupBy(paymentsOf(x, x.kept), (p) => p.method_code);
  return {
    drawers,
    expected: expected(x, 'closeout', {
      summary: figures(c, {
        sessions: count(listed.length),
        sessions_closed: count(closed.length),
        sales_count: count(t.sales),
        total: money(t.total),
        tax: money(t.tax),
        discounts: money(t.discounts),
        refunds: money(t.refundTotal),
        ...Object.fromEntries(['cash', 'card', 'on_account'].map((m): [string, Fig] => [`taken_${m}`, money(sum(taken.get(m) ?? [], (p) => p.amount))])),
        expected_cash: money(sum(closed, (s) => s.expected_cash ?? 0)),
        counted_cash: money(sum(closed, (s) => s.closing_balance ?? 0)),
        discrepancy: money(sum(closed, (s) => s.discrepancy ?? 0)),
      }),
      rowKey: ['date', 'session_id', 'cashier_id'],
      rows,
      ignoredRowFields: ['store_name', 'cashier_name', 'currency', 'totals_by_payment_method', 'refunds_by_payment_method'],
    }),
  };
}
