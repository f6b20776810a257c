import { Module } from '@nestjs/common';
import { CatalogModule } from '@pos/catalog';
import { CustomersModule } from '@pos/customers';
import { IdentityModule } from '@pos/identity';
import { IntegrationModule } from '@pos/integration';
import { PricingModule } from '@pos/pricing';
import { ReturnsModule } from '@pos/returns';
import { SalesModule } from '@pos/sales';
import { SessionsModule } from '@pos/sessions';
import { DemoDataOnFirstStart, DemoDataService } from './demo-data.service';
import { DemoHistoryService } from './history/demo-history.service';

@Module({
  imports: [IdentityModule, IntegrationModule, CatalogModule, CustomersModule, PricingModule, SalesModule, SessionsModule, ReturnsModule],
  providers: [DemoDataService, DemoDataOnFirstStart, DemoHistoryService],
  exports: [DemoDataService],
})
export class DemoModule {}
