import { defineDomainEvent, defineEvent } from '@pos/platform';
import type { SaleItemRecord, SalePaymentRecord, SaleRecord } from './sale.ports';
import type { SaleDetailView } from './sale.views';

/** Integration events (webhooks): the public sale detail. */
export const SaleCompleted = defineEvent<{ sale: SaleDetailView }>('sale.completed');
export const SaleVoided = defineEvent<{ sale: SaleDetailView; refunded: number; reason: string | null }>('sale.voided');

/** A sale as its records (minor units): what in-process subscribers (e.g. report rollups) receive. */
export interface SaleFacts {
  sale: SaleRecord;
  items: SaleItemRecord[];
  payments: SalePaymentRecord[];
}

/** Published in the checkout transaction once the sale, its lines and payments are written. */
export const SaleRecordedFacts = defineDomainEvent<SaleFacts>('sales.sale-recorded');

/** Published in the void's transaction: the sale as it was sold (status now voided), who voided it and when. */
export const SaleVoidedFacts = defineDomainEvent<SaleFacts & { voidedBy: number; at: Date }>('sales.sale-voided');
