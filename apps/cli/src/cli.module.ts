import { DynamicModule, Module } from '@nestjs/common';
import { DemoModule } from '@pos/demo';
import { IdentityModule } from '@pos/identity';
import { PricingModule } from '@pos/pricing';
import { ReturnsModule } from '@pos/returns';
import { WebhooksModule } from '@pos/webhooks';
import { IntegrationModule } from '@pos/integration';
import { AppConfig, ConfigModule, DatabaseModule, MetricsModule, QueueModule, RedisModule } from '@pos/platform';

@Module({})
export class CliModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: CliModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule.forRoot(config),
        RedisModule,
        QueueModule.forRoot('cli'),
        MetricsModule,
        IdentityModule,
        PricingModule,
        IntegrationModule,
        // Reports reach the sessions context, whose SessionService needs the refund totals ReturnsModule binds.
        ReturnsModule,
        DemoModule,
        WebhooksModule,
      ],
    };
  }
}
