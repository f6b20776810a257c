import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col } from '../columns';

/**
 * worker_leases: which process runs a periodic singleton (the rollup applier, the outbox relay)
 * when several workers share one database (issue 24). One row per lease name, added on first use;
 * `holder` is host:pid:random, `expires_at` is in the database's UTC clock with microseconds.
 * Created on SQLite too, so both histories match (the embedded database needs no lease).
 */
export class WorkerLeases1764700000000 implements MigrationInterface {
  name = 'WorkerLeases1764700000000';

  async up(q: QueryRunner): Promise<void> {
    const mysql = q.connection.options.type === 'mysql';
    await q.createTable(
      new Table({
        name: 'worker_leases',
        columns: [
          { ...col.string('name', 64), isPrimary: true },
          col.string('holder', 100, { isNullable: true }),
          { ...col.datetime('expires_at', false), ...(mysql ? { precision: 6 } : {}) },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('worker_leases');
  }
}
