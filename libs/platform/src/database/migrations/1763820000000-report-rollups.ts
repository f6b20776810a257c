import { MigrationInterface, QueryRunner, Table, TableColumnOptions } from 'typeorm';
import { col } from '../columns';

const key = (name: string): TableColumnOptions => ({ name, type: 'integer', isPrimary: true, isNullable: false });
const keyText = (name: string, length: number): TableColumnOptions => ({ name, type: 'varchar', length: String(length), isPrimary: true, isNullable: false });
const currency = (): TableColumnOptions => col.string('currency_code', 3, { default: "''" });
const measures = (...names: string[]): TableColumnOptions[] => names.map((n) => col.money(n));

const SALE = ['sales_count', 'units', 'gross', 'discount_rule', 'discount_bundle', 'discount_manual', 'discount_cart', 'net', 'tax', 'total', 'cost'];
const SALE2 = ['paid', 'change_given', 'on_account', 'credit_count', 'discounted_count', 'exempt_count', 'exempt_net', 'customer_count'];
const VOID = ['void_count', 'void_total', 'void_net', 'void_on_account', 'void_credit_count'];
const RETURN = ['return_count', 'return_units', 'refund_net', 'refund_tax', 'refund_total', 'refund_cost', 'credit_note_count', 'credit_note_total'];

/**
 * Report rollups (libs/integration): additive sums per business day (epoch day in the store's
 * time zone) kept in the transactions of sales, voids, returns and stock movements, and rebuilt
 * by `reports:rebuild`. Tables with `span` hold dyadic blocks (span s: 2^s days from `day`).
 * Composite primary keys are the rollup keys (upserts add to them); no surrogate ids.
 */
export class ReportRollups1763820000000 implements MigrationInterface {
  name = 'ReportRollups1763820000000';

