import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { col } from '../columns';

/**
 * rpt_rollup_state.rebuild_holder / rebuild_until: a running `reports:rebuild` holds the rollups
 * (issue 24 item 8). It now commits in chunks rather than in one transaction over every rollup
 * row, so the applier must stay out until it is done: it skips its runs while the lease is held,
 * and resumes by itself when a rebuild that died stops renewing it.
 */
export class RollupRebuildLease1764730000000 implements MigrationInterface {
  name = 'RollupRebuildLease1764730000000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('rpt_rollup_state', new TableColumn(col.string('rebuild_holder', 100, { isNullable: true })));
    await q.addColumn('rpt_rollup_state', new TableColumn(col.datetime('rebuild_until')));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('rpt_rollup_state', 'rebuild_until');
    await q.dropColumn('rpt_rollup_state', 'rebuild_holder');
  }
}
