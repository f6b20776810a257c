import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col } from '../columns';

/** audit_log: the append-only trail of sensitive actions (who, when, store, action, target, before/after, request id). */
export class AuditLog1763860000000 implements MigrationInterface {
  name = 'AuditLog1763860000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'audit_log',
        columns: [
          col.id(),
          col.string('action', 64),
          col.ref('actor_id', true),
          col.string('actor_name', 255, { isNullable: true }),
          col.ref('store_id', true),
          col.string('target_type', 64),
          col.string('target_id', 64),
          col.text('before'),
          col.text('after'),
          col.string('request_id', 128, { isNullable: true }),
          col.datetime('created_at', false),
        ],
        indices: [
          { columnNames: ['created_at'] },
          { columnNames: ['store_id', 'created_at'] },
          { columnNames: ['actor_id', 'created_at'] },
          { columnNames: ['action', 'created_at'] },
          { columnNames: ['target_type', 'target_id'] },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('audit_log');
  }
}
