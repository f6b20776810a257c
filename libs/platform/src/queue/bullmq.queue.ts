import { Logger } from '@nestjs/common';
import { Job, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { EnqueueOptions, JobDefinition, JobQueue, QueueCounts, QueueName } from './job-definition';
import { JobHandlerRegistry } from './job-handler.registry';

/** Production adapter: jobs go to Redis through BullMQ and run in the worker app. */
export class BullMqJobQueue extends JobQueue {
  private readonly queues = new Map<QueueName, Queue>();

  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
  ) {
    super();
  }

  private queue(name: QueueName): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.connection, prefix: this.prefix });
      this.queues.set(name, queue);
    }
    return queue;
  }

  async enqueue<P>(def: JobDefinition<P>, payload: P, options: EnqueueOptions = {}): Promise<void> {
    await this.queue(def.queue).add(def.name, payload, {
      jobId: options.jobId,
      delay: options.delayMs,
      attempts: def.attempts,
      backoff: { type: 'exponential', delay: def.backoffMs },
      // 0 = remove at once, which frees a deterministic job id for a later job (webhook retries).
      removeOnComplete: def.keepCompletedSeconds > 0 ? { age: def.keepCompletedSeconds } : true,
      removeOnFail: def.keepFailedSeconds > 0 ? { age: def.keepFailedSeconds } : true,
    });
  }

  async counts(): Promise<QueueCounts[]> {
    return Promise.all(
      Object.values(QueueName).map(async (name) => {
        const c = await this.queue(name).getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed');
        return { queue: name, waiting: (c.waiting ?? 0) + (c.prioritized ?? 0), active: c.active ?? 0, delayed: c.delayed ?? 0, failed: c.failed ?? 0 };
      }),
    );
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}

/** Runs in the worker app: one BullMQ Worker per queue, dispatching by job name. */
export class BullMqConsumer {
  private readonly logger = new Logger('BullMqConsumer');
  private readonly workers: Worker[] = [];
  private readonly connections: Redis[] = [];

  constructor(
    private readonly connection: Redis,
    private readonly registry: JobHandlerRegistry,
    private readonly prefix: string,
    private readonly concurrency = 5,
    private readonly concurrencyByQueue: Partial<Record<QueueName, number>> = {},
  ) {}

  start(queues: QueueName[] = Object.values(QueueName)): void {
    for (const name of queues) {
      // BullMQ does not close a connection it was given: keep ours to quit them at close.
      const connection = this.connection.duplicate({ maxRetriesPerRequest: null });
      this.connections.push(connection);
      const worker = new Worker(name, async (job: Job) => this.registry.get(job.name)(job.data, { attempt: job.attemptsMade + 1, jobId: job.id }), {
        connection,
        concurrency: this.concurrencyByQueue[name] ?? this.concurrency,
        prefix: this.prefix,
        // A job whose worker died (kill -9) runs again within ~20 s instead of ~60 s: locks are
        // renewed every lockDuration/2 while a job runs, so long jobs are not affected.
        lockDuration: 15_000,
        stalledInterval: 5_000,
      });
      worker.on('failed', (job, err) => this.logger.warn(`${job?.name ?? '?'} (${job?.id ?? '?'}) attempt ${job?.attemptsMade ?? '?'} failed: ${err.message}`));
      worker.on('error', (err) => this.logger.error(`worker error on ${name}: ${err.message}`));
      this.workers.push(worker);
    }
    this.logger.log(`consuming ${queues.join(', ')}`);
  }

  /** Stops fetching new jobs and waits for the active ones to finish. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
    await Promise.all(this.connections.map((c) => c.quit().catch(() => undefined)));
  }
}
