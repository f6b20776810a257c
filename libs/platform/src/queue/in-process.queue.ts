import { Logger } from '@nestjs/common';
import { EnqueueOptions, JobDefinition, JobQueue, QueueCounts, QueueName } from './job-definition';
import { JobHandlerRegistry } from './job-handler.registry';

/**
 * The embedded default: jobs run in this process, after the current request, with the same
 * attempts/backoff policy as BullMQ. Not durable across restarts; durable side effects go
 * through the outbox table, which is re-read at start.
 * Jobs share the event loop with the HTTP server, and on SQLite every statement blocks it (the
 * driver is synchronous): a handler that works in chunks must call yieldToEventLoop between
 * them (as the bulk price job does), or requests wait until it ends.
 */
export class InProcessJobQueue extends JobQueue {
  private readonly logger = new Logger('InProcessQueue');
  private readonly running = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly activeIds = new Set<string>();
  /** Per queue: jobs due or running now, jobs waiting on a timer (delay or retry), jobs that gave up. */
  private readonly tally = new Map<QueueName, { active: number; delayed: number; failed: number }>();
  private closed = false;
  /** Set when close() starts: no new job is taken while the running ones drain (they stay in the database). */
  private closing = false;

  constructor(private readonly registry: JobHandlerRegistry) {
    super();
  }

  async enqueue<P>(def: JobDefinition<P>, payload: P, options: EnqueueOptions = {}): Promise<void> {
    if (this.closed || this.closing) throw new Error('Queue is closed');
    if (options.jobId) {
      if (this.activeIds.has(options.jobId)) return;
      this.activeIds.add(options.jobId);
    }
    this.schedule(def, payload, options, 1, options.delayMs ?? 0);
  }

  private schedule<P>(def: JobDefinition<P>, payload: P, options: EnqueueOptions, attempt: number, delayMs: number): void {
    const tally = this.tallyOf(def.queue);
    const start = () => {
      tally.active++;
      const run = this.run(def, payload, options, attempt).finally(() => {
        tally.active--;
        this.running.delete(run);
      });
      this.running.add(run);
    };
    if (delayMs <= 0) {
      setImmediate(start);
      return;
    }
    tally.delayed++;
    const timer = setTimeout(() => {
      tally.delayed--;
      this.timers.delete(timer);
      start();
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  private async run<P>(def: JobDefinition<P>, payload: P, options: EnqueueOptions, attempt: number): Promise<void> {
    try {
      await this.registry.get(def.name)(payload, { attempt, jobId: options.jobId });
      if (options.jobId) this.activeIds.delete(options.jobId);
    } catch (error) {
      if (attempt < def.attempts && !this.closed) {
        const delay = def.backoffMs * 2 ** (attempt - 1);
        this.logger.warn(`${def.name} attempt ${attempt} failed, retrying in ${delay} ms: ${(error as Error).message}`);
        this.schedule(def, payload, options, attempt + 1, delay);
      } else {
        if (options.jobId) this.activeIds.delete(options.jobId);
        this.tallyOf(def.queue).failed++;
        this.logger.error(`${def.name} failed after ${attempt} attempt(s): ${(error as Error).message}`);
      }
    }
  }

  private tallyOf(queue: QueueName): { active: number; delayed: number; failed: number } {
    let tally = this.tally.get(queue);
    if (!tally) this.tally.set(queue, (tally = { active: 0, delayed: 0, failed: 0 }));
    return tally;
  }

  /** Jobs started at once count as active: this adapter has no waiting line. */
  counts(): Promise<QueueCounts[]> {
    return Promise.resolve(Object.values(QueueName).map((queue) => ({ queue, waiting: 0, ...this.tallyOf(queue) })));
  }

  /** Waits for every job that is running or due now; scheduled retries are dropped. */
  async drain(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.drain();
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    if (this.timers.size) this.logger.warn(`${this.timers.size} delayed job(s) dropped at shutdown`);
    this.timers.clear();
  }
}
