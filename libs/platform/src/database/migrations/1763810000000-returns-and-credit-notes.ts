import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';
import { col, fk } from '../columns';

/**
 * The reasons a customer may give, seeded for every installation (production included). Frozen as
 * this migration first wrote them; the returns context owns the live list (DEFAULT_RETURN_REASONS).
 */
const REASONS = [
  { code: 'damaged', name: 'Damaged' },
  { code: 'defective', name: 'Defective' },
  { code: 'wrong_item', name: 'Wrong item' },
  { code: 'changed_mind', name: 'Changed mind' },
  { code: 'other', name: 'Other' },
] as const;

/**
 * Returns: reasons, returns with their lines and refunds, per-line claims (units and amounts
 * held by live returns, the concurrency guard), per-store counters for return and credit note
 * numbers, credit notes; invoices.credited (total of the credit notes issued on an invoice).
 */
export class ReturnsAndCreditNotes1763810000000 implements MigrationInterface {
  name = 'ReturnsAndCreditNotes1763810000000';

  async up(q: QueryRunner): Promise<void> {
    const tables = [
      new Table({
        name: 'return_reasons',
        columns: [
          col.id(),
          col.string('code', 32, { isUnique: true }),
          col.string('name', 100),
          col.bool('is_active', true),
          col.int('sort_order', { default: 0 }),
          ...col.timestamps(),
        ],
      }),
      new Table({
        name: 'sale_returns',
        columns: [
          col.id(),
          col.string('number', 40, { isUnique: true }),
          col.ref('store_id'),
          col.ref('sale_id'),
          col.string('receipt_number', 32),
          col.ref('warehouse_id', true),
          col.ref('customer_id', true),
          col.ref('user_id'),
          col.string('status', 16),
          col.ref('reason_id', true),
          col.text('reason_notes'),
          col.text('internal_notes'),
          col.text('decision_notes'),
          col.string('currency_code', 3),
          col.money('refund_net'),
          col.money('refund_tax'),
          col.money('refund_total'),
          col.string('idempotency_key', 128, { isNullable: true, isUnique: true }),
          col.ref('session_id', true),
          col.ref('approved_by', true),
          col.datetime('approved_at'),
          col.ref('rejected_by', true),
          col.datetime('rejected_at'),
          col.ref('cancelled_by', true),
          col.datetime('cancelled_at'),
          col.ref('processed_by', true),
          col.datetime('processed_at'),
          ...col.timestamps(),
        ],
        foreignKeys: [fk('store_id', 'stores'), fk('sale_id', 'sales'), fk('reason_id', 'return_reasons')],
        indices: [
          { columnNames: ['store_id', 'created_at'] },
          { columnNames: ['status', 'created_at'] },
          { columnNames: ['created_at'] },
          { columnNames: ['sale_id'] },
          { columnNames: ['receipt_number'] },
          { columnNames: ['customer_id'] },
          { columnNames: ['session_id'] },
          { columnNames: ['warehouse_id', 'created_at'] },
        ],
      }),
      new Table({
        name: 'sale_return_items',
        columns: [
          col.id(),
          col.ref('return_id'),
          col.int('line_no'),
          col.ref('sale_item_id'),
          col.ref('item_id'),
          col.string('sku', 64),
          col.string('name'),
          col.string('unit_name', 50, { isNullable: true }),
          col.int('factor', { default: 1 }),
          col.int('quantity'),
          col.int('base_quantity'),
          col.string('item_condition', 16),
          col.bool('restock', false),
          col.ref('warehouse_id'),
          col.string('serial_number', 128, { isNullable: true }),
          col.text('notes'),
          col.money('refund_net'),
          col.money('refund_tax'),
          col.money('refund_total'),
          col.money('cost'),
        ],
        foreignKeys: [fk('return_id', 'sale_returns', 'CASCADE')],
        indices: [{ columnNames: ['return_id'] }, { columnNames: ['sale_item_id'] }, { columnNames: ['warehouse_id'] }],
      }),
      new Table({
        name: 'return_refunds',
        columns: [
          col.id(),
          col.ref('return_id'),
          col.ref('payment_method_id'),
          col.string('method_code', 32),
          col.string('method_type', 20),
          col.money('amount'),
          col.datetime('created_at', false),
        ],
        foreignKeys: [fk('return_id', 'sale_returns', 'CASCADE')],
        indices: [{ columnNames: ['return_id'] }],
      }),
      new Table({
        name: 'sale_item_return_claims',
        columns: [
          { name: 'sale_item_id', type: 'integer', isPrimary: true },
          col.ref('sale_id'),
          col.int('sold_quantity'),
          col.int('claimed_quantity', { default: 0 }),
          col.money('claimed_total'),
          col.money('claimed_tax'),
        ],
        indices: [{ columnNames: ['sale_id'] }],
      }),
      new Table({
        name: 'return_counters',
        columns: [
          { name: 'store_id', type: 'integer', isPrimary: true },
          { ...col.string('kind', 16), isPrimary: true },
          col.int('last_number', { default: 0 }),
        ],
      }),
      new Table({
        name: 'credit_notes',
        columns: [
          col.id(),
          col.string('number', 40, { isUnique: true }),
          col.ref('store_id'),
          col.ref('sale_id'),
          col.ref('invoice_id', true),
          { ...col.ref('return_id'), isUnique: true },
          col.ref('customer_id', true),
          col.string('currency_code', 3),
          col.money('amount'),
          col.money('net'),
          col.money('tax'),
          col.money('on_account'),
          col.datetime('issued_at', false),
          col.datetime('created_at', false),
        ],
        foreignKeys: [fk('store_id', 'stores'), fk('sale_id', 'sales'), fk('return_id', 'sale_returns')],
        indices: [{ columnNames: ['store_id', 'issued_at'] }, { columnNames: ['sale_id'] }, { columnNames: ['invoice_id'] }, { columnNames: ['issued_at'] }],
      }),
    ];
    for (const t of tables) await q.createTable(t);
    await q.addColumn('invoices', new TableColumn(col.money('credited')));
    const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
    for (const [i, r] of REASONS.entries()) {
      await q.query('INSERT INTO return_reasons (code, name, is_active, sort_order, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [
        r.code,
        r.name,
        1,
        i,
        now,
        now,
      ]);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('invoices', 'credited');
    for (const t of ['credit_notes', 'return_counters', 'sale_item_return_claims', 'return_refunds', 'sale_return_items', 'sale_returns', 'return_reasons'])
      await q.dropTable(t);
  }
}
