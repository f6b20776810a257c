import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * replica_heartbeat: one row whose `beat_at` every process with read replicas configured sets to
 * the primary's UTC clock each second (read-replicas.ts). A replica's copy of the row says how far
 * its data has caught up: its lag is its own UTC clock less `beat_at` (the servers' clocks agree:
 * NTP). Created on SQLite too, so both histories match (the embedded database has no replica).
 */
export class ReplicaHeartbeat1764710000000 implements MigrationInterface {
  name = 'ReplicaHeartbeat1764710000000';

  async up(q: QueryRunner): Promise<void> {
    const mysql = q.connection.options.type === 'mysql';
    await q.createTable(
      new Table({
        name: 'replica_heartbeat',
        columns: [
          { name: 'id', type: 'int', isPrimary: true },
          { name: 'beat_at', type: 'datetime', isNullable: false, ...(mysql ? { precision: 6 } : {}) },
        ],
      }),
    );
    await q.query(
      mysql
        ? 'INSERT INTO replica_heartbeat (id, beat_at) VALUES (1, UTC_TIMESTAMP(6))'
        : "INSERT INTO replica_heartbeat (id, beat_at) VALUES (1, datetime('now'))",
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('replica_heartbeat');
  }
}
