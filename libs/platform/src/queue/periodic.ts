import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { WorkerLeases } from '../database/worker-leases';
import { InProcessJobQueue } from './in-process.queue';
import { JobQueue } from './job-definition';

/** The process roles of QueueModule.forRoot: the API produces jobs, the worker consumes them, the CLI only produces. */
export const QUEUE_ROLE = Symbol('QUEUE_ROLE');
export type QueueRole = 'producer' | 'consumer' | 'cli';

/** A unit of periodic work: polls, sweeps, purges. */
export interface PeriodicTask {
  /** For logs. */
  readonly name: string;
  /** Pause between the end of one run and the start of the next. */
  readonly everyMs: number;
  /** First run this long after start (default: everyMs). */
  readonly firstAfterMs?: number;
  /**
   * A singleton across processes: only the process holding this named lease runs the task (see
   * WorkerLeases), the others stand by. Without it every active process runs the task.
   */
  readonly lease?: string;
  run(): Promise<void>;
}

/**
 * Periodic work runs where the jobs run: in the worker when jobs go through BullMQ, in the API
 * process with the in-process queue (the embedded default), never in the CLI. Each process runs
 * its own timers rather than one BullMQ job scheduler, because the work must go on (and catch up)
 * whatever state Redis is in, and several replicas are expected: every task must therefore be safe
 * when replicas run it at the same time (claim rows, idempotent deletes). Within a process, runs of
 * a task never overlap (the next is timed from the end of the previous one). A task that is safe but
 * wasteful to run in several places at once (on a multi-primary cluster, row locks exclude only on
 * one node) names a lease, and only its holder runs it; at shutdown, once the runs have ended,
 * this process gives its leases up so a stand-by takes over at once.
 */
@Injectable()
export class PeriodicScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Periodic');
  private readonly tasks: PeriodicTask[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();
  private started = false;
  private stopped = false;

  constructor(
    private readonly queue: JobQueue,
    @Inject(QUEUE_ROLE) private readonly role: QueueRole,
    @Optional() private readonly leases?: WorkerLeases,
  ) {}

  /** Whether this process runs periodic work (see the class comment). */
  get active(): boolean {
    return this.role === 'consumer' || (this.role === 'producer' && this.queue instanceof InProcessJobQueue);
  }

  /** Call from onModuleInit; tasks start at application bootstrap. */
  register(task: PeriodicTask): void {
    if (this.tasks.some((t) => t.name === task.name)) throw new Error(`Periodic task ${task.name} is registered twice`);
    if (task.lease && !this.leases) throw new Error(`Periodic task ${task.name} needs the ${task.lease} lease: import DatabaseModule (WorkerLeases)`);
    this.tasks.push(task);
    if (this.started) this.schedule(task, task.firstAfterMs ?? task.everyMs);
  }

  onApplicationBootstrap(): void {
    if (!this.active || this.started) return;
    this.started = true;
    for (const task of this.tasks) this.schedule(task, task.firstAfterMs ?? task.everyMs);
    if (this.tasks.length) this.logger.log(`running ${this.tasks.map((t) => `${t.name} every ${t.everyMs} ms`).join(', ')}`);
  }

  private schedule(task: PeriodicTask, delayMs: number): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const run = (task.lease ? this.leases!.runHolding(task.lease, () => task.run()).then(() => undefined) : task.run())
        .catch((error: unknown) => this.logger.warn(`${task.name} failed: ${(error as Error).message}`))
        .finally(() => {
          this.running.delete(run);
          this.schedule(task, task.everyMs);
        });
      this.running.add(run);
    }, delayMs);
    this.timers.add(timer);
  }

  /** Stops the timers and waits for the runs in progress, before the database and queues close. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    while (this.running.size) await Promise.allSettled([...this.running]);
    if (this.started) await this.leases?.releaseAll();
  }
}
