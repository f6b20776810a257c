import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { col, fk } from '../columns';

/**
 * Offline sales are judged against the price the shop set (issue 23, item 8):
 *  - item_price_changes: every change of an item's base price, written in the transaction that
 *    makes it (create, update, bulk job), with the price before and after, so the price in force
 *    at a past moment is the "before" of the first change after it (today's with none since);
 *    nothing to backfill: items without a row have had today's price as far as anyone knows.
 *  - sale_reviews: sales recorded (the goods left the shop) but flagged for a manager, e.g. an
 *    offline price below the reference beyond the cashier's limits; resolved with a note.
 *  - the permission `sales.review` (the review queue), granted here to the seeded manager and
 *    admin roles of a database seeded before (a fresh database's seed grants it).
 */
export class OfflinePriceReviews1764431000000 implements MigrationInterface {
  name = 'OfflinePriceReviews1764431000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'item_price_changes',
        columns: [
          col.id(),
          col.ref('item_id'),
          { name: 'old_price', type: 'bigint', isNullable: true },
          { name: 'new_price', type: 'bigint', isNullable: false },
          col.datetime('changed_at', false),
        ],
        foreignKeys: [fk('item_id', 'items', 'CASCADE')],
        indices: [{ name: 'IDX_item_price_changes_item_changed', columnNames: ['item_id', 'changed_at'] }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'sale_reviews',
        columns: [
          col.id(),
          col.ref('sale_id'),
          col.ref('store_id'),
          col.ref('user_id'),
          col.string('receipt_number', 32),
          col.string('reason', 64),
          col.string('currency_code', 3),
          col.text('lines', false),
          col.money('difference'),
          col.datetime('sale_created_at', false),
          col.datetime('created_at', false),
          col.datetime('resolved_at'),
          col.ref('resolved_by', true),
          col.string('resolution_note', 1000, { isNullable: true }),
        ],
        foreignKeys: [fk('sale_id', 'sales', 'CASCADE')],
        indices: [
          { name: 'UQ_sale_reviews_sale_reason', columnNames: ['sale_id', 'reason'], isUnique: true },
          { name: 'IDX_sale_reviews_store_created', columnNames: ['store_id', 'created_at'] },
        ],
      }),
    );
    await q.query(
      "INSERT INTO role_permissions (role_id, permission) SELECT r.id, 'sales.review' FROM roles r WHERE r.slug IN ('manager', 'admin') " +
        "AND NOT EXISTS (SELECT 1 FROM role_permissions p WHERE p.role_id = r.id AND p.permission = 'sales.review')",
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query("DELETE FROM role_permissions WHERE permission = 'sales.review'");
    await q.dropTable('sale_reviews');
    await q.dropTable('item_price_changes');
  }
}
