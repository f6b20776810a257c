import { Injectable } from '@nestjs/common';
import { Clock } from '@pos/kernel';
import { Principal } from '@pos/identity';
import { ItemPriceHistory } from '@pos/catalog';
import { AuditLog } from '@pos/platform';
import { DiscountApprovalService, PricedCartResult, PricingService } from '@pos/pricing';
import { CheckoutInput } from './checkout.types';
import { judgeOfflinePrices, NEEDS_REVIEW, OfflineLineFacts, OfflinePriceJudgement } from './offline-price-policy';
import { SaleReviewLine, SaleReviewRepository } from './sale-review.ports';
import { SaleRecord } from './sale.ports';

/** The judgement of an offline sale's prices, made before anything is written. */
export interface OfflinePriceCheck {
  at: Date;
  /** The lines charged below their reference, with how each was settled. */
  lines: OfflinePriceJudgement[];
}

/**
 * Checkout step for offline sales (sync upload): is the price the terminal charged one the shop
 * set? A terminal's price is compared with the server's reference for the same cart, customer
 * and moment (`offline_created_at`): the engine's price then (books and rules in force then), on
 * the base price in force then when the catalog's price history says it was lower than today's
 * (a terminal never gets flagged for charging either). At or above the reference: accepted as is.
 * Below it, the difference is a manual markdown judged by the cashier's discount limits, as at
 * the till (offline-price-policy); beyond them without a valid approval token the sale is still
 * recorded (the goods left the shop) but flagged for review (`sale_reviews`). Every sale charged
 * below its reference leaves a `sale.offline_price` audit entry, flagged or not.
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

  /** Judges the offline-priced lines of a priced cart (null: none, nothing to record). Writes nothing. */
  async judge(principal: Principal, input: CheckoutInput, priced: PricedCartResult): Promise<OfflinePriceCheck | null> {
    const at = input.offlineCreatedAt;
    const offline = priced.cart.lines.map((l, i) => ({ l, i })).filter(({ l }) => l.priceSource === 'offline');
    if (at === undefined || offline.length === 0) return null;
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
    const lines = judgeOfflinePrices(facts, principal.discountLimits, (line, itemId, discount) => {
      const token = input.items[line].discountApprovalToken;
      if (!token) return undefined;
      return this.approvals.verify(token, principal, { storeId: input.storeId, target: { itemId }, discount, cartReference: input.idempotencyKey });
    });
    return { at, lines };
  }

  /** In the sale's transaction, once it is written: the review of a flagged sale and the audit entry. */
  async record(sale: SaleRecord, check: OfflinePriceCheck | null): Promise<void> {
    if (!check || check.lines.length === 0) return;
    const flagged = check.lines.filter((l) => NEEDS_REVIEW.has(l.decision));
    const review = flagged.length
      ? await this.reviews.create({
          saleId: sale.id,
          storeId: sale.storeId,
          userId: sale.userId,
          receiptNumber: sale.receiptNumber,
          reason: 'offline_price_below_reference',
          currencyCode: sale.currencyCode,
          lines: flagged.map((l): SaleReviewLine => ({
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
      },
    });
  }
}
