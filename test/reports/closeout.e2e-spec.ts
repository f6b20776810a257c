import request from 'supertest';
import { RollupRebuildService } from '@pos/integration';
import { bearer, DEMO, integrationToken, login, startTestApp, TestApp } from '../support/test-app';
import { ALL_REPORT_PERMISSIONS, fig, report } from './report-helpers';

type Row = Record<string, unknown> & { session_id: number | null; date: string; drawer_figures: boolean };

const ZONE = 'America/New_York';

/** YYYY-MM-DD of an instant in the store's zone. */
function localDay(at: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The instant of a local wall-clock time in the store's zone (the offset read back from Intl). */
function localTime(day: string, time: string): Date {
  const wall = Date.parse(`${day}T${time}:00Z`);
  let at = wall;
  for (let i = 0; i < 2; i++) {
    const p = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', {
        timeZone: ZONE,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
      })
        .formatToParts(new Date(at))
        .map((x) => [x.type, x.value]),
    );
    const shown = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute));
    at += wall - shown;
  }
  return new Date(at);
}

/**
 * Issue 23 item 4: closeout lists every drawer. The sessions' and sales' times are moved to known
 * local times in the Downtown store (America/New_York) and the rollups rebuilt from the raw
 * records, so the days are fixed whatever the hour the suite runs.
 *   day A: the manager's session sells nothing (open 100, cash out 2.25, counted 95.50: -2.25);
 *          the cashier's sells 1.94 in cash (open 50, counted 52.44: +0.50). The day: -1.75.
 *   days B-1 / B: a session opened at 23:30, one sale before midnight and one after, closed at
 *          00:30 (open 100, sales 1.94 + 2.63 cash, counted 105.57: +1.00): its sales on both
 *          days, its drawer once, on B.
 */
