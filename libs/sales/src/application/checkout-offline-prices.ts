import { Injectable } from '@nestjs/common';
import { Clock } from '@pos/kernel';
import { Principal } from '@pos/identity';
import { ItemPriceHistory } from '@pos/catalog';
import { AuditLog } from '@pos/platform';
import { ApprovalUse, DiscountApprovalService, PricedCartResult, PricingService } from '@pos/pricing';
import { CheckoutInput, UnapprovedDiscount } from './checkout.types';
import { judgeOfflinePrices, NEEDS_REVIEW, OfflineLineFacts, OfflinePriceJudgement } from './offline-price-policy';
import { SaleReviewLine, SaleReviewRepository } from './sale-review.ports';
import { SaleRecord } from './sale.ports';

/** The judgement of an offline sale's prices, made before anything is written. */
export interface OfflinePriceCheck {
  at: Date;
  /** The lines charged below their reference, with how each was settled. */
  lines: OfflinePriceJudgement[];
  /** Explicit line and cart discounts beyond the cashier's limits that no token covers (per line). */
  discounts: SaleReviewLine[];
}

/**
 * Checkout step for offline sales (sync upload): is the price the terminal charged one the shop
 * set? A terminal's price is compared with the server's reference for the same cart, customer
 * and moment (`offline_created_at`): the engine's price then (books and rules in force then), on
 * the base price in force then when the catalog's price history says it was lower than today's
 * (a terminal never gets flagged for charging either). At or above the reference: accepted as is.
 * Below it, the difference is a manual markdown judged by the cashier's discount limits, as at
 * the till (offline-price-policy); beyond them without a valid approval token the sale is still
 * recorded (the goods left the shop) but flagged for review (`sale_reviews`). So is an explicit
 * line or cart discount beyond the limits that no token covers (the till would have refused it with
 * a 403; an offline sale already happened). Every sale charged below its reference or flagged leaves
 * a `sale.offline_price` audit entry.
 */
@Injectable()
export class CheckoutOfflinePrices {
  constructor(
    private readonly pricing: PricingService,
    private readonly history: ItemPriceHistory,
    private readonly approvals: DiscountApprovalService,
    private readonly reviews: SaleReviewRepository,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
  ) {}

  /** Judges the offline-priced lines and unapproved discounts of a priced cart (null: nothing to record). Writes nothing. */
  async judge(principal: Principal, input: CheckoutInput, priced: PricedCartResult, unapproved: UnapprovedDiscount[] = []): Promise<OfflinePriceCheck | null> {
    const at = input.offlineCreatedAt;
    if (at === undefined) return null;
    const discounts = unapproved.flatMap((u) => discountReviewLines(u, priced));
    const offline = priced.cart.lines.map((l, i) => ({ l, i })).filter(({ l }) => l.priceSource === 'offline');
    if (offline.length === 0) return discounts.length ? { at, lines: [], discounts } : null;
    const then = await this.history.basePricesAt([...new Set(offline.map(({ l }) => l.itemId))], at);
    const lower = new Map([...then].filter(([itemId, price]) => price < (priced.items.get(itemId)?.basePrice ?? price)));
    // The server's own pricing of the same cart then: no terminal price, no manual or cart discount.
    const reference = await this.pricing.price(principal, {
      storeId: priced.store.id,
      customerId: input.customerId,
      taxExempt: input.taxExempt,
      taxExemptReason: input.taxExemptReason,
      at,
      basePrices: lower.size ? lower : undefined,
      lines: input.items.map((l) => ({ itemId: l.itemId, quantity: l.qty, unitId: l.unitId })),
    });
    const facts: OfflineLineFacts[] = offline.map(({ l, i }) => {
      const ref = reference.cart.lines[i];
      return {
        line: i,
        itemId: l.itemId,
        quantity: l.quantity,
        unitPrice: l.unitPrice,
        manualDiscount: l.manualDiscount,
        referenceUnitPrice: ref.unitPrice,
        referenceAmount: ref.gross - ref.ruleDiscount - ref.bundleDiscount,
      };
    });
    // Every use of a token so far is verified together: a token presented on two lines covers its
    // approved amount once, as at the till.
    const uses: ApprovalUse[] = [];
    const lines = judgeOfflinePrices(facts, principal.discountLimits, (line, itemId, discount) => {
      const token = input.items[line].discountApprovalToken;
      if (!token) return undefined;
      uses.push({ token, scope: { storeId: input.storeId, target: { itemId }, discount, cartReference: input.idempotencyKey } });
      return this.approvals.verifyUses(principal, uses)[uses.length - 1];
    });
    return { at, lines, discounts };
  }

