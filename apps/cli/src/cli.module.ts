import { DynamicModule, Module } from '@nestjs/common';
import { DemoModule } from '@pos/demo';
import { IdentityModule } from '@pos/identity';
import { PricingModule } from '@pos/pricing';
import { WebhooksModule } from '@pos/webhooks';
import { IntegrationModule } from '@pos/integration';
import { ReturnsModule } from '@pos/returns';
import { AppConfig, ConfigModule, DatabaseModule, QueueModule, RedisModule } from '@pos/platform';

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
        IdentityModule,
        PricingModule,
        IntegrationModule,
        ReturnsModule,
        DemoModule,
        WebhooksModule,
      ],
    };
  }
}
