import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * The tax rollup keeps the lines of tax-exempt sales in a row of their own (exempt = 1, rate_bp
 * 0) instead of inside the row of the rate they would have had (issue 23: the 2% row showed an
 * effective 1%, and taxable sales counted exempt sales). `exempt` joins the primary key; rows
 * written before it stay where they are (exempt 0) until `npm run reports:rebuild` recomputes
 * the rollups from the sales (README "Integration reports").
 */
export class TaxRollupExemptRow1764200000000 implements MigrationInterface {
  name = 'TaxRollupExemptRow1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('rpt_tax', new TableColumn({ name: 'exempt', type: 'integer', isPrimary: true, isNullable: false, default: 0 }));
  }

  async down(q: QueryRunner): Promise<void> {
    // Exempt rows would collide with their rate's row once the key loses `exempt`.
    await q.query('DELETE FROM rpt_tax WHERE exempt = 1');
    await q.dropColumn('rpt_tax', 'exempt');
  }
}
