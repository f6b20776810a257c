import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * Three indexes for closeout's drawers (issue 29):
 * - `cashier_sessions (store_id, closed_at)` and `(status, store_id, opened_at)`: the sessions a
 *   store closed in a period, and those still open that it opened in it, are read by range. Before,
 *   the only index led with opening time, so "closed in the period" read every session the store
 *   ever had (3,285 rows a year at a million sales, and growing by the year).
 * - `rpt_session_payments (session_id, method_type, amount, change_given, refund_amount)` in place
 *   of `(session_id)`: a page of drawers' cash (its sessions' tenders over every day they traded)
 *   is summed from the index alone, without a row read for each of the sessions' tenders.
 */
export class CloseoutDrawerIndexes1764880000000 implements MigrationInterface {
  name = 'CloseoutDrawerIndexes1764880000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createIndex('cashier_sessions', new TableIndex({ name: CLOSED, columnNames: ['store_id', 'closed_at'] }));
    await q.createIndex('cashier_sessions', new TableIndex({ name: OPEN, columnNames: ['status', 'store_id', 'opened_at'] }));
    await q.createIndex(
      'rpt_session_payments',
      new TableIndex({ name: TENDERS, columnNames: ['session_id', 'method_type', 'amount', 'change_given', 'refund_amount'] }),
    );
    const plain = await sessionIndex(q);
    if (plain) await q.dropIndex('rpt_session_payments', plain);
  }

  async down(q: QueryRunner): Promise<void> {
    if (!(await sessionIndex(q))) await q.createIndex('rpt_session_payments', new TableIndex({ columnNames: ['session_id'] }));
    await q.dropIndex('rpt_session_payments', TENDERS);
    await q.dropIndex('cashier_sessions', OPEN);
    await q.dropIndex('cashier_sessions', CLOSED);
  }
}

const CLOSED = 'IDX_cashier_sessions_closed';
const OPEN = 'IDX_cashier_sessions_status';
const TENDERS = 'IDX_rpt_session_payments_cash';

/** The table's index on session_id alone (named by TypeORM when the rollups were created). */
async function sessionIndex(q: QueryRunner): Promise<TableIndex | undefined> {
  const table = await q.getTable('rpt_session_payments');
  return table?.indices.find((i) => i.columnNames.length === 1 && i.columnNames[0] === 'session_id');
}
