import { ZoneCalendar } from './calendar';
import { RollupBatch } from './rollup-batch';
import { pick, StoreFacts, taxKey } from './rollup-deltas';
import { CASHIERS, CUSTOMERS, CUSTOMERS_ALL, ITEMS, ITEMS_ALL, PAYMENTS, RETURNS, SALES, SESSION_PAYMENTS, SESSIONS, TAX } from './rollup-tables';

/**
 * Processed returns to rollup deltas, pure (the sales and stock facts: rollup-deltas.ts). The
 * shape below is the fields of the returns context's ReturnProcessedFacts these functions read.
 * Amounts are minor units of the sale's currency.
 */
export interface ReturnFactsInput {
  saleReturn: {
    id: number;
    saleId: number;
    storeId: number;
    sessionId: number | null;
    userId: number;
    customerId: number | null;
    currencyCode: string;
    reasonCode: string | null;
    processedAt: Date;
  };
  lines: {
    saleItemId: number;
    itemId: number;
    baseQuantity: number;
    warehouseId: number;
    restock: boolean;
    condition: string;
    refundNet: number;
    refundTax: number;
    refundTotal: number;
    cost: number;
  }[];
  refunds: { methodCode: string; methodType: string; amount: number }[];
  creditNote: { id: number; number: string; amount: number } | null;
}

/** A credit note as reports list it (kept row by row: there are few). */
export interface CreditNoteRow {
  id: number;
  number: string;
  day: number;
  storeId: number;
  warehouseId: number;
  returnId: number;
  saleId: number;
  customerId: number | null;
  currencyCode: string;
  amount: number;
  createdAt: Date;
}

/**
 * What a return's rows need of its sale: each sale line's tax rate and the warehouse it left, and
 * whether the sale was tax-exempt. A return's money (refunds, cost reversed, credit note) counts
 * in the warehouse its lines were sold from, whatever warehouse the goods came back to: that is
 * the stock ledger's business (its return, damage and spoilage movements).
 */
export interface ReturnedSale {
  exempt: boolean;
  rateOf: (saleItemId: number) => number;
  /** The warehouse the sale line left; undefined when the line is not known (then where the goods came back to). */
  soldFrom: (saleItemId: number) => number | undefined;
}

/** A ReturnedSale from the sale's lines. */
export function returnedSale(exempt: boolean, lines: readonly { id: number; taxRateBp: number; warehouseId?: number }[]): ReturnedSale {
  const byId = new Map(lines.map((l) => [l.id, l]));
  return { exempt, rateOf: (id) => byId.get(id)?.taxRateBp ?? 0, soldFrom: (id) => byId.get(id)?.warehouseId };
}

/** The sale-side warehouse of each returned line, and of the return: the one they all left, else 0. */
function soldFromOf(f: ReturnFactsInput, sale: ReturnedSale): { lines: number[]; whole: number } {
  const lines = f.lines.map((l) => sale.soldFrom(l.saleItemId) ?? l.warehouseId);
  const distinct = [...new Set(lines)];
  return { lines, whole: distinct.length === 1 ? distinct[0] : 0 };
}

/**
 * A processed return on the day it was processed, by the processing cashier and session:
 * refunds (net excluding tax, tax, total, cost of the goods back), per method, per original tax
 * rate (the sale line's; the exempt row for a tax-exempt sale's lines), per item, per customer,
 * per reason and condition, credit note.
 */
