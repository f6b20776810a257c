import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col, fk } from '../columns';

/** Pricing rules, bundles, exchange rates and bulk price jobs. */
export class Pricing1763700200000 implements MigrationInterface {
  name = 'Pricing1763700200000';

  async up(q: QueryRunner): Promise<void> {
    const tables = [
      new Table({
        name: 'pricing_rules',
        columns: [
          col.id(),
          col.string('name'),
          col.text('description'),
          col.string('kind', 32),
          col.int('priority', { default: 0 }),
          col.bool('is_exclusive', false),
          col.bool('is_active', true),
          col.int('value', { isNullable: true }),
          col.text('tiers'),
          col.int('buy_quantity', { isNullable: true }),
          col.int('get_quantity', { isNullable: true }),
          col.int('get_percent_off_bp', { isNullable: true }),
          col.text('conditions', false),
          col.datetime('valid_from'),
          col.datetime('valid_to'),
          ...col.timestamps(),
          col.softDelete(),
        ],
        indices: [{ columnNames: ['is_active', 'priority'] }, { columnNames: ['updated_at'] }],
      }),
      new Table({
        name: 'pricing_rule_targets',
        columns: [col.id(), col.ref('pricing_rule_id'), col.string('target_type', 16), col.ref('target_id')],
        foreignKeys: [fk('pricing_rule_id', 'pricing_rules', 'CASCADE')],
        indices: [{ columnNames: ['target_type', 'target_id'] }, { columnNames: ['pricing_rule_id'] }],
      }),
      new Table({
        name: 'bundles',
        columns: [
          col.id(),
          col.string('name'),
          col.string('code', 32, { isUnique: true }),
          col.text('description'),
          col.money('price'),
          col.bool('is_active', true),
          col.text('store_ids'),
          col.datetime('valid_from'),
          col.datetime('valid_to'),
          ...col.timestamps(),
          col.softDelete(),
        ],
        indices: [{ columnNames: ['updated_at'] }],
      }),
      new Table({
        name: 'bundle_items',
        columns: [col.id(), col.ref('bundle_id'), col.ref('item_id'), col.int('quantity')],
        foreignKeys: [fk('bundle_id', 'bundles', 'CASCADE'), fk('item_id', 'items')],
        indices: [{ columnNames: ['bundle_id', 'item_id'], isUnique: true }, { columnNames: ['item_id'] }],
      }),
      new Table({
        name: 'exchange_rates',
        columns: [
          col.id(),
          col.string('currency_code', 3),
          // units of this currency per 1 unit of the base currency, scaled by 10^8
          col.money('rate_e8'),
          col.datetime('effective_at', false),
          col.datetime('created_at', false),
        ],
        indices: [{ columnNames: ['currency_code', 'effective_at'] }],
      }),
      new Table({
        name: 'bulk_price_jobs',
        columns: [
          col.id(),
          col.string('job_key', 64, { isUnique: true }),
          col.ref('user_id', true),
          col.string('status', 16),
          col.int('total'),
          col.int('processed', { default: 0 }),
          col.int('failed', { default: 0 }),
          { name: 'payload', type: 'longtext', isNullable: false },
          col.text('result'),
          col.datetime('started_at'),
          col.datetime('finished_at'),
          ...col.timestamps(),
        ],
      }),
    ];
    for (const t of tables) await q.createTable(t);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['bulk_price_jobs', 'exchange_rates', 'bundle_items', 'bundles', 'pricing_rule_targets', 'pricing_rules']) await q.dropTable(t);
  }
}
