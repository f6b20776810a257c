import { roundHalfAwayFromZero } from '@pos/kernel';

/** A sale line as sold (minor units): what the customer paid for its `quantity` units. */
export interface SoldLine {
  quantity: number;
  /** What the line cost the customer (after line, rule, bundle and cart discounts, with tax). */
  total: number;
  /** Tax in that total. */
  tax: number;
  /** Cost of one sale unit at sale time (the line's snapshot). */
  unitCost: number;
}

/** Units of a line held by live returns (pending, approved, processed) and the refunds they carry. */
export interface LineClaims {
  quantity: number;
  total: number;
  tax: number;
}

export interface LineRefund {
  /** Net refunded, before tax in either tax mode (total - tax), as sale lines record their net. */
  net: number;
  tax: number;
  total: number;
  /** Cost of the returned units (reverses COGS). */
  cost: number;
}

export const NO_CLAIMS: LineClaims = { quantity: 0, total: 0, tax: 0 };

/**
 * The refund for `quantity` more units of a line, given what live returns already hold.
 *
 * The customer gets back what they paid for those units, to the minor unit: the part without
 * tax and the tax are each shared over the line's units cumulatively (what k units are worth is
 * round(amount x k / quantity), half away from zero) and a return gets the worth of the units
 * held after it minus what the earlier returns already hold. So partial returns add up exactly
 * to the line (the last unit takes the rounding remainder), never exceed it, and each is within
 * a minor unit of its exact share. Both parts are shared separately, so neither goes negative.
 * When an earlier return was cancelled the held amounts may be off the cumulative share by a
 * cent; the next return evens it out (never below zero, never beyond what is left).
 */
export function lineRefund(line: SoldLine, claimed: LineClaims, quantity: number): LineRefund {
  if (!Number.isSafeInteger(quantity) || quantity < 1) throw new RangeError('quantity must be a positive integer');
  const after = claimed.quantity + quantity;
  if (after > line.quantity) throw new RangeError('more units than the line has left');
  const base = line.total - line.tax;
  const claimedBase = claimed.total - claimed.tax;
  const last = after === line.quantity;
  const share = (amount: number, held: number) => {
    const left = amount - held;
    if (last) return left;
    const worth = Number(roundHalfAwayFromZero(BigInt(amount) * BigInt(after), BigInt(line.quantity)));
    return Math.min(Math.max(worth - held, 0), left);
  };
  const baseRefund = share(base, claimedBase);
  const tax = share(line.tax, claimed.tax);
  return { net: baseRefund, tax, total: baseRefund + tax, cost: line.unitCost * quantity };
}

/** The claims after a return taking `refund` for `quantity` units (or giving them back with a negative sign). */
export function addClaim(claimed: LineClaims, quantity: number, refund: { total: number; tax: number }, sign: 1 | -1 = 1): LineClaims {
  return { quantity: claimed.quantity + sign * quantity, total: claimed.total + sign * refund.total, tax: claimed.tax + sign * refund.tax };
}
