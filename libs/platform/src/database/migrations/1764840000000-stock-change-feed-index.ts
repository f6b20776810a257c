import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * Change mode of the inventory feed (issue 26): stock levels in (updated_at, id) order after a
 * position, up to the horizon. stock_levels.updated_at exists (NOT NULL) and is stamped on every
 * stock move, adjustment and reorder-level change; this adds the index the read ranges over.
 * stores and warehouses are a handful of rows each: their change reads need no index.
 */
export class StockChangeFeedIndex1764840000000 implements MigrationInterface {
  name = 'StockChangeFeedIndex1764840000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createIndex('stock_levels', new TableIndex({ name: 'IDX_stock_levels_changes', columnNames: ['updated_at', 'id'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('stock_levels', 'IDX_stock_levels_changes');
  }
}
