import { Logger } from '@nestjs/common';
import { Job, Queue, Worker } from 'bullmq';
import type { RedisClient } from '../redis/redis-connections';
import { EnqueueOptions, JobDefinition, JobQueue, QueueCounts, QueueName } from './job-definition';
import { JobHandlerRegistry } from './job-handler.registry';
import { RedisOutageLog } from '../redis/redis-outage';

/** Redis cannot take the job now (down, or not answering within REDIS_COMMAND_TIMEOUT_MS). */
export class QueueUnavailableError extends Error {
  readonly code = 'QUEUE_UNAVAILABLE';
  constructor(reason: string) {
    super(`The job queue is unavailable: ${reason}`);
    this.name = 'QueueUnavailableError';
  }
}

/**
 * Production adapter: jobs go to Redis through BullMQ and run in the worker app.
 * Producers fail fast: the connection is a fail-fast one (failFastRedisOptions: no offline
 * queue, short command timeout) and an enqueue while it is not ready throws at once, never
 * waits for Redis and never runs minutes later. Nothing is lost by it: every job's work is in
 * the database and is queued again from there (outbox relay, webhook sweep, bulk price sweep).
 */
export class BullMqJobQueue extends JobQueue {
  private readonly queues = new Map<QueueName, Queue>();
  private readonly outage = new RedisOutageLog('Queue producer', 'JobQueue');

  constructor(
    private readonly connection: RedisClient,
    private readonly prefix: string,
    private readonly ownsConnection = false,
  ) {
    super();
    this.outage.watch(connection);
  }

  private queue(name: QueueName): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.connection, prefix: this.prefix });
      queue.on('error', (err) => this.outage.failed(err));
      this.queues.set(name, queue);
    }
    return queue;
  }

  async enqueue<P>(def: JobDefinition<P>, payload: P, options: EnqueueOptions = {}): Promise<void> {
    if (this.connection.status !== 'ready') throw new QueueUnavailableError(`Redis connection is ${this.connection.status}`);
    await this.queue(def.queue)
      .add(def.name, payload, {
        jobId: options.jobId,
        delay: options.delayMs,
        attempts: def.attempts,
        backoff: { type: 'exponential', delay: def.backoffMs },
        // 0 = remove at once, which frees a deterministic job id for a later job (webhook retries).
        removeOnComplete: def.keepCompletedSeconds > 0 ? { age: def.keepCompletedSeconds } : true,
        removeOnFail: def.keepFailedSeconds > 0 ? { age: def.keepFailedSeconds } : true,
      })
      .catch((err: Error) => {
        throw err instanceof QueueUnavailableError ? err : new QueueUnavailableError(err.message);
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
    if (this.ownsConnection && this.connection.status !== 'end') await this.connection.quit().catch(() => this.connection.disconnect());
  }
}

/** Runs in the worker app: one BullMQ Worker per queue, dispatching by job name. */
export class BullMqConsumer {
  private readonly logger = new Logger('BullMqConsumer');
  private readonly workers: Worker[] = [];
  private readonly connections: RedisClient[] = [];
  private readonly outage = new RedisOutageLog('Worker', 'BullMqConsumer');

  constructor(
    /** A new consumer connection (RedisConnections.create('consumer')): one per queue, each following failovers. */
    private readonly connect: () => RedisClient,
    private readonly registry: JobHandlerRegistry,
    private readonly prefix: string,
    private readonly concurrency = 5,
    private readonly concurrencyByQueue: Partial<Record<QueueName, number>> = {},
  ) {}

  start(queues: QueueName[] = Object.values(QueueName)): void {
    for (const name of queues) {
      // BullMQ does not close a connection it was given: keep ours to quit them at close.
      const connection = this.connect();
      connection.on('error', (err: Error) => this.outage.failed(err, 'jobs wait in the database until it returns'));
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
      // A Redis outage is one warning when it starts and one line when it ends, not a line per retry
      // (ioredis reconnects with a growing delay, at most 2 s).
      worker.on('error', (err) =>
        isConnectionError(err)
          ? this.outage.failed(err, 'jobs wait in the database until it returns')
          : this.logger.error(`worker error on ${name}: ${err.message}`),
      );
      connection.on('ready', () => this.outage.recovered());
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

/** ioredis/BullMQ errors that only say Redis cannot be reached right now. */
function isConnectionError(err: Error & { code?: string }): boolean {
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND'].includes(err.code ?? '') ||
    /Connection is closed|Stream isn't writeable|ECONNREFUSED|ECONNRESET|Command timed out/i.test(err.message)
  );
}
