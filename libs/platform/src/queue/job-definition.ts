/**
 * Jobs are declared once, with their queue and retry policy, by the context that owns them:
 *   export const TouchTokenJob = defineJob<{ tokenId: number }>('identity.touch-token', {...});
 * Payloads carry ids and store context only, never entities. Every definition must have
 * exactly one @JobHandler in the process that consumes it (checked at boot).
 */
export enum QueueName {
  Default = 'pos-default',
  Webhooks = 'pos-webhooks',
  Bulk = 'pos-bulk',
}

export interface JobDefinition<P> {
  readonly name: string;
  readonly queue: QueueName;
  readonly attempts: number;
  /** First retry delay; later ones grow exponentially. */
  readonly backoffMs: number;
  /** How long finished jobs are kept (BullMQ removeOnComplete/removeOnFail age). */
  readonly keepCompletedSeconds: number;
  readonly keepFailedSeconds: number;
  /** Phantom field carrying the payload type. */
  readonly __payload?: P;
}

const definitions = new Map<string, JobDefinition<unknown>>();

export function defineJob<P>(name: string, options: Partial<Omit<JobDefinition<P>, 'name' | '__payload'>> = {}): JobDefinition<P> {
  if (definitions.has(name)) throw new Error(`Job ${name} is defined twice`);
  const def: JobDefinition<P> = {
    name,
    queue: options.queue ?? QueueName.Default,
    attempts: options.attempts ?? 5,
    backoffMs: options.backoffMs ?? 1000,
    keepCompletedSeconds: options.keepCompletedSeconds ?? 3600,
    keepFailedSeconds: options.keepFailedSeconds ?? 7 * 24 * 3600,
  };
  definitions.set(name, def as JobDefinition<unknown>);
  return def;
}

export function allJobDefinitions(): JobDefinition<unknown>[] {
  return [...definitions.values()];
}

export function jobDefinition(name: string): JobDefinition<unknown> | undefined {
  return definitions.get(name);
}

export interface EnqueueOptions {
  /** Deterministic id: a second job with the same id is not run while the first is kept. */
  jobId?: string;
  delayMs?: number;
}

/** Jobs in one queue by state, for metrics (`failed`: kept failed jobs in BullMQ, failures since start in-process). */
export interface QueueCounts {
  queue: QueueName;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

/** The queue port. Adapters: BullMQ (REDIS_URL set) and in-process (embedded default). */
export abstract class JobQueue {
  abstract enqueue<P>(def: JobDefinition<P>, payload: P, options?: EnqueueOptions): Promise<void>;
  /** One row per queue: what is waiting, running, delayed and failed now. */
  abstract counts(): Promise<QueueCounts[]>;
  /** Stops taking jobs and waits for the ones running (graceful shutdown). */
  abstract close(): Promise<void>;
}
