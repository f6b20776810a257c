import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '@pos/catalog';
import { CustomersModule } from '@pos/customers';
import { PricingModule } from '@pos/pricing';
import { OpenReturns, SalesModule } from '@pos/sales';
import { SessionRefundTotals, SessionsModule } from '@pos/sessions';
import { ReturnRepository } from './application/return.ports';
import { ReturnService } from './application/return.service';
import { ReturnViews } from './application/return.views';
import { ReturnFactsReader } from './application/return-facts.reader';
import { ReturnWorkflowService } from './application/return-workflow.service';
import { RETURN_ENTITIES } from './infrastructure/return.entities';
import { TypeOrmReturnRepository } from './infrastructure/return.repository';
import { ReturnSessionRefunds } from './infrastructure/session-refund.totals';
import { ReturnOpenReturns } from './infrastructure/open-returns';

/**
 * Returns, refunds and credit notes. Reads and changes sales only through what the sales
 * context publishes (SaleReturns); binds the sessions context's SessionRefundTotals port (a
 * session's cash refunds) and the sales context's OpenReturns port (no void while a return is
 * open), which SessionService and SaleService require at boot.
 */
@Module({
  imports: [TypeOrmModule.forFeature(RETURN_ENTITIES), CatalogModule, CustomersModule, PricingModule, SessionsModule, SalesModule],
  providers: [
    ReturnService,
    ReturnWorkflowService,
    ReturnViews,
    ReturnFactsReader,
    { provide: ReturnRepository, useClass: TypeOrmReturnRepository },
    { provide: SessionRefundTotals, useClass: ReturnSessionRefunds },
    { provide: OpenReturns, useClass: ReturnOpenReturns },
  ],
  exports: [ReturnService, ReturnWorkflowService, ReturnViews, ReturnFactsReader, SessionRefundTotals, OpenReturns],
})
export class ReturnsModule {}
