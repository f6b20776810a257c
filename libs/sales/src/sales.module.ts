import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '@pos/catalog';
import { CustomerReceivables, CustomersModule } from '@pos/customers';
import { PricingModule } from '@pos/pricing';
import { SessionSalesTotals, SessionsModule } from '@pos/sessions';
import { CheckoutService } from './application/checkout.service';
import { CheckoutCompletion } from './application/checkout-completion';
import { CheckoutDiscounts } from './application/checkout-discounts';
import { CheckoutLines } from './application/checkout-lines';
import { CheckoutOfflinePrices } from './application/checkout-offline-prices';
import { CheckoutPreparation } from './application/checkout-preparation';
import { SaleReviewRepository } from './application/sale-review.ports';
import { SaleReviewService } from './application/sale-review.service';
import { CheckoutPayments } from './application/checkout-payments';
import { CheckoutRecords } from './application/checkout-records';
import { InvoiceRepository } from './application/invoice.ports';
import { SaleQueries } from './application/sale-queries.ports';
import { SaleRepository } from './application/sale.ports';
import { InvoiceService, SaleService } from './application/sale.service';
import { SaleVoids } from './application/sale-voids';
import { SaleVoidCompletion } from './application/sale-void-completion';
import { SaleReturns } from './application/sale-returns';
import { SaleReceipts } from './application/sale-receipts';
import { SaleViews } from './application/sale.views';
import { ReceivablesReader, SaleFactsReader } from './application/sale-read-models';
import { SALE_ENTITIES } from './infrastructure/sale.entities';
import { TypeOrmSaleRepository } from './infrastructure/sale.repository';
import { TypeOrmInvoiceRepository } from './infrastructure/invoice.repository';
import { SqlSaleQueries } from './infrastructure/sale-queries.repository';
import { SaleReviewEntity, TypeOrmSaleReviewRepository } from './infrastructure/sale-review.repository';
import { SaleSessionTotals } from './infrastructure/session-sales.totals';
import { SaleCustomerReceivables } from './infrastructure/customer-receivables';

/** Checkout, sales, receipts, voids and invoices. */
@Module({
  imports: [TypeOrmModule.forFeature([...SALE_ENTITIES, SaleReviewEntity]), CatalogModule, CustomersModule, PricingModule, SessionsModule],
  providers: [
    CheckoutService,
    CheckoutPreparation,
    CheckoutDiscounts,
    CheckoutLines,
    CheckoutPayments,
    CheckoutOfflinePrices,
    CheckoutRecords,
    CheckoutCompletion,
    SaleReviewService,
    { provide: SaleReviewRepository, useClass: TypeOrmSaleReviewRepository },
    SaleService,
    SaleVoids,
    SaleVoidCompletion,
    SaleReceipts,
    InvoiceService,
    SaleViews,
    SaleReturns,
    SaleFactsReader,
    ReceivablesReader,
    { provide: SessionSalesTotals, useClass: SaleSessionTotals },
    { provide: CustomerReceivables, useClass: SaleCustomerReceivables },
    { provide: SaleRepository, useClass: TypeOrmSaleRepository },
    { provide: InvoiceRepository, useClass: TypeOrmInvoiceRepository },
    { provide: SaleQueries, useClass: SqlSaleQueries },
  ],
  exports: [
    CheckoutService,
    SaleReviewService,
    SaleService,
    SaleReceipts,
    InvoiceService,
    SaleViews,
    SaleReturns,
    SaleFactsReader,
    ReceivablesReader,
    SessionSalesTotals,
    CustomerReceivables,
  ],
})
export class SalesModule {}
