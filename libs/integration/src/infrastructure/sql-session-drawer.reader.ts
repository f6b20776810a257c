import { Injectable } from '@nestjs/common';
import { TxRepository } from '@pos/platform';
import { utcDate } from '@pos/platform/database/columns';
import { SessionDrawer, SessionDrawerReader, StoreWindow } from '../application/session-drawer.reader';

const SESSION_COLUMNS = 'id, store_id, user_id, status, opened_at, closed_at, opening_balance, closing_balance, expected_cash, discrepancy';

/**
 * Reads the sessions context's `cashier_sessions` and `cash_movements` tables, read only: one
 * statement for the sessions (a store's window uses its (store_id, opened_at) index: a session
 * closed in the window was opened before its end) and one grouped sum of their movements.
 */
@Injectable()
export class SqlSessionDrawerReader extends TxRepository implements SessionDrawerReader {
  async inWindows(windows: StoreWindow[]): Promise<SessionDrawer[]> {
    if (!windows.length) return [];
    const params: unknown[] = [];
    const match = windows.map((w) => {
      const [from, to] = [this.date(w.from), this.date(w.to)];
      params.push(w.storeId, to, from, to, from);
      return "(store_id = ? AND opened_at < ? AND ((closed_at >= ? AND closed_at < ?) OR (status <> 'closed' AND opened_at >= ?)))";
    });
    return this.withMovements(await this.em.query(`SELECT ${SESSION_COLUMNS} FROM cashier_sessions WHERE ${match.join(' OR ')}`, params));
  }

  async byIds(ids: number[]): Promise<SessionDrawer[]> {
    const unique = [...new Set(ids)];
    const rows: Record<string, unknown>[] = [];
    for (let i = 0; i < unique.length; i += 1000) {
      const part = unique.slice(i, i + 1000);
      rows.push(...((await this.em.query(`SELECT ${SESSION_COLUMNS} FROM cashier_sessions WHERE id IN (${part.map(() => '?').join(', ')})`, part)) as []));
    }
    return this.withMovements(rows);
  }

  private async withMovements(rows: Record<string, unknown>[]): Promise<SessionDrawer[]> {
    const moved = new Map<number, { cashIn: number; cashOut: number }>();
    const ids = rows.map((r) => Number(r.id));
    for (let i = 0; i < ids.length; i += 1000) {
      const part = ids.slice(i, i + 1000);
      const sums = (await this.em.query(
        `SELECT session_id, type, SUM(amount) AS amount FROM cash_movements WHERE session_id IN (${part.map(() => '?').join(', ')}) GROUP BY session_id, type`,
        part,
      )) as { session_id: number | string; type: string; amount: number | string }[];
      for (const s of sums) {
        const m = moved.get(Number(s.session_id)) ?? { cashIn: 0, cashOut: 0 };
        if (s.type === 'cash_in') m.cashIn += Number(s.amount);
        else if (s.type === 'cash_out') m.cashOut += Number(s.amount);
        moved.set(Number(s.session_id), m);
      }
    }
    const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    return rows.map((r) => ({
      sessionId: Number(r.id),
      storeId: Number(r.store_id),
      userId: Number(r.user_id),
      status: String(r.status),
      openedAt: utcDate.from(r.opened_at) as Date,
      closedAt: (utcDate.from(r.closed_at) as Date | null) ?? null,
      openingBalance: Number(r.opening_balance),
      cashIn: moved.get(Number(r.id))?.cashIn ?? 0,
      cashOut: moved.get(Number(r.id))?.cashOut ?? 0,
      expectedCash: num(r.expected_cash),
      countedCash: num(r.closing_balance),
      discrepancy: num(r.discrepancy),
    }));
  }

  /** Datetimes as the drivers store them (UTC text on SQLite). */
  private date(d: Date): Date | string {
    return this.isSqlite ? d.toISOString().replace('T', ' ').replace('Z', '') : d;
  }
}
