import { Injectable } from '@nestjs/common';
import { TxRepository } from '@pos/platform';
import { decodeEntries, encodeEntries, JournalEntry } from '../domain/rollup-journal';
import { JournalRow, RollupJournalStore } from '../application/rollup.ports';

/** rpt_journal (one row per transaction, its entries as JSON) and the appliers' lock row. */
@Injectable()
export class SqlRollupJournal extends TxRepository implements RollupJournalStore {
  async append(entries: JournalEntry[]): Promise<void> {
    if (!entries.length) return;
    await this.em.query('INSERT INTO rpt_journal (entries, created_at) VALUES (?, ?)', [encodeEntries(entries), this.date(new Date())]);
  }

  async lock(): Promise<void> {
    await this.em.query('UPDATE rpt_rollup_state SET applied_at = ? WHERE id = 1', [this.date(new Date())]);
  }

  async pending(limit: number): Promise<JournalRow[]> {
    const rows = (await this.em.query('SELECT id, entries FROM rpt_journal ORDER BY id LIMIT ?', [limit])) as { id: number | string; entries: string }[];
    return rows.map((r) => ({ id: Number(r.id), entries: decodeEntries(r.entries) }));
  }

  async ids(): Promise<number[]> {
    const rows = (await this.em.query('SELECT id FROM rpt_journal ORDER BY id')) as { id: number | string }[];
    return rows.map((r) => Number(r.id));
  }

  async remove(ids: number[]): Promise<void> {
    for (let i = 0; i < ids.length; i += 1000) {
      const part = ids.slice(i, i + 1000);
      await this.em.query(`DELETE FROM rpt_journal WHERE id IN (${part.map(() => '?').join(', ')})`, part);
    }
  }

  async oldestPending(): Promise<Date | null> {
    const rows = (await this.em.query('SELECT created_at FROM rpt_journal ORDER BY id LIMIT 1')) as { created_at: Date | string }[];
    return rows.length ? readDate(rows[0].created_at) : null;
  }

  async holdRebuild(holder: string, until: Date, now: Date): Promise<boolean> {
    await this.em.query(
      'UPDATE rpt_rollup_state SET rebuild_holder = ?, rebuild_until = ? WHERE id = 1 AND (rebuild_holder = ? OR rebuild_holder IS NULL OR rebuild_until IS NULL OR rebuild_until < ?)',
      [holder, this.date(until), holder, this.date(now)],
    );
    const rows = (await this.em.query('SELECT rebuild_holder FROM rpt_rollup_state WHERE id = 1')) as { rebuild_holder: string | null }[];
    return rows[0]?.rebuild_holder === holder;
  }

  async releaseRebuild(holder: string): Promise<void> {
    await this.em.query('UPDATE rpt_rollup_state SET rebuild_holder = NULL, rebuild_until = NULL WHERE id = 1 AND rebuild_holder = ?', [holder]);
  }

  async rebuildRunning(now: Date): Promise<boolean> {
    const rows = (await this.em.query('SELECT rebuild_until FROM rpt_rollup_state WHERE id = 1 AND rebuild_holder IS NOT NULL')) as {
      rebuild_until: Date | string | null;
    }[];
    const until = rows[0]?.rebuild_until;
    return until !== undefined && until !== null && readDate(until) > now;
  }

  /** Datetimes as the drivers store them (UTC text on SQLite). */
  private date(d: Date): Date | string {
    return this.isSqlite ? d.toISOString().replace('T', ' ').replace('Z', '') : d;
  }
}

/** A datetime as the drivers read it back (a Date on MySQL, UTC text on SQLite). */
function readDate(at: Date | string): Date {
  return at instanceof Date ? at : new Date(String(at).replace(' ', 'T') + 'Z');
}
