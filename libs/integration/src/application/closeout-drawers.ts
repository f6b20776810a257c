import { EpochDay, ZoneCalendar } from '../domain/calendar';
import { drawerDay, expectedDrawerCash } from '../domain/closeout';
import { ReportKit } from './report-kit';
import { ReportScope } from './report-scope';
import { SessionDrawer, SessionDrawerReader } from './session-drawer.reader';

/** A session's drawer in the period: its record, the day it belongs to, its whole cash. */
export interface Drawer {
  s: SessionDrawer;
  day: EpochDay;
  currency: string;
  cashSales: number;
  cashRefunds: number;
  changeGiven: number;
  expected: number;
}

/**
 * Every session of the scope's stores closed in the period, or still open and opened in it, with
 * its whole cash (read from the sessions' own records and tenders, not the period's rollups: a
 * drawer's cash is the session's, whichever days its sales fell on).
 */
export async function drawersOf(scope: ReportScope, kit: ReportKit, sessions: SessionDrawerReader): Promise<Map<number, Drawer>> {
  const calendars = new Map(scope.stores.map((s) => [s.id, ZoneCalendar.of(s.timeZone)]));
  const currencyOf = new Map(scope.stores.map((s) => [s.id, s.currencyCode]));
  const found = await sessions.inWindows(
    scope.stores.map((s) => ({
      storeId: s.id,
      from: calendars.get(s.id)!.startOf(scope.period.from),
      to: calendars.get(s.id)!.startOf(scope.period.to + 1),
    })),
  );
  const cash = new Map<number, { sales: number; refunds: number; change: number }>();
  for (const t of await kit.rollups.sessionTenders(found.map((s) => s.sessionId))) {
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
