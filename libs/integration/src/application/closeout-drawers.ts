import { EpochDay, ZoneCalendar } from '../domain/calendar';
import { drawerDay, expectedDrawerCash } from '../domain/closeout';
import { ReportKit } from './report-kit';
import { ReportScope } from './report-scope';
import { SessionDrawer, SessionDrawerReader, SessionRecord } from './session-drawer.reader';

/** A session's drawer in the period: its record and the day its figures are on. */
export interface DrawerRecord {
  s: SessionRecord;
  day: EpochDay;
  currency: string;
}

/** A drawer with its whole cash: the session's movements and tenders over every day it traded. */
export interface Drawer extends DrawerRecord {
  s: SessionDrawer;
  cashSales: number;
  cashRefunds: number;
  changeGiven: number;
  expected: number;
}

/**
 * Every session of the scope's stores closed in the period, or still open and opened in it: the
 * records only. What the summary and charts add up of a drawer (expected cash stored at the close,
 * counted cash, discrepancy) is on the record; its cash is read for the drawers a page shows.
 */
export async function drawersIn(scope: ReportScope, sessions: SessionDrawerReader): Promise<Map<number, DrawerRecord>> {
  const calendars = new Map(scope.stores.map((s) => [s.id, ZoneCalendar.of(s.timeZone)]));
  const currencyOf = new Map(scope.stores.map((s) => [s.id, s.currencyCode]));
  const found = await sessions.inWindows(
    scope.stores.map((s) => ({
      storeId: s.id,
      from: calendars.get(s.id)!.startOf(scope.period.from),
      to: calendars.get(s.id)!.startOf(scope.period.to + 1),
    })),
  );
  const out = new Map<number, DrawerRecord>();
  for (const s of found) {
    out.set(s.sessionId, { s, day: drawerDay(s, (at) => calendars.get(s.storeId)!.dayOf(at)), currency: currencyOf.get(s.storeId) ?? '' });
  }
  return out;
}

/**
 * These drawers with their whole cash (read from the sessions' movements and tenders, not the
 * period's rollups: a drawer's cash is the session's, whichever days its sales fell on), by session.
 */
export async function withCash(kit: ReportKit, sessions: SessionDrawerReader, drawers: DrawerRecord[]): Promise<Map<number, Drawer>> {
  const ids = drawers.map((d) => d.s.sessionId);
  const [moved, tenders] = await Promise.all([sessions.cashMoved(ids), kit.rollups.sessionTenders(ids)]);
  const cash = new Map<number, { sales: number; refunds: number; change: number }>();
  for (const t of tenders) {
    if (t.methodType !== 'cash') continue;
    const c = cash.get(t.sessionId) ?? { sales: 0, refunds: 0, change: 0 };
    c.sales += t.amount;
    c.refunds += t.refunded;
    c.change += t.changeGiven;
    cash.set(t.sessionId, c);
  }
  const out = new Map<number, Drawer>();
  for (const d of drawers) {
    const s: SessionDrawer = { ...d.s, cashIn: moved.get(d.s.sessionId)?.cashIn ?? 0, cashOut: moved.get(d.s.sessionId)?.cashOut ?? 0 };
    const c = cash.get(s.sessionId) ?? { sales: 0, refunds: 0, change: 0 };
    // Closed: the expected cash stored at close; still open: what the drawer should hold now.
    const expected = s.expectedCash ?? expectedDrawerCash(s, c.sales, c.refunds);
    out.set(s.sessionId, { ...d, s, cashSales: c.sales, cashRefunds: c.refunds, changeGiven: c.change, expected });
  }
  return out;
}
