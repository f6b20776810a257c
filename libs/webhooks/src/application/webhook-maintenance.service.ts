import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import { Clock } from '@pos/kernel';
import { PeriodicScheduler, yieldToEventLoop } from '@pos/platform';
import { DeliveryDispatcher } from './delivery-dispatcher';
import { EventLogRepository } from './event-log.ports';
import { retentionCutoff } from './event-log.service';
import { WebhookDeliveryRepository } from './webhook.ports';
import { WebhookSettings } from './webhook-settings';

const SWEEP_BATCH = 500;
const PURGE_BATCH = 1000;
/** Events per purge transaction (each takes its deliveries and their attempts with it). */
const EVENT_PURGE_BATCH = 500;
const PURGE_EVERY_MS = 3_600_000;

/**
 * Two periodic chores beside the relay:
 *  - the sweep queues again every delivery that is due (for longer than one sweep interval) and
 *    not leased: its job was lost (Redis restarted empty, a crash between commit and enqueue, a
 *    worker killed mid-attempt). Re-queueing an attempt still in the queue is a no-op (same job
 *    id), so the sweep is safe to run anywhere, any number of times;
 *  - retention (hourly, in small transactions) purges delivery logs untouched for
 *    WEBHOOK_RETENTION_DAYS, then published events created more than EVENT_RETENTION_DAYS ago
 *    (the event log and replay_from read them until then) with whatever deliveries still refer
 *    to them: attempts, then deliveries, then the events (the foreign keys' order).
 */
@Injectable()
export class WebhookMaintenanceService implements OnModuleInit {
  private readonly logger = new Logger('Webhooks');

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly events: EventLogRepository,
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
    const eventsBefore = retentionCutoff(now, this.settings.config.eventRetentionDays);
    let deliveries = 0;
    let events = 0;
    for (;;) {
      const n = await this.purgeDeliveries(before, now);
      deliveries += n;
      if (n < PURGE_BATCH) break;
      await yieldToEventLoop(); // requests are served between purge transactions (SQLite: see yieldToEventLoop)
    }
    for (;;) {
      const n = await this.purgeEvents(eventsBefore);
      events += n.events;
      deliveries += n.deliveries;
      if (n.events < EVENT_PURGE_BATCH) break;
      await yieldToEventLoop();
    }
    if (deliveries || events)
      this.logger.log(
        `retention: purged ${deliveries} delivery log(s) (${this.settings.config.retentionDays} days) and ${events} event(s) (${this.settings.config.eventRetentionDays} days)`,
      );
    return { deliveries, events };
  }

  @Transactional()
  async purgeDeliveries(before: Date, now: Date): Promise<number> {
    const ids = await this.deliveries.purgeable(before, now, PURGE_BATCH);
    await this.deliveries.delete(ids);
    return ids.length;
  }

  @Transactional()
  async purgeEvents(before: Date): Promise<{ events: number; deliveries: number }> {
    const ids = await this.events.expired(before, EVENT_PURGE_BATCH);
    const { deliveries } = await this.events.deleteWithDeliveries(ids);
    return { events: ids.length, deliveries };
  }
}
