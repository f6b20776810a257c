import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * The bulk price job sweeper (libs/pricing, every BULK_JOB_SWEEP_INTERVAL_MS in the worker) looks
 * for `queued` and stale `running` rows by status and age: an index on both, so the sweep stays a
 * range read however many finished jobs the table keeps.
 */
export class BulkJobSweepIndex1763880000000 implements MigrationInterface {
  name = 'BulkJobSweepIndex1763880000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createIndex('bulk_price_jobs', new TableIndex({ name: 'IDX_bulk_price_jobs_status_updated', columnNames: ['status', 'updated_at'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('bulk_price_jobs', 'IDX_bulk_price_jobs_status_updated');
  }
}
