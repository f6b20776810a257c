import { documentNumber } from '@pos/kernel';
import { Rand } from './random';
import { dt, RowWriter } from './row-writer';
import { DAY, PlannedReturn, Store } from './types';

/** An invoice with a balance left at the end of the seed. */
export interface OpenInvoice {
  id: number;
  createdAt: Date;
  due: Date;
  amount: number;
  balance: number;
}

/** What writing invoices needs of the trading (sales.ts's Trading has it all). */
export interface InvoiceBook {
  db: RowWriter;
  rand: Rand;
  ref: { managerId: number };
  /** The next invoice id. */
  ids: { invoice: number };
  openInvoices: OpenInvoice[];
  now: Date;
}

/**
 * A sale's invoice (payment terms 30 days): void with a voided sale, credited by a return of all
 * of it (a part leaves it paid); on-account ones are paid later, most in full by card, some half
 * in cash, the recent ones not yet (those stay open).
 */
export async function writeInvoice(
  t: InvoiceBook,
  store: Store,
  sale: { id: number; number: number; customer: number | null; at: Date; total: number; onAccount: number; voided: boolean; planned: PlannedReturn | null },
): Promise<void> {
  const { db, rand, ref, ids, openInvoices, now } = t;
  const { id, number, customer, at, total, onAccount, voided, planned } = sale;
  const due = new Date(at.getTime() + 30 * DAY);
  const invoice = {
    id: ids.invoice++,
    sale_id: id,
    store_id: store.id,
    customer_id: customer,
    number: documentNumber('invoice', store.code, number),
    status: voided ? 'void' : onAccount ? 'issued' : 'paid',
    issued_at: dt(at),
    due_at: dt(due),
    amount: total,
    paid: total - onAccount,
    paid_later: 0,
    balance: voided ? 0 : onAccount,
    credited: planned ? planned.lines.reduce((a, l) => a + l.refund.total, 0) : 0,
    created_at: dt(at),
    updated_at: dt(planned ? planned.at : at),
  };
  if (planned && invoice.credited >= total) invoice.status = 'credited';
  if (onAccount && !voided) {
    const p = rand();
    const payAt = new Date(at.getTime() + (10 + Math.floor(rand() * 40)) * DAY);
    if (payAt < now && p < 0.85) {
      db.push('invoice_payments', {
        invoice_id: invoice.id,
        payment_method_id: await db.methodId('card'),
        method_code: 'card',
        amount: onAccount,
        reference: null,
        user_id: ref.managerId,
        created_at: dt(payAt),
      });
      Object.assign(invoice, { status: 'paid', paid: total, paid_later: onAccount, balance: 0, updated_at: dt(payAt) });
    } else if (payAt < now && p < 0.92) {
      // Half now (in whole minor units), the rest still due.
      const part = Math.floor(onAccount / 2);
      db.push('invoice_payments', {
        invoice_id: invoice.id,
        payment_method_id: await db.methodId('cash'),
        method_code: 'cash',
        amount: part,
        reference: null,
        user_id: ref.managerId,
        created_at: dt(payAt),
      });
      Object.assign(invoice, { status: 'partially_paid', paid: total - onAccount + part, paid_later: part, balance: onAccount - part, updated_at: dt(payAt) });
    }
    if (invoice.balance > 0) openInvoices.push({ id: invoice.id, createdAt: at, due, amount: total, balance: invoice.balance });
  }
  db.push('invoices', invoice);
}
