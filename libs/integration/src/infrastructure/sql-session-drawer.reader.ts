import { Injectable } from '@nestjs/common';
import { TxRepository } from '@pos/platform';
import { utcDate } from '@pos/platform/database/columns';
import { CashMoved, SessionDrawerReader, SessionRecord, StoreWindow } from '../application/session-drawer.reader';

const SESSION_COLUMNS = 'id, store_id, user_id, status, opened_at, closed_at, opening_balance, closing_balance, expected_cash, discrepancy';

/**
 * Reads the sessions context's `cashier_sessions` and `cash_movements` tables, read only: one
 * statement for the sessions of a period (by the (store_id, closed_at) and (status, store_id,
 * opened_at) indexes), and one grouped sum of movements (by session id).
 */
@Injectable()
export class SqlSessionDrawerReader extends TxRepository implements SessionDrawerReader {
  async inWindows(windows: StoreWindow[]): Promise<SessionRecord[]> {
    if (!windows.length) return [];
    const params = windows.flatMap((w) => [w.storeId, this.date(w.from), this.date(w.to)]);
    // closed in the window (a session closed in it was opened before its end), or not closed and opened in it: each by its own index
    const rows = (await this.em.query(
      `SELECT ${SESSION_COLUMNS} FROM cashier_sessions WHERE ${windows.map(() => '(store_id = ? AND closed_at >= ? AND closed_at < ?)').join(' OR ')} ` +
        `UNION SELECT ${SESSION_COLUMNS} FROM cashier_sessions WHERE status <> 'closed' AND (${windows.map(() => '(store_id = ? AND opened_at >= ? AND opened_at < ?)').join(' OR ')})`,
      [...params, ...params],
    )) as Record<string, unknown>[];
    return rows.map((r) => this.record(r));
  }

  async byIds(ids: number[]): Promise<SessionRecord[]> {
    const unique = [...new Set(ids)];
    const rows: Record<string, unknown>[] = [];
    for (let i = 0; i < unique.length; i += 1000) {
      const part = unique.slice(i, i + 1000);
      rows.push(...((await this.em.query(`SELECT ${SESSION_COLUMNS} FROM cashier_sessions WHERE id IN (${part.map(() => '?').join(', ')})`, part)) as []));
    }
    return rows.map((r) => this.record(r));
  }

  async cashMoved(ids: number[]): Promise<Map<number, CashMoved>> {
    const moved = new Map<number, CashMoved>();
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
    return moved;
  }

  private record(r: Record<string, unknown>): SessionRecord {
    const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    return {
      sessionId: Number(r.id),
      storeId: Number(r.store_id),
      userId: Number(r.user_id),
      status: String(r.status),
      openedAt: utcDate.from(r.opened_at) as Date,
      closedAt: (utcDate.from(r.closed_at) as Date | null) ?? null,
      openingBalance: Number(r.opening_balance),
      expectedCash: num(r.expected_cash),
      countedCash: num(r.closing_balance),
      discrepancy: num(r.discrepancy),
    };
  }

  /** Datetimes as the drivers store them (UTC text on SQLite). */
  private date(d: Date): Date | string {
    return this.isSqlite ? d.toISOString().replace('T', ' ').replace('Z', '') : d;
  }
}
