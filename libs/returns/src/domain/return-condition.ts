/**
 * The condition a returned item comes back in, and what becomes of it:
 *  - resellable, opened: can go back into sellable stock (`restock`, the default for them);
 *  - damaged, defective: written off as `damage`; spoiled: written off as `spoilage`
 *    (never restocked);
 *  - a resellable item not restocked (e.g. the customer keeps it) moves no stock.
 */
export const RETURN_CONDITIONS = ['resellable', 'opened', 'damaged', 'defective', 'spoiled'] as const;
export type ReturnCondition = (typeof RETURN_CONDITIONS)[number];

export const DEFAULT_CONDITION: ReturnCondition = 'resellable';

export function canRestock(condition: ReturnCondition): boolean {
  return condition === 'resellable' || condition === 'opened';
}

/** The stock movement that writes off goods that cannot be sold again (none for sellable goods). */
export function writeOffType(condition: ReturnCondition): 'damage' | 'spoilage' | null {
  if (condition === 'spoiled') return 'spoilage';
  if (condition === 'damaged' || condition === 'defective') return 'damage';
  return null;
}

/** What happens to the goods of a processed return line. */
export function stockAction(condition: ReturnCondition, restock: boolean): 'restock' | 'damage' | 'spoilage' | 'none' {
  if (restock) return 'restock';
  return writeOffType(condition) ?? 'none';
}
