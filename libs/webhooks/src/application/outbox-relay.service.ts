import { randomUUID } from 'node:crypto';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import type { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { Clock } from '@pos/kernel';
import { isRetryableTransactionError, PeriodicScheduler, yieldToEventLoop } from '@pos/platform';
import { subscribes } from '../domain/event-kinds';
import { DeliveryDispatcher } from './delivery-dispatcher';
import { DeliveryRecord, OutboxRelayRepository, WebhookDeliveryRepository, WebhookEndpointRepository } from './webhook.ports';
import { WebhookSettings } from './webhook-settings';

/** Events per relay transaction. */
export const RELAY_BATCH = 200;

/**
 * The outbox relay: every change writes its event to `outbox_events` in its own transaction;
 * this turns unpublished rows, oldest first, into one delivery row per (event, endpoint
 * subscribed to its kind) and marks them published, all in one transaction, then queues one job
 * per delivery. Several relays (API or worker replicas) run at once safely: on MySQL each claims
 * its rows with FOR UPDATE SKIP LOCKED, so no event is fanned out twice; on SQLite there is one
 * process and its transactions take turns. A crash before the commit leaves the rows unpublished
 * (relayed again); after it, the deliveries exist and the sweep queues any job that was lost.
 * Events are relayed in id order within a batch; across concurrent relays, and with retries,
 * receivers may see events out of order (each carries its id and created_at).
 * SKIP LOCKED excludes relays on one database server only: on a multi-primary cluster (Galera)
 * relays on two nodes would claim the same rows and one be aborted at certification, so the
 * periodic relay runs only in the process holding the `outbox-relay` worker lease (the row locks
 * stay).
 */
@Injectable()
export class OutboxRelayService implements OnModuleInit {
  private readonly logger = new Logger('Webhooks');

  constructor(
    private readonly outbox: OutboxRelayRepository,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly dispatcher: DeliveryDispatcher,
    private readonly settings: WebhookSettings,
    private readonly scheduler: PeriodicScheduler,
    private readonly clock: Clock,
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
  ) {}

  onModuleInit(): void {
    this.scheduler.register({
      name: 'webhooks.outbox-relay',
      everyMs: this.settings.config.relayIntervalMs,
      lease: 'outbox-relay',
      run: async () => void (await this.drain()),
    });
  }

  /** Relays until the outbox has no unpublished row left (or a bound is reached); returns events relayed. */
  async drain(maxBatches = 1000): Promise<number> {
    let relayed = 0;
    for (let i = 0; i < maxBatches; i++) {
      if (!(await this.outbox.hasUnpublished())) break;
      const batch = await this.relayOnce();
      relayed += batch.events.length;
      await this.dispatcher.dispatch(batch.deliveries);
      if (batch.events.length < RELAY_BATCH) break;
      await yieldToEventLoop(); // a backlog is relayed without holding up requests (SQLite: see yieldToEventLoop)
    }
    return relayed;
  }

  /** One batch, retried as a whole on a deadlock. */
  async relayOnce(): Promise<{ events: number[]; deliveries: Omit<DeliveryRecord, 'id'>[] }> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.relayBatch();
      } catch (error) {
        if (attempt >= 3 || !isRetryableTransactionError(error)) throw error;
        this.logger.debug(`relay batch retried after ${(error as Error).message}`);
      }
    }
  }

  /** The relay's transaction (see WebhookSettings.relayIsolation). */
  inRelayTransaction<T>(work: () => Promise<T>): Promise<T> {
    const isolationLevel = this.settings.relayIsolation;
    return isolationLevel ? this.txHost.withTransaction({ isolationLevel }, work) : this.txHost.withTransaction(work);
  }

  relayBatch(): Promise<{ events: number[]; deliveries: Omit<DeliveryRecord, 'id'>[] }> {
    return this.inRelayTransaction(() => this.fanOut());
  }

  private async fanOut(): Promise<{ events: number[]; deliveries: Omit<DeliveryRecord, 'id'>[] }> {
    const events = await this.outbox.claimUnpublished(RELAY_BATCH);
    if (!events.length) return { events: [], deliveries: [] };
    const now = this.clock.now();
    const targets = await this.endpoints.receiving();
    const deliveries: Omit<DeliveryRecord, 'id'>[] = [];
    for (const event of events) {
      for (const endpoint of targets) {
        if (subscribes(endpoint.events, event.type)) deliveries.push(newDelivery(endpoint.id, event.id, event.type, now));
      }
    }
    await this.deliveries.insertMany(deliveries);
    await this.outbox.markPublished(
      events.map((e) => e.id),
      now,
    );
    return { events: events.map((e) => e.id), deliveries };
  }
}

export function newDelivery(endpointId: number, eventId: number, eventType: string, now: Date): Omit<DeliveryRecord, 'id'> {
  return {
    uuid: randomUUID(),
    endpointId,
    eventId,
    eventType,
    status: 'pending',
    attempts: 0,
    roundStart: 0,
    nextAttemptAt: now,
    lastAttemptAt: null,
    lastStatusCode: null,
    lastDurationMs: null,
    lastError: null,
    deliveredAt: null,
    lockedBy: null,
    lockedUntil: null,
    createdAt: now,
    updatedAt: now,
  };
}
