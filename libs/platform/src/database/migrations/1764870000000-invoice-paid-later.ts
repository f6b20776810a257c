import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';
import { col } from '../columns';

/**
 * Each invoice keeps what was paid on it after the sale (`paid_later`: the sum of its
 * invoice_payments, kept by the payment that adds one), and an index leads with it, so the invoice
 * reports' "collected on account" and "received a payment after the sale" read the few invoices
 * that have such payments from the index alone (`paid_later > 0`, then store, issue time and status
 * in the same entries), instead of joining every payment ever recorded to its invoice and sale by
 * key: random reads that took most of a second at a million sales with a buffer pool smaller than
 * the data (issue 29). Backfilled from invoice_payments.
 *
 * The open-invoices index (status, store_id, issued_at, ...) gains `paid` and `paid_later` at its
 * end, so "credited whole, and on account at the sale" (paid - paid_later < amount: less than the
 * whole was taken at the till) is answered from it alone too, without reading each credited
 * invoice's sale.
 */
export class InvoicePaidLater1764870000000 implements MigrationInterface {
  name = 'InvoicePaidLater1764870000000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('invoices', new TableColumn(col.money('paid_later')));
    await q.query(
      'UPDATE invoices SET paid_later = (SELECT SUM(p.amount) FROM invoice_payments p WHERE p.invoice_id = invoices.id) ' +
        'WHERE id IN (SELECT invoice_id FROM invoice_payments)',
    );
    await q.createIndex('invoices', new TableIndex({ name: INDEX, columnNames: ['paid_later', 'store_id', 'issued_at', 'status'] }));
    await q.dropIndex('invoices', OPEN);
    await q.createIndex('invoices', new TableIndex({ name: OPEN, columnNames: [...OPEN_COLUMNS, 'paid', 'paid_later'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('invoices', OPEN);
    await q.createIndex('invoices', new TableIndex({ name: OPEN, columnNames: OPEN_COLUMNS }));
    await q.dropIndex('invoices', INDEX);
    await q.dropColumn('invoices', 'paid_later');
  }
}

const OPEN = 'IDX_invoices_open';
const OPEN_COLUMNS = ['status', 'store_id', 'issued_at', 'due_at', 'customer_id', 'balance', 'amount'];

const INDEX = 'IDX_invoices_paid_later';
