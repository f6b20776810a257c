import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { col } from '../columns';

/**
 * Closeout shows each cashier session's drawer with the change it handed back (issue 23 item 4):
 * the session payment rollup keeps `change_given` per day, session and method, as rpt_payments
 * does per store. Rows written before it hold 0 until `npm run reports:rebuild`.
 */
export class SessionPaymentsChange1764220000000 implements MigrationInterface {
  name = 'SessionPaymentsChange1764220000000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('rpt_session_payments', new TableColumn(col.money('change_given')));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('rpt_session_payments', 'change_given');
  }
}
