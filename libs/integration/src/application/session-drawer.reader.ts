/**
 * A cashier session's record as closeout reads it, in minor units of its store's currency: the
 * opening float, and once closed the counted cash, the expected cash stored at close and the discrepancy.
 */
export interface SessionRecord {
  sessionId: number;
  storeId: number;
  userId: number;
  status: string;
  openedAt: Date;
  closedAt: Date | null;
  openingBalance: number;
  expectedCash: number | null;
  countedCash: number | null;
  discrepancy: number | null;
}

/** A session's cash movements summed. */
export interface CashMoved {
  cashIn: number;
  cashOut: number;
}

/** A session's drawer as a closeout row shows it: its record with its cash movements summed. */
export type SessionDrawer = SessionRecord & CashMoved;

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
  /** Sessions of each store closed within its window, and those still open or suspended that were opened within it: their records. */
  abstract inWindows(windows: StoreWindow[]): Promise<SessionRecord[]>;
  /** These sessions, whatever their state (sessions on a page of rows whose drawer is not in the period). */
  abstract byIds(ids: number[]): Promise<SessionRecord[]>;
  /** These sessions' cash movements summed, by session (none moved: absent). */
  abstract cashMoved(ids: number[]): Promise<Map<number, CashMoved>>;
}
