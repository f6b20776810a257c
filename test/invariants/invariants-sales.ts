import { Books, groupBy, LineRow, SaleRow, sum } from './books';
import { Findings } from './known-defects';

/**
 * The books of every sale, read from the raw records (issue 23, D1 and D2), in minor units:
 *   sale   subtotal - discount_total + tax_total = total_amount; lines add up to it;
 *   line   gross - (rule + bundle + manual + cart discounts) = net; net + tax = total;
 *   tender sum of payment amounts = total_amount; cash: tendered = amount + change;
 *          other tenders: no change, tendered absent or the amount;
 *          paid (money taken, net of change) + balance due (on account) = total;
 *   exempt tax 0 (tax_exempt, or a customer whose record is exempt).
 * A tax-inclusive store's sales break the identities today (amounts stated with tax inside):
 * 'inclusive-identity'.
 */
export function checkSales(b: Books, f: Findings, exemptCustomerId: number): void {
  const lines = groupBy(b.lines, (l) => l.sale_id);
  const payments = groupBy(b.payments, (p) => p.sale_id);
  const inclusive = new Set(b.stores.filter((s) => s.prices_include_tax).map((s) => s.id));
  for (const s of b.sales) {
    const mode = inclusive.has(s.store_id) ? 'inclusive-identity' : undefined;
    const exempt = s.tax_exempt || s.customer_id === exemptCustomerId;
    // An exempt sale in a tax-inclusive store records its lines at the shelf price (tax inside) but its subtotal without it.
    const exemptMode = mode && exempt ? mode : undefined;
    const ls = lines.get(s.id) ?? [];
    const ps = payments.get(s.id) ?? [];
    const at = `sale ${s.id} (${s.receipt_number}${s.tax_exempt ? ', exempt' : ''})`;
    f.expect(ls.length > 0, `${at}: has lines`, () => 'none');
    f.equal(s.subtotal - s.discount_total + s.tax_total, s.total_amount, `${at}: subtotal - discount_total + tax_total = total_amount`, mode);
    f.equal(
      sum(ls, (l) => l.total),
      s.total_amount,
      `${at}: sum of line totals = total_amount`,
    );
    f.equal(
      sum(ls, (l) => l.tax),
      s.tax_total,
      `${at}: sum of line tax = tax_total`,
    );
    f.equal(
      sum(ls, (l) => l.gross),
      s.subtotal,
      `${at}: sum of line gross = subtotal`,
      exemptMode,
    );
    f.equal(sum(ls, discounts), s.discount_total, `${at}: sum of line discounts = discount_total`, exemptMode);
    for (const l of ls) checkLine(s, l, f, mode);
    if (exempt) f.equal(s.tax_total, 0, `${at}: exempt, tax 0`);

    f.equal(
      sum(ps, (p) => p.amount),
      s.total_amount,
      `${at}: sum of payment amounts = total_amount`,
    );
    for (const p of ps) {
      const pat = `${at} payment ${p.id} (${p.method_code})`;
      if (p.method_type === 'cash') {
        f.equal(p.tendered, p.amount + p.change_amount, `${pat}: tendered = amount + change`, 'tendered-change');
      } else {
        f.equal(p.change_amount, 0, `${pat}: no change on a non-cash tender`);
        f.expect(p.tendered === null || p.tendered === p.amount, `${pat}: tendered absent or the amount`, () => `tendered ${p.tendered}, amount ${p.amount}`);
      }
      f.expect(p.amount > 0, `${pat}: amount > 0`, () => String(p.amount));
    }
    f.equal(
      sum(ps, (p) => p.change_amount),
      s.change_amount,
      `${at}: change_amount = sum of the payments' change`,
    );
    const onAccount = sum(
      ps.filter((p) => p.method_type === 'on_account'),
      (p) => p.amount,
    );
    f.equal(s.balance_due, onAccount, `${at}: balance_due = on-account payments`);
    f.equal(s.paid_amount, s.total_amount - onAccount, `${at}: paid_amount = total - on account (money taken net of change)`);
    f.equal(s.paid_amount + s.balance_due, s.total_amount, `${at}: paid + balance_due = total`);
  }
}