describe('Closeout: every drawer of the period, once', () => {
  let t: TestApp;
  let all: string;
  let cashier: string;
  let manager: string;
  let ids: Record<string, number>;
  const api = () => request(t.http);
  const today = localDay(new Date());
  const A = addDays(today, -6);
  const B = addDays(today, -3);
  const beforeB = addDays(B, -1);
  let n = 0;
  const sql = (d: Date) => (t.isMysql ? d : d.toISOString().replace('T', ' ').replace('Z', ''));
  const sell = async (items: { id: number; qty: number }[], amount: number) => {
    const res = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .send({ store_id: 1, idempotency_key: `close-${++n}`, items, payments: [{ payment_method_code: 'cash', amount }], total_amount: amount });
    if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data.id as number;
  };
  const open = async (token: string, balance: number) =>
    (await api().post('/api/v1/sessions/open').set(bearer(token)).send({ store_id: 1, opening_balance: balance }).expect(200)).body.data.id as number;
  const close = async (token: string, id: number, counted: number) =>
    (await api().post(`/api/v1/sessions/${id}/close`).set(bearer(token)).send({ closing_balance: counted }).expect(200)).body.data;
  const moveSession = (id: number, openedAt: Date, closedAt: Date) =>
    t.db.query('UPDATE cashier_sessions SET opened_at = ?, closed_at = ? WHERE id = ?', [sql(openedAt), sql(closedAt), id]);
  const moveSale = (id: number, at: Date) => t.db.query('UPDATE sales SET created_at = ? WHERE id = ?', [sql(at), id]);
  const closeout = (from: string, to = from) => report(t, all, 'closeout', { store_id: 1, date_from: from, date_to: to });
  const rowsOf = (body: { data: { rows: Row[] } }, session: number) => body.data.rows.filter((r) => r.session_id === session);

  let idle: number;
  let busy: number;
  let overnight: number;

  beforeAll(async () => {
    t = await startTestApp();
    all = (await integrationToken(t, ALL_REPORT_PERMISSIONS)).token;
    cashier = await login(t, DEMO.cashier);
    manager = await login(t, DEMO.manager);
    ids = Object.fromEntries((await t.db.query('SELECT id, sku FROM items')).map((r: { id: number; sku: string }) => [r.sku, Number(r.id)]));

    idle = await open(manager, 100);
    await api()
      .post(`/api/v1/sessions/${idle}/cash-movement`)
      .set(bearer(manager))
      .send({ type: 'cash_out', amount: 2.25, reason: 'Window cleaner' })
      .expect(200);
    expect(await close(manager, idle, 95.5)).toMatchObject({ discrepancy: -2.25 });
    busy = await open(cashier, 50);
    const busySale = await sell([{ id: ids['BEV-003'], qty: 1 }], 1.94);
    expect(await close(cashier, busy, 52.44)).toMatchObject({ discrepancy: 0.5 });
    await moveSession(idle, localTime(A, '09:00'), localTime(A, '17:00'));
    await moveSession(busy, localTime(A, '10:00'), localTime(A, '18:00'));
    await moveSale(busySale, localTime(A, '12:00'));

    overnight = await open(cashier, 100);
    const late = await sell([{ id: ids['BEV-003'], qty: 1 }], 1.94);
    const early = await sell([{ id: ids['BEV-001'], qty: 2 }], 2.63);
    expect(await close(cashier, overnight, 105.57)).toMatchObject({ discrepancy: 1 });
    await moveSession(overnight, localTime(beforeB, '23:30'), localTime(B, '00:30'));
    await moveSale(late, localTime(beforeB, '23:45'));
    await moveSale(early, localTime(B, '00:15'));

    await t.app.get(RollupRebuildService).rebuild(() => undefined);
  });
  afterAll(() => t.close());

  it('a session with no sale is in closeout with its drawer, and the day’s discrepancy sums it', async () => {
    const res = await closeout(A);
    expect(res.status).toBe(200);
    expect(rowsOf(res.body, idle)).toEqual([
      expect.objectContaining({
        date: A,
        session_status: 'closed',
        sales_count: 0,
        total: 0,
        drawer_figures: true,
        opening_balance: 100,
        cash_in: 0,
        cash_out: 2.25,
        session_cash_sales: 0,
        session_cash_refunds: 0,
        expected_cash: 97.75,
        counted_cash: 95.5,
        discrepancy: -2.25,
      }),
    ]);
    expect(rowsOf(res.body, busy)).toEqual([
      expect.objectContaining({ sales_count: 1, cash_sales: 1.94, drawer_figures: true, session_cash_sales: 1.94, expected_cash: 51.94, discrepancy: 0.5 }),
    ]);
    expect(fig(res.body, 'discrepancy')).toBe(-1.75);
    expect(fig(res.body, 'expected_cash')).toBe(149.69);
    expect(fig(res.body, 'counted_cash')).toBe(147.94);
    expect(fig(res.body, 'sessions')).toBe(2);
    expect(fig(res.body, 'sessions_closed')).toBe(2);
    const perDay = res.body.data.charts.find((c: { title: string }) => c.title.startsWith('Cash discrepancy'));
    expect(perDay.series[0].data.find((p: { x: string }) => p.x === A).y).toBe(-1.75);
  });

  it('a session across midnight: its sales on each day, its drawer once, on the day it closed', async () => {
    const both = await closeout(beforeB, B);
    const mine = rowsOf(both.body, overnight);
    // Each row's figures may be added up: the drawer counts once (it was on both days' rows: +2.00).
    expect(mine.map((r) => r.discrepancy)).toEqual([null, 1]);
    expect(mine.map((r) => [r.date, r.sales_count, r.drawer_figures])).toEqual([
      [beforeB, 1, false],
      [B, 1, true],
    ]);
    expect(mine[0]).toMatchObject({ total: 1.94, cash_sales: 1.94, opening_balance: null, expected_cash: null, counted_cash: null, discrepancy: null });
    expect(mine[1]).toMatchObject({
      total: 2.63,
      cash_sales: 2.63,
      opening_balance: 100,
      session_cash_sales: 4.57,
      expected_cash: 104.57,
      counted_cash: 105.57,
      discrepancy: 1,
    });
    expect(fig(both.body, 'sessions')).toBe(1);
    expect(fig(both.body, 'sales_count')).toBe(2);
    expect(fig(both.body, 'total')).toBe(4.57);
    expect(fig(both.body, 'expected_cash')).toBe(104.57);
    expect(fig(both.body, 'discrepancy')).toBe(1);

    const dayBefore = await closeout(beforeB);
    expect(rowsOf(dayBefore.body, overnight)).toEqual([expect.objectContaining({ sales_count: 1, drawer_figures: false, discrepancy: null })]);
    expect([fig(dayBefore.body, 'sessions_closed'), fig(dayBefore.body, 'discrepancy')]).toEqual([0, 0]);
    const dayOf = await closeout(B);
    expect(rowsOf(dayOf.body, overnight)).toEqual([expect.objectContaining({ sales_count: 1, drawer_figures: true, discrepancy: 1 })]);
    expect(fig(dayOf.body, 'discrepancy')).toBe(1);
  });

  it('each page holds the same rows as the whole list, takings by payment method included', async () => {
    const range = { store_id: 1, date_from: A, date_to: today };
    const whole = await report(t, all, 'closeout', { ...range, per_page: 1000 });
    expect(whole.status).toBe(200);
    const rows = whole.body.data.rows as Row[];
    expect(rows.filter((r) => Object.keys(r.totals_by_payment_method as object).length > 0).length).toBeGreaterThanOrEqual(3);
    for (let page = 1; page <= rows.length; page++) {
      const one = await report(t, all, 'closeout', { ...range, per_page: 1, page });
      expect(one.body.data.rows).toEqual([rows[page - 1]]);
      expect(one.body.data.summary).toEqual(whole.body.data.summary);
      expect(one.body.data.charts).toEqual(whole.body.data.charts);
    }
    // past the last page: no rows, the same figures
    const past = await report(t, all, 'closeout', { ...range, per_page: 1, page: rows.length + 1 });
    expect([past.status, past.body.data.rows, past.body.data.summary]).toEqual([200, [], whole.body.data.summary]);
  });

  it('a closed drawer without a stored expected cash counts its cash in the summary on every page', async () => {
    const range = { store_id: 1, date_from: A, date_to: today };
    const whole = await report(t, all, 'closeout', { ...range, per_page: 1000 });
    const rows = whole.body.data.rows as Row[];
    const drawer = rows.find((r) => r.drawer_figures && r.session_status === 'closed')!;
    expect(rows.length).toBeGreaterThan(1);
    const [{ expected_cash: stored }] = await t.db.query('SELECT expected_cash FROM cashier_sessions WHERE id = ?', [drawer.session_id]);
    await t.db.query('UPDATE cashier_sessions SET expected_cash = NULL WHERE id = ?', [drawer.session_id]);
    try {
      for (let page = 1; page <= rows.length; page++) {
        const one = await report(t, all, 'closeout', { ...range, per_page: 1, page });
        expect([page, fig(one.body, 'expected_cash')]).toEqual([page, fig(whole.body, 'expected_cash')]);
      }
    } finally {
      await t.db.query('UPDATE cashier_sessions SET expected_cash = ? WHERE id = ?', [stored, drawer.session_id]);
    }
  });

  it('a session still open shows as open on the day it was opened, expected cash so far', async () => {
    const id = await open(manager, 20);
    await api().post(`/api/v1/sessions/${id}/cash-movement`).set(bearer(manager)).send({ type: 'cash_in', amount: 5, reason: 'Change float' }).expect(200);
    const opened = addDays(today, -1);
    await t.db.query('UPDATE cashier_sessions SET opened_at = ? WHERE id = ?', [sql(localTime(opened, '12:00')), id]);
    const res = await closeout(opened);
    expect(rowsOf(res.body, id)).toEqual([
      expect.objectContaining({
        session_status: 'open',
        drawer_figures: true,
        opening_balance: 20,
        cash_in: 5,
        expected_cash: 25,
        counted_cash: null,
        discrepancy: null,
      }),
    ]);
    expect(fig(res.body, 'sessions_closed')).toBe(0);
  });
});
