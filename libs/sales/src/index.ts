/**
 * The sales context's published interface: checkout, sales history, receipts, voids and
 * invoices (their use cases and views), SaleReturns (how the returns context reads a sale and
 * records a processed return on it), the sale events (integration events for webhooks, domain
 * facts in minor units for in-process subscribers), and the sale records those facts carry.
 */
export { SalesModule } from './sales.module';
export { CheckoutService } from './application/checkout.service';
export type { CheckoutInput, CheckoutLineInput, CheckoutPaymentInput, CheckoutOutcome, OfflineSaleTimes } from './application/checkout.service';
export { SaleService, InvoiceService } from './application/sale.service';
export { SaleReviewService } from './application/sale-review.service';
export type { SaleReviewView } from './application/sale-review.service';
export { SaleReceipts } from './application/sale-receipts';
export { OpenReturns, SaleReturns, RETURNABLE_SALE_STATUSES } from './application/sale-returns';
export type { ReturnableSale, ReturnedLine, SaleTender } from './application/sale-returns';
export { SaleViews, invoiceView } from './application/sale.views';
export { SaleFactsReader, ReceivablesReader } from './application/sale-read-models';
export type { SaleDetailView } from './application/sale.views';
export * from './application/sale.events';
export type { SaleRecord, SaleItemRecord, SalePaymentRecord, InvoiceRecord } from './application/sale.ports';
export type { AgingFilter, AgingGroup, ReceivableFilter, ReceivableGroup } from './application/sale-queries.ports';
export { settle } from './domain/payments';
export { offlineTimeProblem } from './domain/offline-policy';
export type { OfflineWindow } from './domain/offline-policy';
export type { Settlement, Tender, TenderType } from './domain/payments';