export const discounts = (l: LineRow): number => l.rule_discount + l.bundle_discount + l.manual_discount + l.cart_discount;

function checkLine(s: SaleRow, l: LineRow, f: Findings, mode: 'inclusive-identity' | undefined): void {
  const at = `sale ${s.id} line ${l.line_no}`;
  f.equal(l.gross - discounts(l), l.net, `${at}: gross - discounts = net`);
  f.equal(l.net + l.tax, l.total, `${at}: net + tax = total`, mode);
  for (const [k, v] of Object.entries({ rule: l.rule_discount, bundle: l.bundle_discount, manual: l.manual_discount, cart: l.cart_discount, tax: l.tax }))
    f.expect(v >= 0, `${at}: ${k} >= 0`, () => String(v));
  f.expect(
    l.returned_quantity >= 0 && l.returned_quantity <= l.quantity,
    `${at}: 0 <= returned_quantity <= quantity`,
    () => `${l.returned_quantity}/${l.quantity}`,
  );
}

/**
 * Invoices: one per sale for its total; credited = its credit notes; paid_later = its later
 * payments (void or not: what the invoice reports read as collected); paid = money taken at the
 * till (net of change) plus later invoice payments; the balance is what is still owed:
 *   balance = amount - (paid - refunded in money) - credited,
 * where refunded in money is the credit notes' amount less their on-account part (a refund paid
 * back in cash or to a card returns money that was counted in `paid`; its credit note counts in
 * `credited`, so the money has to come off `paid` or it would be counted twice).
 */
export function checkInvoices(b: Books, f: Findings): void {
  const invoices = groupBy(b.invoices, (i) => i.sale_id);
  const later = groupBy(b.invoicePayments, (p) => p.invoice_id);
  const notes = groupBy(b.creditNotes, (c) => c.invoice_id ?? -1);
  const payments = groupBy(b.payments, (p) => p.sale_id);
  for (const s of b.sales) {
    const list = invoices.get(s.id) ?? [];
    f.equal(list.length, 1, `sale ${s.id}: one invoice`);
    const inv = list[0];
    if (!inv) continue;
    const at = `invoice ${inv.id} of sale ${s.id}`;
    f.equal(inv.amount, s.total_amount, `${at}: amount = sale total`);
    f.equal(inv.customer_id, s.customer_id, `${at}: customer of the sale`);
    f.equal(
      inv.paid_later,
      sum(later.get(inv.id) ?? [], (p) => p.amount),
      `${at}: paid_later = sum of its later invoice payments`,
    );
    if (s.status === 'voided') {
      f.equal(inv.status, 'void', `${at}: voided sale, void invoice`);
      continue;
    }
    const cns = notes.get(inv.id) ?? [];
    const credited = sum(cns, (c) => c.amount);
    const refundedMoney = sum(cns, (c) => c.amount - c.on_account);
    const tillPaid = sum(
      (payments.get(s.id) ?? []).filter((p) => p.method_type !== 'on_account'),
      (p) => p.amount,
    );
    const laterPaid = sum(later.get(inv.id) ?? [], (p) => p.amount);
    f.equal(inv.credited, credited, `${at}: credited = sum of its credit notes`);
    f.equal(inv.paid, tillPaid + laterPaid, `${at}: paid = taken at the till + later invoice payments`);
    f.equal(inv.balance, inv.amount - (inv.paid - refundedMoney) - inv.credited, `${at}: balance = amount - (paid - refunded) - credited`);
    f.expect(inv.balance >= 0, `${at}: balance >= 0`, () => String(inv.balance));
    const open = inv.balance > 0;
    const fine = open ? ['issued', 'partially_paid'].includes(inv.status) : ['paid', 'credited'].includes(inv.status);
    f.expect(fine, `${at}: status ${inv.status} fits balance ${inv.balance}`, () => inv.status);
    if (inv.credited === inv.amount) f.equal(inv.status, 'credited', `${at}: fully credited`);
  }
}
