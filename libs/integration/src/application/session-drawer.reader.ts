/**
 * A cashier session's drawer as closeout shows it, in minor units of its store's currency:
 * the session's own record (opening float, and once closed the counted cash, the expected cash
 * stored at close and the discrepancy) with its cash movements summed.
 */
export interface SessionDrawer {
  sessionId: number;
  storeId: number;
  userId: number;
  status: string;
  openedAt: Date;
  closedAt: Date | null;
  openingBalance: number;
  cashIn: number;
  cashOut: number;
  expectedCash: number | null;
  countedCash: number | null;
  discrepancy: number | null;
}

/** A store's business days as instants: [from, to). */
export interface StoreWindow {
  storeId: number;
  from: Date;
  to: Date;
}

/**
 * The cashier sessions closeout reports. Closeout must list every drawer counted in a period,
 * including sessions that never sold (opened, paid out, closed short), which no sales fact and so
 * no rollup knows of; the sessions context publishes cash figures only by session id. So reports
 * read them through this narrow port of their own, read only (like NameDirectory), bound to the
 * `cashier_sessions` and `cash_movements` tables.
 */
export abstract class SessionDrawerReader {
  /** Sessions of each store closed within its window, and those still open or suspended that were opened within it. */
  abstract inWindows(windows: StoreWindow[]): Promise<SessionDrawer[]>;
  /** These sessions, whatever their state (sessions whose sales are in a period they did not close in). */
  abstract byIds(ids: number[]): Promise<SessionDrawer[]>;
}
