import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { col, fk } from '../columns';

/** Stores and warehouses, users, roles, permissions, access tokens, and the event outbox. */
export class IdentityAndStores1763700000000 implements MigrationInterface {
  name = 'IdentityAndStores1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'stores',
        columns: [
          col.id(),
          col.string('name'),
          col.string('code', 32, { isUnique: true }),
          col.text('address'),
          col.string('phone', 50, { isNullable: true }),
          col.string('email', 191, { isNullable: true }),
          col.string('currency_code', 3, { default: "'USD'" }),
          col.string('timezone', 64, { default: "'UTC'" }),
          col.bool('prices_include_tax', false),
          col.bool('allow_negative_stock', false),
          col.ref('default_warehouse_id', true),
          col.text('receipt_header'),
          col.text('receipt_footer'),
          col.bool('is_active', true),
          ...col.timestamps(),
          col.softDelete(),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'warehouses',
        columns: [
          col.id(),
          col.ref('store_id', true),
          col.string('name'),
          col.string('code', 32, { isUnique: true }),
          col.text('address'),
          col.bool('is_active', true),
          ...col.timestamps(),
          col.softDelete(),
        ],
        foreignKeys: [fk('store_id', 'stores')],
        indices: [{ columnNames: ['store_id'] }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'warehouse_stores',
        columns: [col.id(), col.ref('warehouse_id'), col.ref('store_id')],
        foreignKeys: [fk('warehouse_id', 'warehouses', 'CASCADE'), fk('store_id', 'stores', 'CASCADE')],
        indices: [{ columnNames: ['warehouse_id', 'store_id'], isUnique: true }, { columnNames: ['store_id'] }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'roles',
        columns: [
          col.id(),
          col.string('name'),
          col.string('slug', 64, { isUnique: true }),
          col.bool('is_super_admin', false),
          col.int('max_discount_percent_bp', { default: 0 }),
          col.money('max_discount_amount'),
          ...col.timestamps(),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'role_permissions',
        columns: [col.id(), col.ref('role_id'), col.string('permission', 100)],
        foreignKeys: [fk('role_id', 'roles', 'CASCADE')],
        indices: [{ columnNames: ['role_id', 'permission'], isUnique: true }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'users',
        columns: [
          col.id(),
          col.string('name'),
          col.string('email', 191, { isUnique: true }),
          col.string('password_hash', 255, { isNullable: true }),
          col.string('pin_hash', 255, { isNullable: true }),
          col.ref('role_id', true),
          col.ref('default_store_id', true),
          col.bool('is_api_application', false),
          col.bool('is_active', true),
          col.string('two_factor_secret', 255, { isNullable: true }),
          col.datetime('two_factor_confirmed_at'),
          col.int('max_discount_percent_bp', { isNullable: true }),
          col.money('max_discount_amount', { isNullable: true, default: undefined }),
          ...col.timestamps(),
          col.softDelete(),
        ],
        foreignKeys: [fk('role_id', 'roles', 'SET NULL'), fk('default_store_id', 'stores', 'SET NULL')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'user_permissions',
        columns: [col.id(), col.ref('user_id'), col.string('permission', 100)],
        foreignKeys: [fk('user_id', 'users', 'CASCADE')],
        indices: [{ columnNames: ['user_id', 'permission'], isUnique: true }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'user_stores',
        columns: [col.id(), col.ref('user_id'), col.ref('store_id')],
        foreignKeys: [fk('user_id', 'users', 'CASCADE'), fk('store_id', 'stores', 'CASCADE')],
        indices: [{ columnNames: ['user_id', 'store_id'], isUnique: true }, { columnNames: ['store_id'] }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'access_tokens',
        columns: [
          col.id(),
          col.ref('user_id'),
          col.string('name'),
          col.string('token_hash', 64, { isUnique: true }),
          col.text('abilities', false),
          col.ref('store_id', true),
          col.datetime('last_used_at'),
          col.datetime('expires_at'),
          col.datetime('revoked_at'),
          col.datetime('created_at', false),
        ],
        foreignKeys: [fk('user_id', 'users', 'CASCADE')],
        indices: [{ columnNames: ['user_id'] }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'outbox_events',
        columns: [
          col.id(),
          col.string('type', 64),
          col.ref('store_id', true),
          col.text('payload', false),
          col.datetime('created_at', false),
          col.datetime('published_at'),
        ],
      }),
    );
    await q.createIndex('outbox_events', new TableIndex({ columnNames: ['published_at', 'id'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'outbox_events',
      'access_tokens',
      'user_stores',
      'user_permissions',
      'users',
      'role_permissions',
      'roles',
      'warehouse_stores',
      'warehouses',
      'stores',
    ]) {
      await q.dropTable(table);
    }
  }
}
