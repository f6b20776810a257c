import { booksBeforeTax } from '@pos/pricing';
import { Rand, roundDiv } from './random';
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
  openInvoices: { id: number; createdAt: Date; due: Date; amount: number; balance: number }[];
  now: Date;
  firstDay: number;
}

/** Sales by hour of the day, local time. */
const HOUR_WEIGHTS = [0, 0, 0, 0, 0, 0, 0, 0.2, 0.6, 0.8, 0.9, 1.1, 1.6, 1.5, 1.0, 0.9, 1.0, 1.4, 1.5, 1.1, 0.7, 0.3, 0, 0];
const HOUR_SUM = HOUR_WEIGHTS.reduce((a, w) => a + w, 0);

/**
 * The n-th sale of a store's day, in one of its sessions: its lines (price sources, rule /
 * manual / cart discounts, tax per line half away from zero), payments (cash with change, card,
 * splits, on account), sometimes a void, its invoice (on-account ones paid later, partly, or
 * still open), the stock it takes, and perhaps a return planned for a later day.
 */
export async function writeSale(t: Trading, store: Store, d: number, n: number, localMidnight: number, sessions: Session[]): Promise<void> {
  const { db, rand, o, ref, counts, move, pickItem, returns, ids, receipt, returnsDue, openInvoices, now, firstDay } = t;
  const { customers, central } = ref;
  let hx = rand() * HOUR_SUM;
  let hour = 0;
  while (hour < 21 && hx > HOUR_WEIGHTS[hour]) hx -= HOUR_WEIGHTS[hour++];
  const at = new Date(localMidnight + hour * 3_600_000 + Math.floor(rand() * 3_600_000));
  const session = sessions[n % 3];
  const id = ids.sale++;
  const number = (receipt.get(store.id) ?? 0) + 1;
  receipt.set(store.id, number);
  const customer = rand() < 0.2 ? customers[Math.floor(rand() * rand() * customers.length)] : null;
  const cartDiscount = rand() < 0.03 ? 500 : 0; // 5% in bp
  const lineCount = 1 + Math.floor(-Math.log(1 - rand() * 0.999) * 1.6);
  const used = new Set<number>();
  let subtotal = 0;
  let discountTotal = 0;
  let taxTotal = 0;
  let total = 0;
  const lines: { wh: number; item: Item; qty: number }[] = [];
  const lineRows: Record<string, unknown>[] = [];
  const centralLine = store.code !== 'BE' && rand() < 0.02;
  const saleWarehouses = new Set<number>();
  for (let l = 0; l < Math.min(lineCount, 8); l++) {
    const item = pickItem();
    if (used.has(item.id)) continue;
    used.add(item.id);
    const qty = rand() < 0.8 ? 1 : 2 + Math.floor(rand() * 3);
    const wh = centralLine && l === 0 ? central : store.warehouseId;
    saleWarehouses.add(wh);
    const r = rand();
    const source = r < 0.05 ? 'pricing_rule' : r < 0.11 ? 'price_book' : r < 0.13 ? 'manual' : r < 0.14 ? 'bundle' : r < 0.145 ? 'offline' : 'base';
    const unitPrice = source === 'price_book' ? Math.round(item.price * 0.92) : item.price;
    const gross = unitPrice * qty;
    const ruleDiscount = source === 'pricing_rule' ? roundDiv(gross * 1000, 10000) : 0;
    const bundleDiscount = source === 'bundle' ? roundDiv(gross * 500, 10000) : 0;
    const manualDiscount = source === 'manual' ? roundDiv(gross * 1000, 10000) : 0;
    const afterLine = gross - ruleDiscount - bundleDiscount - manualDiscount;
    const cart = cartDiscount ? roundDiv(afterLine * cartDiscount, 10000) : 0;
    const net = afterLine - cart;
    const rate = store.rates[item.taxClass] ?? 0;
    const tax = store.inclusive ? roundDiv(net * rate, 10000 + rate) : roundDiv(net * rate, 10000);
    const lineTotal = store.inclusive ? net : net + tax;
    // the records keep the books: amounts before tax in either tax mode
    const books = booksBeforeTax({ gross, ruleDiscount, bundleDiscount, manualDiscount, cartDiscount: cart }, rate, store.inclusive);
    subtotal += books.gross;
    discountTotal += books.gross - books.net;
    taxTotal += tax;
    total += lineTotal;
    lineRows.push({
      id: ids.line++,
      sale_id: id,
      line_no: lines.length,
      item_id: item.id,
      sku: item.sku,
      name: item.name,
      factor: 1,
      quantity: qty,
      base_quantity: qty,
      base_price: item.price,
      unit_price: unitPrice,
      unit_cost: item.cost,
      price_source: source,
      gross: books.gross,
      rule_discount: books.ruleDiscount,
      bundle_discount: books.bundleDiscount,
      manual_discount: books.manualDiscount,
      cart_discount: books.cartDiscount,
      discount_reason: manualDiscount || cart ? 'volume seed' : null,
      net: books.net,
      tax_rate_bp: rate,
      tax,
      tax_exempted: 0,
      total: lineTotal,
      warehouse_id: wh,
      returned_quantity: 0,
    });
    lines.push({ wh, item, qty });
  }
  // Payments: card, cash with change, a split, or on account (needs a customer).
  const r = rand();
  const onAccount = customer !== null && r < 0.15 ? total : 0;
  const tenders: { code: string; type: string; amount: number; tendered: number | null; change: number }[] = [];
  if (onAccount) tenders.push({ code: 'on_account', type: 'on_account', amount: total, tendered: null, change: 0 });
  else if (r < 0.2) {
    const card = Math.floor(total / 2);
    const cashDue = total - card;
    const tendered = Math.ceil(cashDue / 500) * 500;
    tenders.push(
      { code: 'card', type: 'card', amount: card, tendered: null, change: 0 },
      { code: 'cash', type: 'cash', amount: cashDue, tendered, change: tendered - cashDue },
    );
  } else if (r < 0.6) {
    const tendered = Math.ceil(total / 500) * 500;
    tenders.push({ code: 'cash', type: 'cash', amount: total, tendered, change: tendered - total });
  } else tenders.push({ code: 'card', type: 'card', amount: total, tendered: null, change: 0 });
  for (const t of tenders) {
    db.push('sale_payments', {
      id: ids.payment++,
      sale_id: id,
      payment_method_id: await db.methodId(t.code),
      method_code: t.code,
      method_type: t.type,
      amount: t.amount,
      tendered: t.tendered,
      change_amount: t.change,
      reference: null,
      created_at: dt(at),
    });
    if (t.type === 'cash') session.cashSales += t.amount;
  }
  const voided = rand() < 0.005;
  const voidedAt = new Date(at.getTime() + 5 * 60_000);
  const change = tenders.reduce((a, t) => a + t.change, 0);
  const receiptNumber = `${store.code}-${String(number).padStart(6, '0')}`;
  const returnDay = d + 1 + Math.floor(rand() * 14);
  const planned =
    !voided && !onAccount && returnDay < o.days && rand() < RETURN_RATE
      ? await returns.planReturn(
          ids.return++,
          store,
          { id, receiptNumber, customer, invoiceId: ids.invoice, tenders, lineRows, lines },
          (firstDay + returnDay) * DAY,
        )
      : null;
  if (planned) {
    const due = returnsDue.get(returnDay) ?? [];
    due.push(planned);
    returnsDue.set(returnDay, due);
  }
  for (const row of lineRows) db.push('sale_items', row);
  db.push('sales', {
    id,
    store_id: store.id,
    warehouse_id: saleWarehouses.size === 1 ? [...saleWarehouses][0] : null,
    session_id: session.id,
    user_id: session.userId,
    customer_id: customer,
    receipt_number: receiptNumber,
    status: voided ? 'voided' : planned ? (lineRows.every((l) => l.returned_quantity === l.quantity) ? 'refunded' : 'partially_refunded') : 'completed',
    subtotal,
    discount_total: discountTotal,
    tax_total: taxTotal,
    total_amount: total,
    prices_include_tax: store.inclusive ? 1 : 0,
    paid_amount: total - onAccount,
    change_amount: change,
    balance_due: onAccount,
    currency_code: store.code === 'BE' ? 'EUR' : 'USD',
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
  if (voided) for (const t of tenders) if (t.type === 'cash') session.cashSales -= t.amount;
  const due = new Date(at.getTime() + 30 * DAY);
  const invoice = {
    id: ids.invoice++,
    sale_id: id,
    store_id: store.id,
    customer_id: customer,
    number: `INV-${store.code}-${String(number).padStart(6, '0')}`,
    status: voided ? 'void' : onAccount ? 'issued' : 'paid',
    issued_at: dt(at),
    due_at: dt(due),
    amount: total,
    paid: total - onAccount,
    balance: voided ? 0 : onAccount,
    credited: planned ? planned.lines.reduce((a, l) => a + l.refund.total, 0) : 0,
    created_at: dt(at),
    updated_at: dt(planned ? planned.at : at),
  };
  // A credit note for all of it credits the invoice; a part leaves it paid.
  if (planned && invoice.credited >= total) invoice.status = 'credited';
  if (onAccount && !voided) {
    // Paid later: most by the due date, some in part, the recent ones not yet.
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
      Object.assign(invoice, { status: 'paid', paid: total, balance: 0, updated_at: dt(payAt) });
    } else if (payAt < now && p < 0.92) {
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
      Object.assign(invoice, { status: 'partially_paid', paid: total - onAccount + part, balance: onAccount - part, updated_at: dt(payAt) });
    }
    if (invoice.balance > 0) openInvoices.push({ id: invoice.id, createdAt: at, due, amount: total, balance: invoice.balance });
  }
  db.push('invoices', invoice);
  for (const l of lines) {
    move(l.item.id, l.wh, 'sale', -l.qty, at, 'sale', String(id), l.item.cost);
    if (voided) move(l.item.id, l.wh, 'void', l.qty, voidedAt, 'sale_void', String(id), l.item.cost);
  }
  counts.sales = (counts.sales ?? 0) + 1;
  o.progress?.(counts.sales);
}
