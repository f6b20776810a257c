import { Injectable } from '@nestjs/common';
import { AuditLog, ChangeLog, DomainEvents } from '@pos/platform';
import { CheckoutOfflinePrices } from './checkout-offline-prices';
import { CheckedSale } from './checkout-preparation';
import { SaleCompleted, SaleRecordedFacts } from './sale.events';
import { WrittenSale } from './checkout.types';
import { SaleItemRecord, SaleRecord } from './sale.ports';
import { SaleDetailView, SaleViews } from './sale.views';

/**
 * Checkout step, last in the sale's transaction: what the sale leaves behind besides its records.
 * The audit entry of manual pricing, an offline sale's review and audit entry, the `sale.completed`
 * integration event (its detail, built from the records in memory, is also the response) and the
 * domain facts for in-process subscribers (report rollups).
 */
@Injectable()
export class CheckoutCompletion {
  constructor(
    private readonly audit: AuditLog,
    private readonly offlinePrices: CheckoutOfflinePrices,
    private readonly views: SaleViews,
    private readonly changes: ChangeLog,
    private readonly domainEvents: DomainEvents,
  ) {}

  async complete(w: WrittenSale, p: CheckedSale, now: Date): Promise<SaleDetailView> {
    const manual = manualPricing(w.items, p);
    if (manual.length) await this.auditManualPricing(w.sale, manual);
    if (p.offlinePrices) await this.offlinePrices.record(w.sale, p.offlinePrices);
    const detail = await this.views.detailOf(w.sale, w.items, w.payments, w.invoice, now);
    await this.changes.event(SaleCompleted, { sale: detail }, p.store.id);
    await this.domainEvents.publish(SaleRecordedFacts, { sale: w.sale, items: w.items, payments: w.payments });
    return detail;
  }

  /** A sale with manual prices or discounts (and who approved them) leaves one audit entry. */
  private async auditManualPricing(sale: SaleRecord, lines: ManualPricingLine[]): Promise<void> {
    await this.audit.record({
      action: 'sale.manual_pricing',
      target: { type: 'sale', id: sale.id },
      storeId: sale.storeId,
      after: { minor_units: true, lines },
    });
  }
}

type ManualPricingLine = ReturnType<typeof manualPricing>[number];

/** The lines priced or discounted by hand, as the audit entry lists them (none: no entry). */
function manualPricing(items: SaleItemRecord[], p: CheckedSale) {
  return items
    .filter((l) => l.priceSource === 'manual' || l.manualDiscount > 0 || l.cartDiscount > 0)
    .map((l) => ({
      line: l.lineNo,
      item_id: l.itemId,
      server_unit_price: p.priced.serverUnitPrices[l.lineNo],
      unit_price: l.unitPrice,
      manual_discount: l.manualDiscount,
      cart_discount: l.cartDiscount,
      reason: l.discountReason,
      approved_by: l.discountApprovedBy,
    }));
}
