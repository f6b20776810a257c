/**
 * The definitions of decisions.md ("Reports") as pure functions over minor units and counts.
 * Ratios and percentages are plain numbers rounded to 2 decimals (they are not money).
 */

/** part / whole as a percentage with 2 decimals; null when whole is 0. */
export function percent(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((part / whole) * 10_000) / 100;
}

/** a / b with 2 decimals; null when b is 0. */
export function ratio(a: number, b: number): number | null {
  return b === 0 ? null : Math.round((a / b) * 100) / 100;
}

/** A money average in minor units, half away from zero; null for no count. */
export function average(total: number, count: number): number | null {
  if (count === 0) return null;
  const q = Math.abs(total) / count;
  const r = Math.floor(q) + (q - Math.floor(q) >= 0.5 ? 1 : 0);
  return total < 0 ? -r : r;
}

export type AbcClass = 'A' | 'B' | 'C';

/**
 * ABC by cumulative revenue share: items sorted by revenue (highest first, then id); an item is
 * A while the cumulative share up to and including it is <= 80%, B while <= 95%, C after (and
 * items with no positive revenue are C).
 */
export function abcClassify<T extends { id: number; revenue: number }>(items: T[]): (T & { share: number; cumulative: number; abc: AbcClass })[] {
  const sorted = [...items].sort((a, b) => b.revenue - a.revenue || a.id - b.id);
  const total = sorted.reduce((a, i) => a + Math.max(i.revenue, 0), 0);
  let running = 0;
  return sorted.map((i) => {
    running += Math.max(i.revenue, 0);
    const cumulative = total > 0 ? running / total : 1;
    const abc: AbcClass = i.revenue <= 0 ? 'C' : cumulative <= 0.8 + 1e-12 ? 'A' : cumulative <= 0.95 + 1e-12 ? 'B' : 'C';
    return { ...i, share: percent(Math.max(i.revenue, 0), total) ?? 0, cumulative: Math.round(cumulative * 10_000) / 100, abc };
  });
}

/** Aging buckets by days since the invoice was issued. */
export const AGING_BUCKETS = ['0-30', '31-60', '61-90', '91-120', '120+'] as const;

/**
 * Cutoffs for the receivables query: bucket i holds invoices issued after cutoffs[i] (age in
 * whole days <= 30, 60, 90, 120), the last bucket the rest (older than 120 days).
 */
export function agingCutoffs(asOf: Date): Date[] {
  return [31, 61, 91, 121].map((days) => new Date(asOf.getTime() - days * 86_400_000));
}

/** DSO = receivables / credit sales x days in the period; null without credit sales. */
export function daysSalesOutstanding(receivables: number, creditSales: number, days: number): number | null {
  return creditSales <= 0 ? null : Math.round((receivables / creditSales) * days * 10) / 10;
}

/** Replenishment: at or below the reorder level, order max(reorder quantity, reorder level - on hand). */
export function reorderSuggestion(onHand: number, reorderLevel: number, reorderQuantity: number): number | null {
  if (onHand > reorderLevel) return null;
  return Math.max(reorderQuantity, reorderLevel - onHand);
}

/** Inventory turns = COGS / average inventory value, 2 decimals; null without inventory. */
export function inventoryTurns(cogs: number, averageInventoryValue: number): number | null {
  return averageInventoryValue <= 0 ? null : Math.round((cogs / averageInventoryValue) * 100) / 100;
}

/**
 * Days of inventory = days / turns, from the unrounded figures (days x average inventory value /
 * COGS), 1 decimal: turns rounded first would read 0.02 for 0.0204 (1,500 days, not 1,470) and
 * 0.00 (no figure) for a COGS that is not 0. Null without COGS or without inventory.
 */
export function daysOfInventory(days: number, cogs: number, averageInventoryValue: number): number | null {
  return cogs === 0 || averageInventoryValue <= 0 ? null : Math.round(((days * averageInventoryValue) / cogs) * 10) / 10;
}

/** Dead stock: on hand > 0 and no sale in the 90 days up to `today` (never sold counts as none). */
export const DEAD_STOCK_DAYS = 90;
export function isDeadStock(onHand: number, lastSaleDay: number | null, today: number): boolean {
  return onHand > 0 && (lastSaleDay === null || lastSaleDay <= today - DEAD_STOCK_DAYS);
}
