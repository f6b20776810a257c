import { DynamicModule, Module } from '@nestjs/common';
import { IdentityModule } from '@pos/identity';
import { IntegrationModule } from '@pos/integration';
import { PricingModule } from '@pos/pricing';
import { WebhooksModule } from '@pos/webhooks';
import { AppConfig, ConfigModule, DatabaseModule, LoggingModule, MetricsModule, QueueModule, RedisModule } from '@pos/platform';

/**
 * The worker process: no HTTP. Consumes every BullMQ queue and dispatches to the @JobHandler
 * methods of the context modules imported here (the boot check fails if one is missing).
 */
@Module({})
export class WorkerModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggingModule.forRoot(),
        DatabaseModule.forRoot(config),
        RedisModule,
        QueueModule.forRoot('consumer'),
        MetricsModule,
        IdentityModule,
        PricingModule,
        WebhooksModule,
        // the report rollup applier (a periodic task)
        IntegrationModule,
      ],
    };
  }
}
