import type { MovementInput, SaleFactsInput } from './rollup-deltas';
import { ReturnedSale, returnedSale, type ReturnFactsInput } from './return-deltas';

/**
 * What the report journal keeps of each fact: exactly the fields the rollup deltas read (the
 * *Input shapes), so an entry stays small and its meaning does not drift with the publishers'
 * records. A return carries its sale lines' tax rates and warehouses and whether the sale was
 * tax-exempt (read when it is processed).
 */
export type JournalEntry =
  | { kind: 'sale'; facts: SaleFactsInput }
  | { kind: 'void'; facts: SaleFactsInput }
  /**
   * `exempt`: the sale was tax-exempt; `sold`: the warehouse each sale line left. Both absent in rows
   * journalled before they were kept: not exempt, and the warehouse the goods came back to, as
   * they were applied then (a rebuild puts those right).
   */
  | {
      kind: 'return';
      facts: ReturnFactsInput;
      rates: [saleItemId: number, rateBp: number][];
      exempt?: boolean;
      sold?: [saleItemId: number, warehouseId: number][];
    }
  | { kind: 'moves'; movements: MovementInput[] };

export function saleEntry(kind: 'sale' | 'void', f: SaleFactsInput): JournalEntry {
  const s = f.sale;
  return {
    kind,
    facts: {
      sale: {
        id: s.id,
        storeId: s.storeId,
        warehouseId: s.warehouseId,
        sessionId: s.sessionId,
        userId: s.userId,
        customerId: s.customerId,
        status: s.status,
        discountTotal: s.discountTotal,
        totalAmount: s.totalAmount,
        paidAmount: s.paidAmount,
        changeAmount: s.changeAmount,
        balanceDue: s.balanceDue,
        taxExempt: s.taxExempt,
        createdAt: s.createdAt,
      },
      items: f.items.map((l) => ({
        id: l.id,
        itemId: l.itemId,
        quantity: l.quantity,
        baseQuantity: l.baseQuantity,
        unitCost: l.unitCost,
        priceSource: l.priceSource,
        gross: l.gross,
        ruleDiscount: l.ruleDiscount,
        bundleDiscount: l.bundleDiscount,
        manualDiscount: l.manualDiscount,
        cartDiscount: l.cartDiscount,
        taxRateBp: l.taxRateBp,
        tax: l.tax,
        total: l.total,
        warehouseId: l.warehouseId,
      })),
      payments: f.payments.map((p) => ({ methodCode: p.methodCode, methodType: p.methodType, amount: p.amount, changeAmount: p.changeAmount })),
    },
  };
}

/** A processed return with what it needs of its sale: whether it was tax-exempt, its lines' rates and warehouses. */
export function returnEntry(
  f: ReturnFactsInput,
  sale: { exempt: boolean; lines: readonly { id: number; taxRateBp: number; warehouseId: number }[] },
): JournalEntry {
  const r = f.saleReturn;
  return {
    kind: 'return',
    facts: {
      saleReturn: {
        id: r.id,
        saleId: r.saleId,
        storeId: r.storeId,
        sessionId: r.sessionId,
        userId: r.userId,
        customerId: r.customerId,
        currencyCode: r.currencyCode,
        reasonCode: r.reasonCode,
        processedAt: r.processedAt,
      },
      lines: f.lines.map((l) => ({
        saleItemId: l.saleItemId,
        itemId: l.itemId,
        baseQuantity: l.baseQuantity,
        warehouseId: l.warehouseId,
        restock: l.restock,
        condition: l.condition,
        refundNet: l.refundNet,
        refundTax: l.refundTax,
        refundTotal: l.refundTotal,
        cost: l.cost,
      })),
      refunds: f.refunds.map((p) => ({ methodCode: p.methodCode, methodType: p.methodType, amount: p.amount })),
      creditNote: f.creditNote ? { id: f.creditNote.id, number: f.creditNote.number, amount: f.creditNote.amount } : null,
    },
    rates: sale.lines.map((l) => [l.id, l.taxRateBp]),
    exempt: sale.exempt,
    sold: sale.lines.map((l) => [l.id, l.warehouseId]),
  };
}

/** What a journalled return knows of its sale. */
export function returnedSaleOf(e: Extract<JournalEntry, { kind: 'return' }>): ReturnedSale {
  const warehouses = new Map(e.sold ?? []);
  const rates = new Map(e.rates);
  return returnedSale(
    e.exempt ?? false,
    [...rates].map(([id, taxRateBp]) => ({ id, taxRateBp, warehouseId: warehouses.get(id) })),
  );
}

export function movesEntry(movements: MovementInput[]): JournalEntry {
  return {
    kind: 'moves',
    movements: movements.map((m) => ({ itemId: m.itemId, warehouseId: m.warehouseId, type: m.type, quantity: m.quantity, createdAt: m.createdAt })),
  };
}

/** One journal row's text: the entries of one transaction. */
export function encodeEntries(entries: JournalEntry[]): string {
  return JSON.stringify(entries);
}

/** The entries of one journal row, their dates Dates again. */
export function decodeEntries(text: string): JournalEntry[] {
  const entries = JSON.parse(text) as JournalEntry[];
  for (const e of entries) {
    if (e.kind === 'sale' || e.kind === 'void') e.facts.sale.createdAt = new Date(e.facts.sale.createdAt);
    else if (e.kind === 'return') e.facts.saleReturn.processedAt = new Date(e.facts.saleReturn.processedAt);
    else for (const m of e.movements) m.createdAt = new Date(m.createdAt);
  }
  return entries;
}
