import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col } from '../columns';

/**
 * Report rollups kept from a journal (libs/integration): a sale, void, return or stock movement
 * appends its facts to rpt_journal in its own transaction (one row per transaction), and the
 * rollup applier (a periodic task of the worker, or of the API process on the embedded default)
 * adds them to the rollup tables a moment later, serialised by the lock row of rpt_rollup_state.
 */
export class RollupJournal1763920000000 implements MigrationInterface {
  name = 'RollupJournal1763920000000';

  async up(q: QueryRunner): Promise<void> {
    const mysql = q.connection.options.type === 'mysql';
    await q.createTable(
      new Table({
        name: 'rpt_journal',
        columns: [col.id(), { name: 'entries', type: mysql ? 'mediumtext' : 'text', isNullable: false }, col.datetime('created_at', false)],
      }),
    );
    await q.createTable(new Table({ name: 'rpt_rollup_state', columns: [{ name: 'id', type: 'integer', isPrimary: true }, col.datetime('applied_at', true)] }));
    await q.query('INSERT INTO rpt_rollup_state (id, applied_at) VALUES (1, NULL)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('rpt_rollup_state');
    await q.dropTable('rpt_journal');
  }
}
