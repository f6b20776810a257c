import { MigrationInterface, QueryRunner } from 'typeorm';

const TABLES = ['items', 'customers', 'pricing_rules'];

/**
 * `version` on the records a back office edits (issue 26 item 4): 1 for every existing row, +1 on
 * each write of the row, so a PUT can say which version it was based on (If-Match) and lose with
 * 412 instead of overwriting an edit it never saw. A plain ADD COLUMN with a default on both
 * databases: TypeORM's addColumn rebuilds a SQLite table (a copy of every row and its indexes,
 * items' expression index on lower(sku) among them), which this one column does not need.
 */
export class RecordVersions1764820000000 implements MigrationInterface {
  name = 'RecordVersions1764820000000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of TABLES) await q.query(`ALTER TABLE ${table} ADD COLUMN version INTEGER NOT NULL DEFAULT 1`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of TABLES) await q.query(`ALTER TABLE ${table} DROP COLUMN version`);
  }
}
