import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/**
 * Sales feeds at scale (libs/sales):
 * - sale_day_counts: sales per UTC day, store, warehouse (0: lines from several) and status, kept
 *   in the transactions that insert a sale or change its status, so a feed's meta.total is exact
 *   without counting a million rows, and a deep page starts at the right day; filled here from the
 *   sales already recorded;
 * - an index covering the open invoices (status first), read by the receivables reports.
 */
export class SaleDayCounts1763820100000 implements MigrationInterface {
  name = 'SaleDayCounts1763820100000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'sale_day_counts',
        columns: [
          { name: 'day', type: 'integer', isPrimary: true },
          { name: 'store_id', type: 'integer', isPrimary: true },
          { name: 'warehouse_id', type: 'integer', isPrimary: true },
          { name: 'status', type: 'varchar', length: '20', isPrimary: true },
          { name: 'n', type: 'integer', default: 0 },
        ],
      }),
    );
    const day = q.connection.options.type === 'mysql' ? "DATEDIFF(created_at, '1970-01-01')" : 'CAST(julianday(created_at) - 2440587.5 AS INTEGER)';
    await q.query(
      `INSERT INTO sale_day_counts (day, store_id, warehouse_id, status, n) SELECT ${day}, store_id, COALESCE(warehouse_id, 0), status, COUNT(*) FROM sales GROUP BY ${day}, store_id, COALESCE(warehouse_id, 0), status`,
    );
    await q.createIndex(
      'invoices',
      new TableIndex({ name: 'IDX_invoices_open', columnNames: ['status', 'store_id', 'issued_at', 'due_at', 'customer_id', 'balance', 'amount'] }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('invoices', 'IDX_invoices_open');
    await q.dropTable('sale_day_counts');
  }
}
