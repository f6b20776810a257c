import { defineDomainEvent } from '@pos/platform';

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
