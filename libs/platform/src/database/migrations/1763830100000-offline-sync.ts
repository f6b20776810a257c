import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';
import { col, fk } from '../columns';

/**
 * Offline sync: the devices (a user's terminal in a store, named by its token) with their last
 * syncs and upload counts, and every uploaded transaction's outcome by idempotency key (so a
 * repeat answers `duplicate` with the original result). Plus the indexes the delta feed reads
 * by: stock changed per warehouse since a moment, price-book entries changed since a moment.
 */
export class OfflineSync1763830100000 implements MigrationInterface {
  name = 'OfflineSync1763830100000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'sync_devices',
        columns: [
          col.id(),
          col.ref('user_id'),
          col.ref('store_id'),
          col.string('device_name', 255),
          col.datetime('last_initial_sync_at'),
          col.datetime('last_delta_sync_at'),
          col.datetime('last_upload_at'),
          col.int('accepted_count', { default: 0 }),
          col.int('duplicate_count', { default: 0 }),
          col.int('rejected_count', { default: 0 }),
          ...col.timestamps(),
        ],
        foreignKeys: [fk('user_id', 'users', 'CASCADE'), fk('store_id', 'stores', 'CASCADE')],
        indices: [{ name: 'UQ_sync_devices_user_store_device', columnNames: ['user_id', 'store_id', 'device_name'], isUnique: true }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'sync_transactions',
        columns: [
          col.id(),
          col.string('idempotency_key', 128, { isUnique: true }),
          col.string('fingerprint', 64),
          col.string('type', 32),
          col.string('status', 16),
          col.ref('record_id', true),
          col.string('receipt_number', 32, { isNullable: true }),
          col.text('result'),
          col.text('errors'),
          col.string('message', 500, { isNullable: true }),
          col.ref('device_id'),
          col.ref('user_id'),
          col.ref('store_id'),
          col.datetime('offline_created_at'),
          ...col.timestamps(),
        ],
        foreignKeys: [fk('device_id', 'sync_devices', 'CASCADE')],
        indices: [{ name: 'IDX_sync_transactions_device_status', columnNames: ['device_id', 'status', 'updated_at'] }],
      }),
    );
    await q.createIndex('stock_levels', new TableIndex({ name: 'IDX_stock_levels_sync_changed', columnNames: ['warehouse_id', 'updated_at'] }));
    await q.createIndex('price_book_entries', new TableIndex({ name: 'IDX_price_book_entries_sync_changed', columnNames: ['updated_at'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('price_book_entries', 'IDX_price_book_entries_sync_changed');
    await q.dropIndex('stock_levels', 'IDX_stock_levels_sync_changed');
    await q.dropTable('sync_transactions');
    await q.dropTable('sync_devices');
  }
}
