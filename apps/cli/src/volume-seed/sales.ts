import { documentNumber } from '@pos/kernel';
import { PricedLine } from '@pos/pricing';
import { DrawnLine, drawCart, priceDrawnCart } from './cart';
import { OpenInvoice, writeInvoice } from './invoices';
import { paySale } from './payments';
import { Rand } from './random';
import { dt, RowWriter } from './row-writer';
import { RETURN_RATE, ReturnBook } from './returns';
import { Counts, DAY, Item, MoveFn, PlannedReturn, Reference, Session, Store, VolumeOptions } from './types';

/** Everything a day of trading shares: the writer, the random source, the ids and numbers in use. */
export interface Trading {
  db: RowWriter;
  rand: Rand;
  o: VolumeOptions;
  ref: Reference;
  counts: Counts;
  move: MoveFn;
  pickItem: () => Item;
  returns: ReturnBook;
  /** The next id of each table the trading writes. */
  ids: { sale: number; line: number; payment: number; invoice: number; session: number; return: number };
  /** Last receipt number per store. */
  receipt: Map<number, number>;
  /** Planned returns by the day they are processed. */
  returnsDue: Map<number, PlannedReturn[]>;
  openInvoices: OpenInvoice[];
  now: Date;
  firstDay: number;
}

/** Sales by hour of the day, local time. */
const HOUR_WEIGHTS = [0, 0, 0, 0, 0, 0, 0, 0.2, 0.6, 0.8, 0.9, 1.1, 1.6, 1.5, 1.0, 0.9, 1.0, 1.4, 1.5, 1.1, 0.7, 0.3, 0, 0];
const HOUR_SUM = HOUR_WEIGHTS.reduce((a, w) => a + w, 0);

/**
 * The n-th sale of a store's day, in one of its sessions: its cart drawn (cart.ts) and priced by
 * the pricing engine as checkout prices it (price sources, rule / bundle / manual / cart
 * discounts, tax), paid and settled as checkout settles it (payments.ts: cash with change, card,
 * splits, on account), sometimes voided, its invoice (invoices.ts), the stock it takes, and
 * perhaps a return planned for a later day.
 */
