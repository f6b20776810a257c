import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { col } from '../columns';

/** users.approval_failures / approval_locked_until: discount approvers are locked out after repeated failed verifications. */
export class ApproverLockout1763800200000 implements MigrationInterface {
  name = 'ApproverLockout1763800200000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumns('users', [new TableColumn(col.int('approval_failures', { default: 0 })), new TableColumn(col.datetime('approval_locked_until'))]);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('users', 'approval_locked_until');
    await q.dropColumn('users', 'approval_failures');
  }
}
