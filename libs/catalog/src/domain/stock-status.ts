/**
 * Stock status against the reorder level (contract part 3: out, low, in_stock).
 * out: nothing on hand (or negative); low: at or below the reorder level; else in_stock.
 */
export type StockStatus = 'out' | 'low' | 'in_stock';

/**
 * A stock level stays within +/- one billion units: the same limit on both databases (MySQL's
 * INT columns would overflow past 2,147,483,647, SQLite's would not), so a receipt that would
 * pass it is a 409 everywhere.
 */
export const MAX_STOCK_LEVEL = 1_000_000_000;

export function stockStatus(quantity: number, reorderLevel: number): StockStatus {
  if (quantity <= 0) return 'out';
  if (quantity <= reorderLevel) return 'low';
  return 'in_stock';
}

/** Adjustment kinds (beyond the contract): how each changes the warehouse quantity. */
export const ADJUSTMENT_TYPES = ['count', 'receive', 'damage', 'spoilage', 'transfer'] as const;
export type AdjustmentType = (typeof ADJUSTMENT_TYPES)[number];

/**
 * The signed change an adjustment line makes: receive adds, damage/spoilage remove, a count
 * sets the counted quantity (the change is the difference), a transfer removes here and adds
 * at the destination.
 */
export function adjustmentDelta(type: AdjustmentType, quantity: number, onHand: number): number {
  switch (type) {
    case 'receive':
      return quantity;
    case 'damage':
    case 'spoilage':
    case 'transfer':
      return -quantity;
    case 'count':
      return quantity - onHand;
  }
}

/** The stock event a decrease causes: reaching zero is out of stock, reaching the level is low. */
export function levelCrossing(before: number, after: number, reorderLevel: number): 'out_of_stock' | 'low_stock' | null {
  if (after >= before) return null;
  if (after <= 0 && before > 0) return 'out_of_stock';
  if (after <= reorderLevel && before > reorderLevel) return 'low_stock';
  return null;
}
