import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { col } from '../columns';

/**
 * sales.voided_after_close: the sale was voided after its cashier session had closed. A closed
 * session's drawer was counted with that sale's cash in it, so its figures keep the sale (issue
 * 23, found by the invariant suite: a later void rewrote a counted drawer's expected cash). Times
 * cannot tell it (MySQL keeps whole seconds; a close and a void can share one): the void records it.
 */
export class SaleVoidedAfterClose1764610000000 implements MigrationInterface {
  name = 'SaleVoidedAfterClose1764610000000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('sales', new TableColumn(col.bool('voided_after_close')));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('sales', 'voided_after_close');
  }
}
