import type { EpochDay } from './calendar';

/**
 * Closeout's two kinds of figures and the day each belongs to. Sales figures (sales, tax,
 * discounts, refunds, money taken by method) belong to the business day they happened on, so a
 * session that spans midnight has sales on two days. A drawer's figures (opening float, cash
 * movements, cash sales and refunds of the whole session, expected and counted cash, discrepancy)
 * belong to one day only: the business day the session closed, in its store's time zone (a
 * session still open: the day it was opened). Summing each kind over its own days counts every
 * sale and every drawer once.
 */
export interface DrawerCash {
  openingBalance: number;
  cashIn: number;
  cashOut: number;
}

/** D3: expected cash = opening float + cash in - cash out + cash sales (net of change) - cash refunds. */
export function expectedDrawerCash(d: DrawerCash, cashSales: number, cashRefunds: number): number {
  return d.openingBalance + d.cashIn - d.cashOut + cashSales - cashRefunds;
}

/** The business day a drawer's figures belong to: its closing day, else (still open) its opening day. */
export function drawerDay(s: { openedAt: Date; closedAt: Date | null }, dayOf: (at: Date) => EpochDay): EpochDay {
  return dayOf(s.closedAt ?? s.openedAt);
}
