import { Module } from '@nestjs/common';
import { IdentityModule } from '@pos/identity';
import { DemoDataOnFirstStart, DemoDataService } from './demo-data.service';

@Module({
  imports: [IdentityModule],
  providers: [DemoDataService, DemoDataOnFirstStart],
  exports: [DemoDataService],
})
export class DemoModule {}
