import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col, fk } from '../columns';

/** Cashier sessions and cash movements, sales with lines and payments, invoices, idempotency. */
export class Sales1763700300000 implements MigrationInterface {
  name = 'Sales1763700300000';

  async up(q: QueryRunner): Promise<void> {
    const tables = [
      new Table({
        name: 'cashier_sessions',
        columns: [
          col.id(),
          col.ref('user_id'),
          col.ref('store_id'),
          col.ref('cash_register_id', true),
          col.string('status', 16),
          // "user:store" while open or suspended, NULL once closed: the unique index allows one
          // live session per user and store (NULLs never collide, on MySQL and SQLite alike).
          col.string('live_key', 64, { isNullable: true }),
          col.money('opening_balance'),
          col.money('closing_balance', { isNullable: true, default: undefined }),
          col.money('expected_cash', { isNullable: true, default: undefined }),
          col.money('discrepancy', { isNullable: true, default: undefined }),
          col.text('notes'),
          col.text('discrepancy_notes'),
          col.datetime('opened_at', false),
          col.datetime('suspended_at'),
          col.datetime('closed_at'),
          ...col.timestamps(),
        ],
        foreignKeys: [fk('user_id', 'users'), fk('store_id', 'stores')],
        indices: [
          { columnNames: ['live_key'], isUnique: true },
          { columnNames: ['store_id', 'opened_at'] },
          { columnNames: ['user_id', 'store_id', 'status'] },
        ],
      }),
      new Table({
        name: 'cash_movements',
        columns: [
          col.id(),
          col.ref('session_id'),
          col.string('type', 16),
          col.money('amount'),
          col.string('reason'),
          col.text('notes'),
          col.string('reference', 128, { isNullable: true }),
          col.ref('user_id'),
          col.datetime('created_at', false),
        ],
        foreignKeys: [fk('session_id', 'cashier_sessions', 'CASCADE')],
        indices: [{ columnNames: ['session_id'] }],
      }),
    ];
    for (const t of tables) await q.createTable(t);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['cash_movements', 'cashier_sessions']) await q.dropTable(t);
  }
}