export function addReturn(batch: RollupBatch, f: ReturnFactsInput, store: StoreFacts, sale: ReturnedSale): void {
  const r = f.saleReturn;
  const day = ZoneCalendar.of(store.timeZone).dayOf(r.processedAt);
  const cur = { currency_code: r.currencyCode };
  const soldFrom = soldFromOf(f, sale);
  const where = { day, store_id: r.storeId, warehouse_id: soldFrom.whole };
  const session = r.sessionId ?? 0;
  const sum = (fn: (l: ReturnFactsInput['lines'][number]) => number) => f.lines.reduce((a, l) => a + fn(l), 0);
  const refundTotal = sum((l) => l.refundTotal);
  const refundTax = sum((l) => l.refundTax);
  const returnMeasures = {
    return_count: 1,
    return_units: sum((l) => l.baseQuantity),
    refund_net: refundTotal - refundTax,
    refund_tax: refundTax,
    refund_total: refundTotal,
    refund_cost: sum((l) => l.cost),
    credit_note_count: f.creditNote ? 1 : 0,
    credit_note_total: f.creditNote?.amount ?? 0,
  };
  batch.add(SALES, where, cur, returnMeasures);
  batch.add(CASHIERS, { ...where, user_id: r.userId }, cur, pick(returnMeasures, CASHIERS.measures));
  batch.add(SESSIONS, { ...where, user_id: r.userId, session_id: session }, cur, { return_count: 1, refund_tax: refundTax, refund_total: refundTotal });
  for (const p of f.refunds) {
    const attrs = { ...cur, method_type: p.methodType };
    batch.add(PAYMENTS, { ...where, method_code: p.methodCode }, attrs, { refund_count: 1, refund_amount: p.amount });
    batch.add(SESSION_PAYMENTS, { ...where, session_id: session, user_id: r.userId, method_code: p.methodCode }, attrs, {
      refund_count: 1,
      refund_amount: p.amount,
    });
  }
  // A return counts once in each condition it has lines of (the returns report's rows are by
  // reason and condition; the return's reason is one): on its first line of that condition.
  const firstOfCondition = new Set(f.lines.map((l) => l.condition).map((c) => f.lines.findIndex((l) => l.condition === c)));
  f.lines.forEach((l, i) => {
    const lineKey = { day, store_id: r.storeId, warehouse_id: soldFrom.lines[i] };
    const refund = { return_units: l.baseQuantity, refund_net: l.refundTotal - l.refundTax, refund_total: l.refundTotal, refund_cost: l.cost };
    batch.add(TAX, { ...lineKey, ...taxKey(sale.exempt, sale.rateOf(l.saleItemId)) }, cur, {
      refund_taxable: l.refundTotal - l.refundTax,
      refund_tax: l.refundTax,
    });
    batch.add(ITEMS, { ...lineKey, item_id: l.itemId }, cur, refund);
    batch.add(ITEMS_ALL, { day, currency_code: r.currencyCode, item_id: l.itemId }, {}, refund);
    batch.add(RETURNS, { ...lineKey, reason_code: r.reasonCode ?? '', item_condition: l.condition, item_id: l.itemId }, cur, {
      returns_count: firstOfCondition.has(i) ? 1 : 0,
      line_count: 1,
      units: l.baseQuantity,
      restocked_units: l.restock ? l.baseQuantity : 0,
      refund_net: l.refundTotal - l.refundTax,
      refund_tax: l.refundTax,
      refund_total: l.refundTotal,
      cost: l.cost,
    });
  });
  if (r.customerId !== null) {
    const m = { return_count: 1, refund_total: refundTotal };
    batch.add(CUSTOMERS, { ...where, customer_id: r.customerId }, cur, m);
    batch.add(CUSTOMERS_ALL, { day, currency_code: r.currencyCode, customer_id: r.customerId }, {}, m);
  }
}

/** The credit note a return issued, if any, on the day the return was processed (in the warehouse its lines were sold from). */
export function creditNoteOf(f: ReturnFactsInput, store: StoreFacts, sale: ReturnedSale): CreditNoteRow | null {
  if (!f.creditNote) return null;
  const r = f.saleReturn;
  return {
    id: f.creditNote.id,
    number: f.creditNote.number,
    day: ZoneCalendar.of(store.timeZone).dayOf(r.processedAt),
    storeId: r.storeId,
    warehouseId: soldFromOf(f, sale).whole,
    returnId: r.id,
    saleId: r.saleId,
    customerId: r.customerId,
    currencyCode: r.currencyCode,
    amount: f.creditNote.amount,
    createdAt: r.processedAt,
  };
}
