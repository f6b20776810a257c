import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * Change mode of the integration feeds (issue 26): pages in (updated_at, id) order after a
 * position, up to the horizon. Every table already carries updated_at (NOT NULL since it was
 * created, stamped on every change partners care about) and sales synced_at, so nothing is added
 * or backfilled: this adds the indexes the reads range over.
 *
 * - sales: (updated_at, id) for an application that sees every store, and (store_id, updated_at,
 *   id) for the usual one limited to a store or asking store_id (one range per store instead of a
 *   walk of every store's changes).
 * - invoices, sale_returns: (updated_at, id); their feeds are read by stores too, but far less
 *   often written than sales, so one index.
 * - customers, items: their index on (updated_at) serves already (InnoDB and SQLite index entries
 *   end with the row id).
 */
const INDEXES: [table: string, name: string, columns: string[]][] = [
  ['sales', 'IDX_sales_changes', ['updated_at', 'id']],
  ['sales', 'IDX_sales_store_changes', ['store_id', 'updated_at', 'id']],
  ['invoices', 'IDX_invoices_changes', ['updated_at', 'id']],
  ['sale_returns', 'IDX_sale_returns_changes', ['updated_at', 'id']],
];

export class ChangeFeedIndexes1764800000000 implements MigrationInterface {
  name = 'ChangeFeedIndexes1764800000000';

  async up(q: QueryRunner): Promise<void> {
    for (const [table, name, columnNames] of INDEXES) await q.createIndex(table, new TableIndex({ name, columnNames }));
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [table, name] of [...INDEXES].reverse()) await q.dropIndex(table, name);
  }
}
