import { Injectable } from '@nestjs/common';
import { AuditLog, ChangeLog, DomainEvents } from '@pos/platform';
import { SaleVoided, SaleVoidedFacts } from './sale.events';
import { SaleItemRecord, SaleRecord, SaleRepository } from './sale.ports';
import { SaleDetailView, SaleViews } from './sale.views';

/**
 * The last step of a void, in its transaction, once the sale, its stock and its invoice are
 * changed: the sale.voided event (its detail, read back, is also the response: a refund of what
 * was paid), the audit entry and the domain facts for in-process subscribers (report rollups).
 */
@Injectable()
export class SaleVoidCompletion {
  constructor(
    private readonly sales: SaleRepository,
    private readonly views: SaleViews,
    private readonly changes: ChangeLog,
    private readonly audit: AuditLog,
    private readonly domainEvents: DomainEvents,
  ) {}

  async complete(before: SaleRecord, voided: SaleRecord, items: SaleItemRecord[], now: Date): Promise<SaleDetailView> {
    const reason = voided.voidReason;
    const detail = await this.views.detail(voided.id, now);
    await this.changes.event(SaleVoided, { sale: detail, refunded: detail.paid_amount, reason }, voided.storeId);
    await this.audit.record({
      action: 'sale.voided',
      target: { type: 'sale', id: voided.id },
      storeId: voided.storeId,
      before: { status: before.status },
      after: { status: 'voided', reason, refunded: detail.paid_amount },
    });
    await this.domainEvents.publish(SaleVoidedFacts, {
      sale: voided,
      items,
      payments: await this.sales.payments([voided.id]),
      voidedBy: voided.voidedBy!,
      at: now,
    });
    return detail;
  }
}
