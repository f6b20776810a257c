import { DynamicModule, Module, Type } from '@nestjs/common';
import { AppConfig, ConfigModule, DatabaseModule, MetricsModule, QueueModule, RedisModule } from '@pos/platform';

/**
 * The CLI's Nest context: the platform (configuration, database, Redis, queue, metrics) and the
 * feature modules the command at hand needs (runtime/*.ts names them), so `app:create` does not
 * load the reports or the seeders.
 */
@Module({})
export class CliModule {
  static register(config: AppConfig, features: (Type<unknown> | DynamicModule)[]): DynamicModule {
    return {
      module: CliModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot(config), RedisModule, QueueModule.forRoot('cli'), MetricsModule, ...features],
    };
  }
}