  async up(q: QueryRunner): Promise<void> {
    const ITEM = ['line_count', 'units', 'gross', 'discounts', 'net', 'tax', 'total', 'cost', 'return_units', 'refund_net', 'refund_total', 'refund_cost'];
    const CUSTOMER = ['sales_count', 'net', 'total', 'on_account', 'return_count', 'refund_total'];
    const blocks = [key('span'), key('day')];
    const tables = [
      new Table({
        name: 'rpt_sales',
        columns: [...blocks, key('store_id'), key('warehouse_id'), currency(), ...measures(...SALE, ...SALE2, ...VOID, ...RETURN)],
      }),
      new Table({
        name: 'rpt_cashiers',
        columns: [
          ...blocks,
          key('store_id'),
          key('warehouse_id'),
          key('user_id'),
          currency(),
          ...measures(...SALE.filter((m) => m !== 'cost'), 'void_count', 'void_total', 'void_net', 'void_on_account', 'return_count', 'refund_total'),
        ],
      }),
      new Table({
        name: 'rpt_sessions',
        columns: [
          key('day'),
          key('store_id'),
          key('warehouse_id'),
          key('user_id'),
          key('session_id'),
          currency(),
          ...measures('sales_count', 'gross', 'discounts', 'net', 'tax', 'total', 'void_count', 'void_total', 'return_count', 'refund_tax', 'refund_total'),
        ],
      }),
      new Table({
        name: 'rpt_payments',
        columns: [
          ...blocks,
          key('store_id'),
          key('warehouse_id'),
          keyText('method_code', 32),
          col.string('method_type', 20, { default: "''" }),
          currency(),
          ...measures('payment_count', 'amount', 'change_given', 'void_count', 'void_amount', 'refund_count', 'refund_amount'),
        ],
      }),
      new Table({
        name: 'rpt_session_payments',
        columns: [
          key('day'),
          key('store_id'),
          key('warehouse_id'),
          key('session_id'),
          keyText('method_code', 32),
          col.string('method_type', 20, { default: "''" }),
          currency(),
          ...measures('payment_count', 'amount', 'refund_count', 'refund_amount'),
        ],
        indices: [{ columnNames: ['session_id'] }],
      }),
      new Table({
        name: 'rpt_hours',
        columns: [...blocks, key('store_id'), key('warehouse_id'), key('weekday'), key('hour'), currency(), ...measures('sales_count', 'net', 'total')],
      }),
      new Table({
        name: 'rpt_tax',
        columns: [
          ...blocks,
          key('store_id'),
          key('warehouse_id'),
          key('rate_bp'),
          currency(),
          ...measures('line_count', 'taxable', 'tax', 'refund_taxable', 'refund_tax'),
        ],
      }),
      new Table({
        name: 'rpt_items',
        columns: [...blocks, key('store_id'), key('warehouse_id'), key('item_id'), currency(), ...measures(...ITEM)],
        indices: [{ columnNames: ['item_id', 'warehouse_id', 'span', 'day'] }],
      }),
      new Table({
        name: 'rpt_items_all',
        columns: [...blocks, keyText('currency_code', 3), key('item_id'), ...measures(...ITEM)],
      }),
      new Table({
        name: 'rpt_price_sources',
        columns: [
          ...blocks,
          key('store_id'),
          key('warehouse_id'),
          keyText('price_source', 16),
          currency(),
          ...measures('line_count', 'units', 'gross', 'discounts', 'net'),
        ],
      }),
      new Table({
        name: 'rpt_customers',
        columns: [...blocks, key('store_id'), key('warehouse_id'), key('customer_id'), currency(), ...measures(...CUSTOMER)],
      }),
      new Table({
        name: 'rpt_customers_all',
        columns: [...blocks, keyText('currency_code', 3), key('customer_id'), ...measures(...CUSTOMER)],
      }),
      new Table({
        name: 'rpt_returns',
        columns: [
          ...blocks,
          key('store_id'),
          key('warehouse_id'),
          keyText('reason_code', 64),
          keyText('item_condition', 32),
          key('item_id'),
          currency(),
          ...measures('returns_count', 'line_count', 'units', 'restocked_units', 'refund_net', 'refund_tax', 'refund_total', 'cost'),
        ],
      }),
      new Table({
        name: 'rpt_stock_moves',
        columns: [...blocks, key('warehouse_id'), keyText('move_type', 32), ...measures('movements', 'qty_in', 'qty_out')],
      }),
      new Table({
        name: 'rpt_item_stock',
        columns: [...blocks, key('warehouse_id'), key('item_id'), ...measures('net_qty', 'sold_qty')],
      }),
      new Table({
        name: 'rpt_item_write_offs',
        columns: [...blocks, key('warehouse_id'), key('item_id'), ...measures('damaged_qty', 'spoiled_qty')],
      }),
      new Table({
        name: 'rpt_item_last_sale',
        columns: [key('warehouse_id'), key('item_id'), col.int('day')],
      }),
      new Table({
        name: 'rpt_credit_notes',
        columns: [
          key('id'),
          col.string('number', 40),
          col.int('day'),
          col.int('store_id'),
          col.int('warehouse_id'),
          col.int('return_id'),
          col.int('sale_id'),
          col.int('customer_id', { isNullable: true }),
          currency(),
          col.money('amount'),
          col.datetime('created_at', false),
        ],
        indices: [{ columnNames: ['day', 'store_id'] }],
      }),
    ];
    for (const t of tables) await q.createTable(t);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'rpt_credit_notes',
      'rpt_item_last_sale',
      'rpt_item_write_offs',
      'rpt_item_stock',
      'rpt_stock_moves',
      'rpt_returns',
      'rpt_customers_all',
      'rpt_customers',
      'rpt_price_sources',
      'rpt_items_all',
      'rpt_items',
      'rpt_tax',
      'rpt_hours',
      'rpt_session_payments',
      'rpt_payments',
      'rpt_sessions',
      'rpt_cashiers',
      'rpt_sales',
    ])
      await q.dropTable(t);
  }
}
