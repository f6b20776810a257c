import { Injectable } from '@nestjs/common';
import { fromMinor } from '@pos/kernel';
import { Principal } from '@pos/identity';
import { DiscountApprovalService, discountsBeyondLimits, PricedCartResult } from '@pos/pricing';
import { SaleErrors } from '../domain/sale.errors';
import { CheckoutInput, DiscountApprovals } from './checkout.types';

/**
 * Checkout step: a cashier's manual discounts (line discounts and prices typed below the
 * server's) must stay within their limits (the pricing policy), else carry a valid approval
 * token for exactly that discount on exactly this cart: 403 without one. An offline terminal's
 * price is the price list it had, not a discount: only its explicit discounts are judged.
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
    const approvals = beyond.lines.map((need, i) => {
      if (!need) return null;
      const token = input.items[i].discountApprovalToken;
      const scope = { storeId: input.storeId, target: { itemId: priced.cart.lines[i].itemId }, discount: need.discount, cartReference: input.idempotencyKey };
      const approver = token ? this.approvals.verify(token, principal, scope) : null;
      if (approver === null) {
        throw SaleErrors.discountRequiresApproval(`discount on items.${i}`, m(need.amount), need.percentBp);
      }
      return approver;
    });
    if (!beyond.cart) return { approvals, cartApproval: null };
    const token = input.cartDiscountApprovalToken;
    const scope = { storeId: input.storeId, target: 'cart' as const, discount: beyond.cart.discount, cartReference: input.idempotencyKey };
    const cartApproval = token ? this.approvals.verify(token, principal, scope) : null;
    if (cartApproval === null) {
      throw SaleErrors.discountRequiresApproval('cart discount', m(beyond.cart.amount), beyond.cart.percentBp);
    }
    return { approvals, cartApproval };
  }
}
