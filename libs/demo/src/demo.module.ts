import { Module } from '@nestjs/common';
import { IdentityModule } from '@pos/identity';
import { IntegrationModule } from '@pos/integration';
import { DemoDataOnFirstStart, DemoDataService } from './demo-data.service';

@Module({
  imports: [IdentityModule, IntegrationModule],
  providers: [DemoDataService, DemoDataOnFirstStart],
  exports: [DemoDataService],
})
export class DemoModule {}
