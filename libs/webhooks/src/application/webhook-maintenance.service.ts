import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import { Clock } from '@pos/kernel';
import { PeriodicScheduler } from '@pos/platform';
import { DeliveryDispatcher } from './delivery-dispatcher';
import { OutboxRelayRepository, WebhookDeliveryRepository } from './webhook.ports';
import { WebhookSettings } from './webhook-settings';

const SWEEP_BATCH = 500;
const PURGE_BATCH = 1000;
const PURGE_EVERY_MS = 3_600_000;

/**
 * Two periodic chores beside the relay:
 *  - the sweep queues again every delivery that is due (for longer than one sweep interval) and
 *    not leased: its job was lost (Redis restarted empty, a crash between commit and enqueue, a
 *    worker killed mid-attempt). Re-queueing an attempt still in the queue is a no-op (same job
 *    id), so the sweep is safe to run anywhere, any number of times;
 *  - retention purges delivery logs untouched for WEBHOOK_RETENTION_DAYS, then the published
 *    outbox rows no delivery refers to any more, in small batches (hourly).
 */
@Injectable()
export class WebhookMaintenanceService implements OnModuleInit {
  private readonly logger = new Logger('Webhooks');

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly outbox: OutboxRelayRepository,
    private readonly dispatcher: DeliveryDispatcher,
    private readonly settings: WebhookSettings,
    private readonly scheduler: PeriodicScheduler,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    const sweepMs = this.settings.config.sweepIntervalMs;
    this.scheduler.register({
      name: 'webhooks.retry-sweep',
      everyMs: sweepMs,
      firstAfterMs: Math.min(sweepMs, 2000),
      run: async () => void (await this.sweep()),
    });
    this.scheduler.register({ name: 'webhooks.retention', everyMs: PURGE_EVERY_MS, firstAfterMs: 60_000, run: async () => void (await this.purge()) });
  }

  /** Returns how many deliveries were queued again. */
  async sweep(): Promise<number> {
    const now = this.clock.now();
    const due = await this.deliveries.dueUnleased(new Date(now.getTime() - this.settings.config.sweepIntervalMs), now, SWEEP_BATCH);
    await this.dispatcher.dispatch(due);
    return due.length;
  }

  /** Returns what was deleted. */
  async purge(): Promise<{ deliveries: number; events: number }> {
    const now = this.clock.now();
    const before = new Date(now.getTime() - this.settings.config.retentionDays * 86_400_000);
    let deliveries = 0;
    let events = 0;
    for (;;) {
      const n = await this.purgeDeliveries(before, now);
      deliveries += n;
      if (n < PURGE_BATCH) break;
    }
    for (;;) {
      const n = await this.purgeEvents(before);
      events += n;
      if (n < PURGE_BATCH) break;
    }
    if (deliveries || events)
      this.logger.log(`retention: purged ${deliveries} delivery log(s) and ${events} outbox event(s) older than ${this.settings.config.retentionDays} days`);
    return { deliveries, events };
  }

  @Transactional()
  async purgeDeliveries(before: Date, now: Date): Promise<number> {
    const ids = await this.deliveries.purgeable(before, now, PURGE_BATCH);
    await this.deliveries.delete(ids);
    return ids.length;
  }

  @Transactional()
  async purgeEvents(before: Date): Promise<number> {
    const ids = await this.outbox.purgeable(before, PURGE_BATCH);
    await this.outbox.delete(ids);
    return ids.length;
  }
}
