import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * Closeout's rows of sales made without a drawer (offline, no session open then: session 0) are
 * per cashier, so their tenders must be too: `user_id` joins the session payment rollup's key
 * (issue 23, found by the invariant suite: each cashier's sessionless row showed every cashier's
 * cash). Rows written before it hold user 0 until `npm run reports:rebuild`.
 */
export class SessionPaymentsUser1764600000000 implements MigrationInterface {
  name = 'SessionPaymentsUser1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('rpt_session_payments', new TableColumn({ name: 'user_id', type: 'integer', isPrimary: true, isNullable: false, default: 0 }));
  }

  async down(q: QueryRunner): Promise<void> {
    // Rows of several users would collide once the key loses `user_id`: the rebuild refills them.
    await q.query('DELETE FROM rpt_session_payments');
    await q.dropColumn('rpt_session_payments', 'user_id');
  }
}
