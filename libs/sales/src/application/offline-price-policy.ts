import { Discount, DiscountLimits, discountsBeyondLimits } from '@pos/pricing';

/**
 * An offline line as the terminal priced it, beside the server's reference for it. Amounts are
 * minor units as the store shows prices (tax included in a tax-inclusive store).
 */
export interface OfflineLineFacts {
  /** Position in the cart. */
  line: number;
  itemId: number;
  quantity: number;
  /** The unit price the terminal charged. */
  unitPrice: number;
  /** The line's own (explicit) discount, taken off after the terminal's price. */
  manualDiscount: number;
  /** The server's unit price at the time of the sale (base or book, then rules). */
  referenceUnitPrice: number;
  /** The server's amount for the line at that time before any manual discount (rules, buy-X-get-Y and bundles applied). */
  referenceAmount: number;
}

/** How a line charged below its reference was settled. */
export type OfflinePriceDecision = 'within_limits' | 'approved' | 'beyond_limits' | 'approval_invalid';

export interface OfflinePriceJudgement extends OfflineLineFacts {
  /** What the customer was charged for the line before the cart discount: unitPrice x quantity - manualDiscount. */
  amount: number;
  /** referenceAmount - amount: the markdown judged against the cashier's limits. */
  difference: number;
  /** The markdown as a share of the reference, in basis points. */
  percentBp: number;
  decision: OfflinePriceDecision;
  approvedBy: number | null;
}

/**
 * An approval for a line's markdown: the approver's id when the line's token verifies for exactly
 * that discount, null when a token was given and does not verify, undefined when none was given.
 */
export type ApproveMarkdown = (line: number, itemId: number, discount: Discount) => number | null | undefined;

/** Decisions that leave the sale recorded but flagged for a manager's review. */
export const NEEDS_REVIEW: ReadonlySet<OfflinePriceDecision> = new Set(['beyond_limits', 'approval_invalid']);

/**
 * Judges the lines an offline terminal priced against the server's reference. A line charged at
 * or above its reference is its price list and needs nothing. Below it, the difference (with the
 * line's own discount) is a manual markdown judged by the same policy as a price typed at the
 * till (`discountsBeyondLimits`): within the cashier's limits it stands; beyond them it stands only
 * with an approval token for exactly that markdown. Unlike the till, a sale is never refused here
 * (the goods left the shop): the judgement decides whether it is flagged for review.
 */
export function judgeOfflinePrices(lines: OfflineLineFacts[], limits: DiscountLimits, approve: ApproveMarkdown): OfflinePriceJudgement[] {
  const out: OfflinePriceJudgement[] = [];
  for (const l of lines) {
    const charged = l.unitPrice * l.quantity;
    if (charged >= l.referenceAmount) continue;
    // One "unit" of the whole line: the reference may hold buy-X-get-Y or bundle savings no unit price shows.
    const { lines: beyond } = discountsBeyondLimits(
      [{ quantity: 1, serverUnitPrice: l.referenceAmount, unitPrice: charged, manualDiscount: l.manualDiscount, cartDiscount: 0, net: 0 }],
      undefined,
      limits,
    );
    const difference = l.referenceAmount - charged + l.manualDiscount;
    const percentBp = l.referenceAmount > 0 ? Math.round((difference * 10000) / l.referenceAmount) : 10000;
    const base = { ...l, amount: charged - l.manualDiscount, difference, percentBp };
    const need = beyond[0];
    if (!need) {
      out.push({ ...base, decision: 'within_limits', approvedBy: null });
      continue;
    }
    const approver = approve(l.line, l.itemId, need.discount);
    if (typeof approver === 'number') out.push({ ...base, decision: 'approved', approvedBy: approver });
    else out.push({ ...base, decision: approver === null ? 'approval_invalid' : 'beyond_limits', approvedBy: null });
  }
  return out;
}
