import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { col } from '../columns';

/**
 * pricing_rules.value holds amounts (amount_off, fixed_price) up to 99,999,999.99, i.e. up to
 * 9,999,999,999 minor units: INT overflowed on MySQL (21474836.48 was a 500 there, 201 on
 * SQLite). It becomes the money column type (bigint). users.two_factor_last_step remembers the
 * last accepted TOTP time step so a code cannot be replayed within its step.
 */
export class HardeningMoneyAndTwoFactorStep1763900000000 implements MigrationInterface {
  name = 'HardeningMoneyAndTwoFactorStep1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.changeColumn('pricing_rules', 'value', new TableColumn(col.money('value', { isNullable: true, default: null })));
    await q.addColumn('users', new TableColumn({ name: 'two_factor_last_step', type: 'bigint', isNullable: true }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('users', 'two_factor_last_step');
    await q.changeColumn('pricing_rules', 'value', new TableColumn(col.int('value', { isNullable: true })));
  }
}
