import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { col } from '../columns';

/** sales.synced_at: when an offline sale reached the server (its created_at is when it happened, offline_created_at). */
export class SaleSyncedAt1763830000000 implements MigrationInterface {
  name = 'SaleSyncedAt1763830000000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('sales', new TableColumn(col.datetime('synced_at')));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('sales', 'synced_at');
  }
}