export async function writeSale(t: Trading, store: Store, d: number, n: number, localMidnight: number, sessions: Session[]): Promise<void> {
  const { db, rand, o, ref, counts, move, pickItem, returns, ids, receipt, returnsDue, firstDay } = t;
  const at = saleTime(rand, localMidnight);
  const session = sessions[n % 3];
  const id = ids.sale++;
  const number = (receipt.get(store.id) ?? 0) + 1;
  receipt.set(store.id, number);
  const customer = rand() < 0.2 ? ref.customers[Math.floor(rand() * rand() * ref.customers.length)] : null;
  const cart = drawCart(rand, store, pickItem, ref.central);
  const priced = priceDrawnCart(store, cart, at);
  const lines = cart.lines;
  const lineRows = priced.lines.map((l, i) => lineRow(ids.line++, id, i, lines[i], l));
  const total = priced.total;
  const paid = paySale(rand, store, total, customer !== null);
  const onAccount = paid.onAccount;
  for (const p of paid.tenders) {
    db.push('sale_payments', {
      id: ids.payment++,
      sale_id: id,
      payment_method_id: await db.methodId(p.code),
      method_code: p.code,
      method_type: p.type,
      amount: p.amount,
      tendered: p.tendered,
      change_amount: p.change,
      reference: null,
      created_at: dt(at),
    });
    if (p.type === 'cash') session.cashSales += p.amount;
  }
  const voided = rand() < 0.005;
  const voidedAt = new Date(at.getTime() + 5 * 60_000);
  const receiptNumber = documentNumber('receipt', store.code, number);
  const returnDay = d + 1 + Math.floor(rand() * 14);
  const planned =
    !voided && !onAccount && returnDay < o.days && rand() < RETURN_RATE
      ? await returns.planReturn(
          ids.return++,
          store,
          { id, receiptNumber, customer, invoiceId: ids.invoice, tenders: paid.tenders, lineRows, lines },
          (firstDay + returnDay) * DAY,
        )
      : null;
  if (planned) {
    const due = returnsDue.get(returnDay) ?? [];
    due.push(planned);
    returnsDue.set(returnDay, due);
  }
  for (const row of lineRows) db.push('sale_items', row);
  const warehouses = new Set(lines.map((l) => l.wh));
  db.push('sales', {
    id,
    store_id: store.id,
    warehouse_id: warehouses.size === 1 ? [...warehouses][0] : null,
    session_id: session.id,
    user_id: session.userId,
    customer_id: customer,
    receipt_number: receiptNumber,
    status: voided ? 'voided' : planned ? (lineRows.every((l) => l.returned_quantity === l.quantity) ? 'refunded' : 'partially_refunded') : 'completed',
    subtotal: priced.subtotal,
    discount_total: priced.discountTotal,
    tax_total: priced.taxTotal,
    total_amount: total,
    prices_include_tax: store.inclusive ? 1 : 0,
    paid_amount: paid.paid,
    change_amount: paid.change,
    balance_due: onAccount,
    currency_code: store.currency,
    reference: null,
    idempotency_key: `volume-${id}`,
    tax_exempt: 0,
    tax_exempt_reason: null,
    offline_created_at: null,
    voided_at: voided ? dt(voidedAt) : null,
    voided_by: voided ? ref.managerId : null,
    void_reason: voided ? 'customer changed their mind' : null,
    created_at: dt(at),
    updated_at: dt(voided ? voidedAt : planned ? planned.at : at),
  });
  if (voided) for (const p of paid.tenders) if (p.type === 'cash') session.cashSales -= p.amount;
  await writeInvoice(t, store, { id, number, customer, at, total, onAccount, voided, planned });
  for (const l of lines) {
    move(l.item.id, l.wh, 'sale', -l.qty, at, 'sale', String(id), l.item.cost);
    if (voided) move(l.item.id, l.wh, 'void', l.qty, voidedAt, 'sale_void', String(id), l.item.cost);
  }
  counts.sales = (counts.sales ?? 0) + 1;
  o.progress?.(counts.sales);
}

/** When in the store's day the sale is rung up: an hour by HOUR_WEIGHTS, a moment within it. */
function saleTime(rand: Rand, localMidnight: number): Date {
  let hx = rand() * HOUR_SUM;
  let hour = 0;
  while (hour < 21 && hx > HOUR_WEIGHTS[hour]) hx -= HOUR_WEIGHTS[hour++];
  return new Date(localMidnight + hour * 3_600_000 + Math.floor(rand() * 3_600_000));
}

/** A sale line as checkout records it from the priced line: the books (amounts before tax in either tax mode), tax and total. */
function lineRow(lineId: number, saleId: number, lineNo: number, drawn: DrawnLine, l: PricedLine): Record<string, unknown> {
  return {
    id: lineId,
    sale_id: saleId,
    line_no: lineNo,
    item_id: l.itemId,
    sku: drawn.item.sku,
    name: drawn.item.name,
    factor: 1,
    quantity: l.quantity,
    base_quantity: l.quantity,
    base_price: l.basePrice,
    unit_price: l.unitPrice,
    unit_cost: drawn.item.cost,
    price_source: l.priceSource,
    gross: l.books.gross,
    rule_discount: l.books.ruleDiscount,
    bundle_discount: l.books.bundleDiscount,
    manual_discount: l.books.manualDiscount,
    cart_discount: l.books.cartDiscount,
    discount_reason: l.manualDiscount > 0 || l.cartDiscount > 0 ? 'volume seed' : null,
    net: l.books.net,
    tax_rate_bp: l.taxRateBp,
    tax: l.tax,
    tax_exempted: l.exemptedTax,
    total: l.total,
    warehouse_id: drawn.wh,
    returned_quantity: 0,
  };
}
