import { defineDomainEvent } from '@pos/platform';
import type { CreditNoteRecord, ReturnItemRecord, ReturnRefundRecord, SaleReturnRecord } from './return.ports';

/**
 * A processed return as its records, in minor units of the sale's currency: what in-process
 * subscribers (report rollups) receive, published in the processing transaction.
 */
export interface ReturnFacts {
  saleReturn: {
    id: number;
    number: string;
    saleId: number;
    storeId: number;
    /** The processing cashier's open session in that store, if any (its cash refunds count there). */
    sessionId: number | null;
    /** Who processed it. */
    userId: number;
    customerId: number | null;
    currencyCode: string;
    reasonCode: string | null;
    refundTotal: number;
    createdAt: Date;
    processedAt: Date;
  };
  lines: {
    saleItemId: number;
    itemId: number;
    /** Units of the sale line returned (in the line's unit), and the same in base units. */
    quantity: number;
    baseQuantity: number;
    warehouseId: number;
    restock: boolean;
    /** e.g. resellable, damaged, spoiled (what was done with the goods follows from it and restock). */
    condition: string;
    /** The refund for these units: net (after discounts), tax, total = net + tax (or net when prices include tax). */
    refundNet: number;
    refundTax: number;
    refundTotal: number;
    /** Cost of the returned units, from the sale line's snapshot (profit and COGS are reversed with it). */
    cost: number;
  }[];
  refunds: { paymentMethodId: number; methodCode: string; methodType: string; amount: number }[];
  creditNote: { id: number; number: string; amount: number } | null;
}

export const ReturnProcessedFacts = defineDomainEvent<ReturnFacts>('returns.return-processed');

/**
 * The facts of a processed return from its records: what processing publishes and what the
 * report rebuild replays (ReturnFactsReader), so both say the same thing.
 */
export function returnFactsOf(
  r: SaleReturnRecord,
  items: readonly ReturnItemRecord[],
  refunds: readonly Pick<ReturnRefundRecord, 'paymentMethodId' | 'methodCode' | 'methodType' | 'amount'>[],
  creditNote: Pick<CreditNoteRecord, 'id' | 'number' | 'amount'> | null,
  reasonCode: string | null,
): ReturnFacts {
  if (r.processedAt === null || r.processedBy === null) throw new Error(`Return ${r.id} is not processed`);
  return {
    saleReturn: {
      id: r.id,
      number: r.number,
      saleId: r.saleId,
      storeId: r.storeId,
      sessionId: r.sessionId,
      userId: r.processedBy,
      customerId: r.customerId,
      currencyCode: r.currencyCode,
      reasonCode,
      refundTotal: r.refundTotal,
      createdAt: r.createdAt,
      processedAt: r.processedAt,
    },
    lines: items.map((l) => ({
      saleItemId: l.saleItemId,
      itemId: l.itemId,
      quantity: l.quantity,
      baseQuantity: l.baseQuantity,
      warehouseId: l.warehouseId,
      restock: l.restock,
      condition: l.condition,
      refundNet: l.refundNet,
      refundTax: l.refundTax,
      refundTotal: l.refundTotal,
      cost: l.cost,
    })),
    refunds: refunds.map((f) => ({ paymentMethodId: f.paymentMethodId, methodCode: f.methodCode, methodType: f.methodType, amount: f.amount })),
    creditNote: creditNote ? { id: creditNote.id, number: creditNote.number, amount: creditNote.amount } : null,
  };
}
