import { Module } from '@nestjs/common';
import { IdentityModule } from '@pos/identity';
import { ConfigModule, DatabaseModule, LoggingModule, QueueModule, RedisModule } from '@pos/platform';

/**
 * The worker process: no HTTP. Consumes every BullMQ queue and dispatches to the @JobHandler
 * methods of the context modules imported here (the boot check fails if one is missing).
 */
@Module({
  imports: [ConfigModule.forRoot(), LoggingModule.forRoot(), DatabaseModule.forRoot(), RedisModule, QueueModule.forRoot('consumer'), IdentityModule],
})
export class WorkerModule {}
