import { Module } from '@nestjs/common';
import { DemoModule } from '@pos/demo';
import { IdentityModule } from '@pos/identity';
import { ConfigModule, DatabaseModule, QueueModule, RedisModule } from '@pos/platform';

@Module({
  imports: [ConfigModule.forRoot(), DatabaseModule.forRoot(), RedisModule, QueueModule.forRoot('producer'), IdentityModule, DemoModule],
})
export class CliModule {}
