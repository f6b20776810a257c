import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '@pos/kernel';
import { defineJob, JobQueue, QueueName } from '@pos/platform';
import { DeliveryRecord } from './webhook.ports';

/**
 * One job per attempt of a delivery. The database is the truth (status, next_attempt_at, lease);
 * a job is only the trigger to look at one delivery. Its id is deterministic per (delivery,
 * attempts made, time due) so enqueueing the same attempt twice (relay, sweep, another replica)
 * queues it once, while a retry or a re-send gets a new id. Jobs are removed as soon as they
 * finish, which frees the id. Queue-level attempts only cover infrastructure errors (database
 * down); delivery failures are retried by the schedule, through the database.
 */
export const DeliverWebhookJob = defineJob<{ delivery: string }>('webhooks.deliver', {
  queue: QueueName.Webhooks,
  attempts: 3,
  backoffMs: 2000,
  keepCompletedSeconds: 0,
  keepFailedSeconds: 0,
});

type Due = Pick<DeliveryRecord, 'uuid' | 'attempts' | 'nextAttemptAt'>;

/** How long an enqueue may take before it is left to the sweep (Redis down must not stall callers). */
const ENQUEUE_TIMEOUT_MS = 3000;

@Injectable()
export class DeliveryDispatcher {
  private readonly logger = new Logger('Webhooks');

  constructor(
    private readonly queue: JobQueue,
    private readonly clock: Clock,
  ) {}

  static jobId(d: Due): string {
    return `webhook-${d.uuid}-${d.attempts}-${Math.floor((d.nextAttemptAt?.getTime() ?? 0) / 1000)}`;
  }

  /** Never throws: what cannot be queued now is queued again by the sweep once due. */
  async dispatch(deliveries: Due[]): Promise<void> {
    if (!deliveries.length) return;
    const now = this.clock.now().getTime();
    const results = await Promise.allSettled(
      deliveries.map((d) =>
        withTimeout(
          this.queue.enqueue(
            DeliverWebhookJob,
            { delivery: d.uuid },
            { jobId: DeliveryDispatcher.jobId(d), delayMs: Math.max(0, (d.nextAttemptAt?.getTime() ?? now) - now) },
          ),
          ENQUEUE_TIMEOUT_MS,
        ),
      ),
    );
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed.length) {
      this.logger.warn(
        `${failed.length} of ${deliveries.length} delivery job(s) not queued (${(failed[0].reason as Error).message}); the sweep will queue them`,
      );
    }
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`queue did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
