import {
  BeforeApplicationShutdown,
  DynamicModule,
  Global,
  Inject,
  Injectable,
  Module,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  OnModuleInit,
  Optional,
} from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AppConfig } from '../config';
import { APP_CONFIG } from '../config/config.module';
import { RedisModule } from '../redis/redis.module';
import { RedisConnections } from '../redis/redis-connections';
import { readyOrNot } from '../redis/redis-outage';
import { BullMqConsumer, BullMqJobQueue } from './bullmq.queue';
import { InProcessJobQueue } from './in-process.queue';
import { JobQueue, QueueName } from './job-definition';
import { JobHandlerRegistry } from './job-handler.registry';
import { PeriodicScheduler, QUEUE_ROLE, QueueRole } from './periodic';
import { ProcessLifecycle } from '../lifecycle/process-lifecycle';

/**
 * Starts the BullMQ consumer in the worker. On shutdown it drains before anything closes:
 * Nest runs every beforeApplicationShutdown hook before any onApplicationShutdown one (which
 * close the database module by module), so the consumer stops fetching there and waits for
 * the running jobs (long ones stop at their next chunk: ProcessLifecycle.draining); SHUTDOWN_TIMEOUT_MS
 * must be longer than a chunk. Producers close last.
 */
@Injectable()
class QueueLifecycle implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private consumer?: BullMqConsumer;

  constructor(
    private readonly queue: JobQueue,
    private readonly registry: JobHandlerRegistry,
    @Inject(QUEUE_ROLE) private readonly role: QueueRole,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly lifecycle: ProcessLifecycle,
    @Optional() private readonly connections?: RedisConnections,
  ) {}

  onModuleInit(): void {
    // In-process: this process runs the jobs, so it must have every handler.
    // BullMQ: only the consumer (worker app) must.
    if (this.queue instanceof InProcessJobQueue || this.role === 'consumer') this.registry.scan();
  }

  onApplicationBootstrap(): void {
    this.startConsumer();
  }

  startConsumer(): void {
    const connections = this.connections;
    if (this.role === 'consumer' && connections && !this.consumer) {
      this.consumer = new BullMqConsumer(() => connections.create('consumer'), this.registry, this.config.queuePrefix, 5, {
        [QueueName.Webhooks]: this.config.webhooks.concurrency,
      });
      this.consumer.start();
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.lifecycle.beginDrain();
    await this.consumer?.close();
    if (this.queue instanceof InProcessJobQueue) await this.queue.close();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumer?.close();
    await this.queue.close();
  }
}

@Global()
@Module({})
export class QueueModule {
  static forRoot(role: QueueRole = 'producer'): DynamicModule {
    return {
      module: QueueModule,
      imports: [DiscoveryModule, RedisModule],
      providers: [
        JobHandlerRegistry,
        { provide: QUEUE_ROLE, useValue: role },
        {
          provide: JobQueue,
          inject: [APP_CONFIG, JobHandlerRegistry, { token: RedisConnections, optional: true }],
          // Producers get a fail-fast connection of their own (never the shared one, which waits for Redis).
          useFactory: async (config: AppConfig, registry: JobHandlerRegistry, connections?: RedisConnections) =>
            connections ? new BullMqJobQueue(await readyOrNot(connections.create('fail-fast')), config.queuePrefix, true) : new InProcessJobQueue(registry),
        },
        QueueLifecycle,
        PeriodicScheduler,
        ProcessLifecycle,
      ],
      exports: [JobQueue, JobHandlerRegistry, QueueLifecycle, PeriodicScheduler, ProcessLifecycle],
    };
  }
}

export { QueueLifecycle };
