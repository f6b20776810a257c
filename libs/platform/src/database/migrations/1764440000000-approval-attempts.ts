import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col } from '../columns';

/**
 * approval_attempts: failed discount-approval verifications counted per requesting cashier
 * (issue 23, item 8). One row per (cashier, approver): approver_id 0 is the cashier's own budget
 * across approvers, any other the lock of that approver for that cashier. Each attempt takes a
 * slot with one conditional UPDATE of its row, so concurrent failures all count. The window's end
 * is epoch milliseconds: an integer compares the same way on both databases.
 * users.approval_failures / approval_locked_until (1763800200000) are no longer read or written;
 * they stay in place (dropping a column rebuilds the users table on SQLite).
 */
export class ApprovalAttempts1764440000000 implements MigrationInterface {
  name = 'ApprovalAttempts1764440000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'approval_attempts',
        columns: [
          col.int('cashier_id', { isPrimary: true }),
          col.int('approver_id', { isPrimary: true }),
          col.int('failures', { default: 0 }),
          { name: 'window_end_ms', type: 'bigint', isNullable: true },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('approval_attempts');
  }
}
