import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { col } from '../columns';

/** customers.tax_exempt: sales to an exempt customer carry no tax (part of the customer's pricing profile). */
export class CustomerTaxExemption1763800100000 implements MigrationInterface {
  name = 'CustomerTaxExemption1763800100000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('customers', new TableColumn(col.bool('tax_exempt', false)));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('customers', 'tax_exempt');
  }
}
