import { defineDomainEvent, defineEvent } from '@pos/platform';
import type { SaleItemRecord, SalePaymentRecord, SaleRecord } from './sale.ports';
import type { invoiceView, SaleDetailView } from './sale.views';

/** Integration events (webhooks): the public sale detail. */
export const SaleCompleted = defineEvent<{ sale: SaleDetailView }>('sale.completed');
export const SaleVoided = defineEvent<{ sale: SaleDetailView; refunded: number; reason: string | null }>('sale.voided');

/** A later payment of an invoice, as GET /invoices/{invoice} shows payments. */
export interface InvoicePaymentView {
  id: number;
  payment_method_code: string;
  amount: number;
  reference: string | null;
  user_id: number;
  created_at: string;
}
export type InvoiceDetailView = ReturnType<typeof invoiceView> & { payments: InvoicePaymentView[] };
/** The invoice after the payment (status, paid, balance) and the payment recorded. */
export const InvoicePaymentRecorded = defineEvent<{ invoice: InvoiceDetailView; payment: InvoicePaymentView }>('invoice.payment_recorded');

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
