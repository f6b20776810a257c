import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col, fk } from '../columns';

/** Sales with their lines and payments, per-store receipt counters, invoices, idempotency keys. */
export class Checkout1763700400000 implements MigrationInterface {
  name = 'Checkout1763700400000';

  async up(q: QueryRunner): Promise<void> {
    const tables = [
      new Table({
        name: 'sales',
        columns: [
          col.id(),
          col.ref('store_id'),
          col.ref('warehouse_id', true),
          col.ref('session_id', true),
          col.ref('user_id'),
          col.ref('customer_id', true),
          col.string('receipt_number', 32),
          col.string('status', 20),
          col.money('subtotal'),
          col.money('discount_total'),
          col.money('tax_total'),
          col.money('total_amount'),
          col.money('paid_amount'),
          col.money('change_amount'),
          col.money('balance_due'),
          col.string('currency_code', 3),
          col.string('reference', 128, { isNullable: true }),
          col.string('idempotency_key', 128, { isUnique: true }),
          col.bool('tax_exempt', false),
          col.string('tax_exempt_reason', 255, { isNullable: true }),
          col.datetime('offline_created_at'),
          col.datetime('voided_at'),
          col.ref('voided_by', true),
          col.string('void_reason', 255, { isNullable: true }),
          ...col.timestamps(),
        ],
        foreignKeys: [fk('store_id', 'stores'), fk('user_id', 'users'), fk('session_id', 'cashier_sessions'), fk('customer_id', 'customers')],
        indices: [
          { columnNames: ['store_id', 'receipt_number'], isUnique: true },
          { columnNames: ['store_id', 'created_at'] },
          { columnNames: ['status', 'created_at'] },
          { columnNames: ['created_at'] },
          { columnNames: ['session_id'] },
          { columnNames: ['customer_id'] },
          { columnNames: ['warehouse_id', 'created_at'] },
          { columnNames: ['reference'] },
        ],
      }),
      new Table({
        name: 'sale_items',
        columns: [
          col.id(),
          col.ref('sale_id'),
          col.int('line_no'),
          col.ref('item_id'),
          col.string('sku', 64),
          col.string('name'),
          col.ref('unit_id', true),
          col.string('unit_name', 50, { isNullable: true }),
          col.int('factor', { default: 1 }),
          col.int('quantity'),
          col.int('base_quantity'),
          col.money('base_price'),
          col.money('unit_price'),
          col.money('unit_cost'),
          col.string('price_source', 16),
          col.money('gross'),
          col.money('rule_discount'),
          col.money('bundle_discount'),
          col.money('manual_discount'),
          col.money('cart_discount'),
          col.string('discount_reason', 255, { isNullable: true }),
          col.ref('discount_approved_by', true),
          col.money('net'),
          col.int('tax_rate_bp', { default: 0 }),
          col.money('tax'),
          col.money('total'),
          col.ref('warehouse_id'),
          col.string('serial_number', 128, { isNullable: true }),
          col.int('returned_quantity', { default: 0 }),
          col.text('steps'),
        ],
        foreignKeys: [fk('sale_id', 'sales', 'CASCADE'), fk('item_id', 'items')],
        indices: [{ columnNames: ['sale_id'] }, { columnNames: ['item_id'] }],
      }),
      new Table({
        name: 'sale_payments',
        columns: [col.id(), col.ref('sale_id'), col.ref('payment_method_id'), col.string('method_code', 32), col.string('method_type', 20), col.money('amount'), col.money('tendered', { isNullable: true, default: undefined }), col.money('change_amount'), col.string('reference', 128, { isNullable: true }), col.datetime('created_at', false)],
        foreignKeys: [fk('sale_id', 'sales', 'CASCADE'), fk('payment_method_id', 'payment_methods')],
        indices: [{ columnNames: ['sale_id'] }],
      }),
      new Table({
        name: 'receipt_counters',
        columns: [{ name: 'store_id', type: 'integer', isPrimary: true }, col.int('last_number', { default: 0 })],
      }),
      new Table({
        name: 'idempotency_keys',
        columns: [
          col.id(),
          col.string('idem_key', 128, { isUnique: true }),
          col.string('scope', 32),
          col.string('fingerprint', 64),
          col.string('status', 16),
          col.int('response_status', { isNullable: true }),
          { name: 'response_body', type: 'longtext', isNullable: true },
          col.ref('user_id'),
          col.datetime('created_at', false),
          col.datetime('completed_at'),
        ],
        indices: [{ columnNames: ['created_at'] }],
      }),
      new Table({
        name: 'invoices',
        columns: [
          col.id(),
          col.ref('sale_id'),
          col.ref('store_id'),
          col.ref('customer_id', true),
          col.string('number', 40, { isUnique: true }),
          col.string('status', 20),
          col.datetime('issued_at', false),
          col.datetime('due_at', false),
          col.money('amount'),
          col.money('paid'),
          col.money('balance'),
          ...col.timestamps(),
        ],
        foreignKeys: [fk('sale_id', 'sales', 'CASCADE'), fk('store_id', 'stores')],
        indices: [{ columnNames: ['sale_id'], isUnique: true }, { columnNames: ['store_id', 'status'] }, { columnNames: ['due_at'] }, { columnNames: ['issued_at'] }],
      }),
      new Table({
        name: 'invoice_payments',
        columns: [col.id(), col.ref('invoice_id'), col.ref('payment_method_id'), col.string('method_code', 32), col.money('amount'), col.string('reference', 128, { isNullable: true }), col.ref('user_id'), col.datetime('created_at', false)],
        foreignKeys: [fk('invoice_id', 'invoices', 'CASCADE')],
        indices: [{ columnNames: ['invoice_id'] }],
      }),
    ];
    for (const t of tables) await q.createTable(t);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['invoice_payments', 'invoices', 'idempotency_keys', 'receipt_counters', 'sale_payments', 'sale_items', 'sales']) await q.dropTable(t);
  }
}
