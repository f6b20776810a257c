import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col, fk } from '../columns';

/** Reference data, catalog, stock ledger and customers (the schema the demo data needs). */
export class CatalogReference1763700100000 implements MigrationInterface {
  name = 'CatalogReference1763700100000';

  async up(q: QueryRunner): Promise<void> {
    const tables: Table[] = [
      new Table({
        name: 'currencies',
        columns: [
          col.id(),
          col.string('code', 3, { isUnique: true }),
          col.string('name', 100),
          col.string('symbol', 8),
          col.int('decimals', { default: 2 }),
          col.bool('is_base', false),
          col.bool('is_active', true),
          ...col.timestamps(),
        ],
      }),
      new Table({
        name: 'payment_methods',
        columns: [
          col.id(),
          col.string('name', 100),
          col.string('code', 32, { isUnique: true }),
          col.string('type', 20),
          col.bool('is_active', true),
          col.int('sort_order', { default: 0 }),
          ...col.timestamps(),
          col.softDelete(),
        ],
      }),
      new Table({
        name: 'store_payment_methods',
        columns: [col.id(), col.ref('store_id'), col.ref('payment_method_id')],
        foreignKeys: [fk('store_id', 'stores', 'CASCADE'), fk('payment_method_id', 'payment_methods', 'CASCADE')],
        indices: [{ columnNames: ['store_id', 'payment_method_id'], isUnique: true }],
      }),
      new Table({
        name: 'categories',
        columns: [
          col.id(),
          col.ref('parent_id', true),
          col.string('name'),
          col.string('slug', 191, { isNullable: true }),
          col.text('description'),
          col.bool('is_active', true),
          col.int('sort_order', { default: 0 }),
          ...col.timestamps(),
          col.softDelete(),
        ],
        foreignKeys: [fk('parent_id', 'categories', 'SET NULL')],
        indices: [{ columnNames: ['parent_id'] }, { columnNames: ['updated_at'] }],
      }),
      new Table({
        name: 'tax_classes',
        columns: [col.id(), col.string('name', 100), col.string('code', 32, { isUnique: true }), ...col.timestamps()],
      }),
      new Table({
        name: 'tax_rates',
        columns: [
          col.id(),
          col.ref('tax_class_id'),
          col.ref('store_id', true),
          col.string('name', 100),
          col.int('rate_bp'),
          col.bool('is_active', true),
          ...col.timestamps(),
        ],
        foreignKeys: [fk('tax_class_id', 'tax_classes', 'CASCADE'), fk('store_id', 'stores', 'CASCADE')],
        indices: [{ columnNames: ['tax_class_id', 'store_id'] }],
      }),
      new Table({
        name: 'items',
        columns: [
          col.id(),
          col.string('sku', 64, { isUnique: true }),
          col.string('name'),
          col.text('description'),
          col.ref('category_id', true),
          col.money('base_price'),
          col.money('cost'),
          col.ref('tax_class_id', true),
          col.string('base_unit', 32, { default: "'each'" }),
          col.bool('is_active', true),
          col.bool('is_serial_tracked', false),
          col.int('reorder_level', { default: 0 }),
          col.int('reorder_quantity', { default: 0 }),
          ...col.timestamps(),
          col.softDelete(),
        ],
        foreignKeys: [fk('category_id', 'categories', 'SET NULL'), fk('tax_class_id', 'tax_classes', 'SET NULL')],
        indices: [{ columnNames: ['name'] }, { columnNames: ['category_id'] }, { columnNames: ['is_active'] }, { columnNames: ['updated_at'] }],
      }),
      new Table({
        name: 'item_units',
        columns: [
          col.id(),
          col.ref('item_id'),
          col.string('name', 50),
          col.int('factor'),
          col.money('price', { isNullable: true, default: undefined }),
          ...col.timestamps(),
        ],
        foreignKeys: [fk('item_id', 'items', 'CASCADE')],
        indices: [{ columnNames: ['item_id'] }],
      }),
      new Table({
        name: 'item_barcodes',
        columns: [col.id(), col.ref('item_id'), col.string('barcode', 64, { isUnique: true }), col.ref('item_unit_id', true)],
        foreignKeys: [fk('item_id', 'items', 'CASCADE'), fk('item_unit_id', 'item_units', 'CASCADE')],
        indices: [{ columnNames: ['item_id'] }],
      }),
      new Table({
        name: 'stock_levels',
        columns: [
          col.id(),
          col.ref('item_id'),
          col.ref('warehouse_id'),
          col.int('quantity', { default: 0 }),
          col.int('reorder_level', { isNullable: true }),
          col.datetime('updated_at', false),
        ],
        foreignKeys: [fk('item_id', 'items', 'CASCADE'), fk('warehouse_id', 'warehouses', 'CASCADE')],
        indices: [{ columnNames: ['item_id', 'warehouse_id'], isUnique: true }, { columnNames: ['warehouse_id'] }],
      }),
      new Table({
        name: 'stock_movements',
        columns: [
          col.id(),
          col.ref('item_id'),
          col.ref('warehouse_id'),
          col.string('type', 32),
          col.int('quantity'),
          col.int('balance_after'),
          col.money('unit_cost', { isNullable: true, default: undefined }),
          col.string('reference_type', 32, { isNullable: true }),
          col.string('reference_id', 64, { isNullable: true }),
          col.ref('user_id', true),
          col.text('notes'),
          col.datetime('created_at', false),
        ],
        foreignKeys: [fk('item_id', 'items'), fk('warehouse_id', 'warehouses')],
        indices: [
          { columnNames: ['item_id', 'warehouse_id', 'created_at'] },
          { columnNames: ['warehouse_id', 'created_at'] },
          { columnNames: ['reference_type', 'reference_id'] },
        ],
      }),
      new Table({
        name: 'serial_numbers',
        columns: [
          col.id(),
          col.ref('item_id'),
          col.ref('warehouse_id', true),
          col.string('serial', 128),
          col.string('status', 20, { default: "'in_stock'" }),
          col.ref('sale_id', true),
          ...col.timestamps(),
        ],
        foreignKeys: [fk('item_id', 'items', 'CASCADE'), fk('warehouse_id', 'warehouses', 'SET NULL')],
        indices: [{ columnNames: ['item_id', 'serial'], isUnique: true }, { columnNames: ['warehouse_id', 'status'] }],
      }),
      new Table({
        name: 'customer_groups',
        columns: [col.id(), col.string('name', 100), col.string('code', 32, { isUnique: true }), ...col.timestamps()],
      }),
      new Table({
        name: 'price_books',
        columns: [
          col.id(),
          col.string('name'),
          col.string('code', 32, { isUnique: true }),
          col.string('currency_code', 3, { default: "'USD'" }),
          col.int('priority', { default: 0 }),
          col.bool('is_active', true),
          col.datetime('valid_from'),
          col.datetime('valid_to'),
          ...col.timestamps(),
          col.softDelete(),
        ],
      }),
      new Table({
        name: 'price_book_entries',
        columns: [col.id(), col.ref('price_book_id'), col.ref('item_id'), col.money('price'), col.int('min_quantity', { default: 1 }), ...col.timestamps()],
        foreignKeys: [fk('price_book_id', 'price_books', 'CASCADE'), fk('item_id', 'items', 'CASCADE')],
        indices: [{ columnNames: ['price_book_id', 'item_id', 'min_quantity'], isUnique: true }, { columnNames: ['item_id'] }],
      }),
      new Table({
        name: 'price_book_stores',
        columns: [col.id(), col.ref('price_book_id'), col.ref('store_id')],
        foreignKeys: [fk('price_book_id', 'price_books', 'CASCADE'), fk('store_id', 'stores', 'CASCADE')],
        indices: [{ columnNames: ['price_book_id', 'store_id'], isUnique: true }],
      }),
      new Table({
        name: 'price_book_customer_groups',
        columns: [col.id(), col.ref('price_book_id'), col.ref('customer_group_id')],
        foreignKeys: [fk('price_book_id', 'price_books', 'CASCADE'), fk('customer_group_id', 'customer_groups', 'CASCADE')],
        indices: [{ columnNames: ['price_book_id', 'customer_group_id'], isUnique: true }],
      }),
      new Table({
        name: 'customers',
        columns: [
          col.id(),
          col.string('name'),
          col.string('email', 191, { isNullable: true }),
          col.string('phone', 50, { isNullable: true }),
          col.text('address'),
          col.ref('customer_group_id', true),
          col.ref('store_id', true),
          col.bool('is_walk_in', false),
          col.string('status', 16, { default: "'active'" }),
          col.int('payment_terms_days', { default: 30 }),
          col.text('notes'),
          col.datetime('anonymised_at'),
          ...col.timestamps(),
          col.softDelete(),
        ],
        foreignKeys: [fk('customer_group_id', 'customer_groups', 'SET NULL'), fk('store_id', 'stores', 'SET NULL')],
        indices: [{ columnNames: ['name'] }, { columnNames: ['email'] }, { columnNames: ['phone'] }, { columnNames: ['updated_at'] }],
      }),
      new Table({
        name: 'tombstones',
        columns: [col.id(), col.string('entity', 32), col.ref('entity_id'), col.ref('store_id', true), col.datetime('deleted_at', false)],
        indices: [{ columnNames: ['entity', 'deleted_at'] }],
      }),
    ];
    for (const table of tables) await q.createTable(table);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'tombstones',
      'customers',
      'price_book_customer_groups',
      'price_book_stores',
      'price_book_entries',
      'price_books',
      'customer_groups',
      'serial_numbers',
      'stock_movements',
      'stock_levels',
      'item_barcodes',
      'item_units',
      'items',
      'tax_rates',
      'tax_classes',
      'categories',
      'store_payment_methods',
      'payment_methods',
      'currencies',
    ]) {
      await q.dropTable(table);
    }
  }
}
