import { Injectable } from '@nestjs/common';
import { fromMinor } from '@pos/kernel';
import { Principal } from '@pos/identity';
import { DiscountApprovalService, DiscountBeyondLimit, discountsBeyondLimits, PricedCartResult } from '@pos/pricing';
import { SaleErrors } from '../domain/sale.errors';
import { CheckoutInput, DiscountApprovals, UnapprovedDiscount } from './checkout.types';

/** A discount beyond the cashier's limits, and the token presented for it. */
interface Wanted {
  need: DiscountBeyondLimit;
  what: string;
  token: string | undefined;
  target: 'cart' | { itemId: number };
  at: number | 'cart';
}

/**
 * Checkout step: a cashier's manual discounts (line discounts and prices typed below the
 * server's) must stay within their limits (the pricing policy), else carry a valid approval
 * token for exactly that discount on exactly this cart, covering the money it comes to here (a
 * token presented on several lines covers its approved amount once): 403 without one. An offline
 * terminal's price is the price list it had, not a discount: only its explicit discounts are judged,
 * and an offline sale is never refused for them (the goods left the shop): an explicit discount
 * beyond the limits that no token covers is returned as `unapproved`, and the sale is flagged for
 * review (CheckoutOfflinePrices).
 */
@Injectable()
export class CheckoutDiscounts {
  constructor(private readonly approvals: DiscountApprovalService) {}

  approve(principal: Principal, input: CheckoutInput, priced: PricedCartResult, offline = false): DiscountApprovals {
    const m = (v: number) => fromMinor(v, priced.decimals);
    const beyond = discountsBeyondLimits(
      priced.cart.lines.map((l, i) => ({
        ...l,
        serverUnitPrice: offline && l.priceSource === 'offline' ? l.unitPrice : priced.serverUnitPrices[i],
        requested: input.items[i].discount,
      })),
      input.cartDiscount,
      principal.discountLimits,
    );
    const lines = beyond.lines.map((need, i): Wanted | null =>
      need
        ? { need, what: `discount on items.${i}`, token: input.items[i].discountApprovalToken, target: { itemId: priced.cart.lines[i].itemId }, at: i }
        : null,
    );
    const cart: Wanted | null = beyond.cart
      ? { need: beyond.cart, what: 'cart discount', token: input.cartDiscountApprovalToken, target: 'cart', at: 'cart' }
      : null;
    const wanted = [...lines, cart].filter((w): w is Wanted => w !== null);
    // All uses in one call: the uses of one token share its approved amount.
    const approvers = this.approvals.verifyUses(
      principal,
      wanted.map((w) => ({
        token: w.token,
        scope: { storeId: input.storeId, target: w.target, discount: w.need.discount, cartReference: input.idempotencyKey, amount: w.need.amount },
      })),
    );
    const approverOf = new Map<Wanted, number>();
    const unapproved: UnapprovedDiscount[] = [];
    wanted.forEach((w, k) => {
      const approver = approvers[k];
      if (approver !== null) approverOf.set(w, approver);
      else if (offline) unapproved.push({ target: w.at, amount: w.need.amount, percentBp: w.need.percentBp, tokenRefused: w.token !== undefined });
      else throw SaleErrors.discountRequiresApproval(w.what, m(w.need.amount), w.need.percentBp);
    });
    return {
      approvals: lines.map((w) => (w ? (approverOf.get(w) ?? null) : null)),
      cartApproval: cart ? (approverOf.get(cart) ?? null) : null,
      unapproved,
    };
  }
}