  /** In the sale's transaction, once it is written: the review of a flagged sale and the audit entry. */
  async record(sale: SaleRecord, check: OfflinePriceCheck | null): Promise<void> {
    if (!check || check.lines.length + check.discounts.length === 0) return;
    const flaggedPrices = check.lines.filter((l) => NEEDS_REVIEW.has(l.decision));
    const flagged = [
      ...flaggedPrices.map((l): SaleReviewLine => ({
        line: l.line,
        itemId: l.itemId,
        quantity: l.quantity,
        unitPrice: l.unitPrice,
        amount: l.amount,
        referenceUnitPrice: l.referenceUnitPrice,
        referenceAmount: l.referenceAmount,
        difference: l.difference,
        percentBp: l.percentBp,
        decision: l.decision as SaleReviewLine['decision'],
      })),
      // A line already flagged for its price carries its own discount in that difference.
      ...check.discounts.filter((d) => !(d.decision.startsWith('line_') && flaggedPrices.some((p) => p.line === d.line))),
    ];
    const review = flagged.length
      ? await this.reviews.create({
          saleId: sale.id,
          storeId: sale.storeId,
          userId: sale.userId,
          receiptNumber: sale.receiptNumber,
          reason: flaggedPrices.length ? 'offline_price_below_reference' : 'offline_discount_beyond_limits',
          currencyCode: sale.currencyCode,
          lines: flagged,
          difference: flagged.reduce((a, l) => a + l.difference, 0),
          saleCreatedAt: sale.createdAt,
          createdAt: new Date(Math.floor(this.clock.now().getTime() / 1000) * 1000),
          resolvedAt: null,
          resolvedBy: null,
          resolutionNote: null,
        })
      : null;
    await this.audit.record({
      action: 'sale.offline_price',
      target: { type: 'sale', id: sale.id },
      storeId: sale.storeId,
      after: {
        minor_units: true,
        offline_created_at: check.at.toISOString(),
        review_id: review?.id ?? null,
        lines: check.lines.map((l) => ({
          line: l.line,
          item_id: l.itemId,
          quantity: l.quantity,
          unit_price: l.unitPrice,
          manual_discount: l.manualDiscount,
          amount: l.amount,
          reference_unit_price: l.referenceUnitPrice,
          reference_amount: l.referenceAmount,
          difference: l.difference,
          percent_bp: l.percentBp,
          decision: l.decision,
          approved_by: l.approvedBy,
        })),
        discounts_beyond_limits: check.discounts,
      },
    });
  }
}

/**
 * An unapproved explicit discount as review lines, in shelf amounts (as limits judge them): a
 * line discount on its line; a cart discount on each line it was shared over (its share).
 */
function discountReviewLines(u: UnapprovedDiscount, priced: PricedCartResult): SaleReviewLine[] {
  const line = (i: number, difference: number, kind: 'line' | 'cart'): SaleReviewLine => {
    const l = priced.cart.lines[i];
    const before = l.gross - l.ruleDiscount - l.bundleDiscount - (kind === 'cart' ? l.manualDiscount : 0);
    return {
      line: i,
      itemId: l.itemId,
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      amount: before - difference,
      referenceUnitPrice: l.unitPrice,
      referenceAmount: before,
      difference,
      percentBp: u.percentBp,
      decision: `${kind}_discount_${u.tokenRefused ? 'approval_invalid' : 'beyond_limits'}`,
    };
  };
  if (u.target !== 'cart') return [line(u.target, priced.cart.lines[u.target].manualDiscount, 'line')];
  return priced.cart.lines.flatMap((l, i) => (l.cartDiscount > 0 ? [line(i, l.cartDiscount, 'cart')] : []));
}
