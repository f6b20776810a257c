import { applyBasisPoints } from '@pos/kernel';
import { Discount } from './pricing.types';

/** A user's discount limits: percent in basis points, amount in minor units. */
export interface DiscountLimits {
  maxPercentBp: number;
  maxAmount: number;
}

/** A manual discount beyond the cashier's limits: what an approval must cover. */
export interface DiscountBeyondLimit {
  /** The discount an approval token must name (the one asked for, or the override as an amount). */
  discount: Discount;
  percentBp: number;
  amount: number;
}

export interface PricedLineFacts {
  quantity: number;
  /** The server's unit price before any manual price. */
  serverUnitPrice: number;
  /** The unit price charged (a client price below the server's is a manual override). */
  unitPrice: number;
  manualDiscount: number;
  cartDiscount: number;
  net: number;
  /** The line discount the cashier asked for, if any. */
  requested?: Discount;
}

/** Whether a discount stays within a user's limits. */
export function withinLimits(limits: DiscountLimits, discount: { percentBp: number; amount: number }): boolean {
  return discount.percentBp <= limits.maxPercentBp && discount.amount <= limits.maxAmount;
}

/** A stable text form of a discount (approval tokens are bound to it). */
export function discountKey(d: Discount): string {
  return d.type === 'percent' ? `percent:${d.valueBp}` : `amount:${d.value}`;
}

/**
 * The money an approval covers, in minor units at the store's shelf prices (what limits judge):
 * a percent discount taken of `base` (the amount before it) as the engine takes it, half away from
 * zero and never more than the base; an amount discount's value, never more than a base when one
 * is given. A percent without a base has no amount (null): it cannot be approved.
 */
export function approvedAmount(discount: Discount, base: number | undefined): number | null {
  if (discount.type === 'amount') return base === undefined ? discount.value : Math.min(discount.value, base);
  if (base === undefined) return null;
  return Math.min(applyBasisPoints(base, Math.min(discount.valueBp, 10000)), base);
}

/** A discount as limits judge it: a percent by the percent asked for, an amount by its share of the base (0 without one). */
export function judgedDiscount(discount: Discount, amount: number, base: number | undefined): { percentBp: number; amount: number } {
  if (discount.type === 'percent') return { percentBp: discount.valueBp, amount };
  return { percentBp: base ? Math.round((amount * 10000) / base) : 0, amount };
}

/**
 * Which manual discounts of a priced cart exceed the cashier's limits. A line's manual discount
 * is its line discount plus any price typed below the server's; a percent discount is judged by
 * the percent asked for, not by its rounded effect (10% of 3.49 is 0.35, which is 10.03%). The
 * cart discount is judged against the lines' net before it.
 */
export function discountsBeyondLimits(
  lines: PricedLineFacts[],
  cartRequested: Discount | undefined,
  limits: DiscountLimits,
): { lines: (DiscountBeyondLimit | null)[]; cart: DiscountBeyondLimit | null } {
  const out = lines.map((l): DiscountBeyondLimit | null => {
    const server = l.serverUnitPrice * l.quantity;
    const override = Math.max(0, server - l.unitPrice * l.quantity);
    const amount = l.manualDiscount + override;
    if (amount <= 0) return null;
    const percentBp = l.requested?.type === 'percent' && override === 0 ? l.requested.valueBp : server > 0 ? Math.round((amount * 10000) / server) : 10000;
    if (withinLimits(limits, { percentBp, amount })) return null;
    return { discount: l.requested && override === 0 ? l.requested : { type: 'amount', value: amount }, percentBp, amount };
  });
  const cartAmount = lines.reduce((a, l) => a + l.cartDiscount, 0);
  if (cartAmount <= 0 || !cartRequested) return { lines: out, cart: null };
  const base = lines.reduce((a, l) => a + l.net + l.cartDiscount, 0);
  const percentBp = cartRequested.type === 'percent' ? cartRequested.valueBp : base > 0 ? Math.round((cartAmount * 10000) / base) : 10000;
  const cart = withinLimits(limits, { percentBp, amount: cartAmount }) ? null : { discount: cartRequested, percentBp, amount: cartAmount };
  return { lines: out, cart };
}
