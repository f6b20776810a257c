import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import { ChangePosition, Clock } from '@pos/kernel';
import { receivesDeliveries } from '../domain/endpoint-health';
import { subscribes } from '../domain/event-kinds';
import { DeliveryDispatcher } from './delivery-dispatcher';
import { eventLogKinds } from './event-log.service';
import { EventLogRepository } from './event-log.ports';
import { newDelivery } from './outbox-relay.service';
import { DeliveryRecord, WebhookDeliveryRepository, WebhookEndpointRepository } from './webhook.ports';

/** Events per replay transaction. */
export const REPLAY_BATCH = 500;

/**
 * replay_from (POST /webhooks, PUT /webhooks/{id}): one delivery per kept event the endpoint
 * subscribes to, created at or after `from`, in (created_at, id) order, queued batch by batch.
 *
 * Exactly once per (event, endpoint), even while the relay runs: deliveries are unique on
 * (event_id, endpoint_id) and both the relay and the replay insert with "ignore duplicates".
 * No gap: the replay runs after the endpoint (or its change) has committed and reads every
 * committed event, published or not and with no horizon. An event committed after that read
 * is claimed by the relay after it committed, and the relay reads its fan-out targets after
 * the claim (READ COMMITTED on MySQL; SQLite's transactions take turns), so it sees the
 * endpoint. An event the relay fanned out before the endpoint existed is read by the replay.
 *
 * Order: the deliveries are created and queued in event order; as for every delivery, arrival
 * order is not guaranteed (concurrent senders, retries), so each body carries id and created_at.
 */
@Injectable()
export class EventReplayService {
  constructor(
    private readonly log: EventLogRepository,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly dispatcher: DeliveryDispatcher,
    private readonly clock: Clock,
  ) {}

  /** Returns the number of events replayed (deliveries that already existed are left as they are). */
  async replay(endpointId: number, from: Date): Promise<number> {
    let position: ChangePosition = { t: from, id: 0 };
    let replayed = 0;
    for (;;) {
      const batch = await this.replayBatch(endpointId, position);
      await this.dispatcher.dispatch(batch.deliveries);
      replayed += batch.deliveries.length;
      if (!batch.last) return replayed;
      position = batch.last;
    }
  }

  @Transactional()
  async replayBatch(endpointId: number, after: ChangePosition): Promise<{ deliveries: Omit<DeliveryRecord, 'id'>[]; last: ChangePosition | null }> {
    const endpoint = await this.endpoints.find(endpointId);
    if (!endpoint || !receivesDeliveries(endpoint)) return { deliveries: [], last: null };
    const types = eventLogKinds().filter((k) => subscribes(endpoint.events, k));
    const events = await this.log.range({ after, upTo: null, types, stores: 'all', limit: REPLAY_BATCH });
    const now = this.clock.now();
    // An existing delivery keeps its state (and is not queued again); the unique index settles a
    // race with the relay inserting the same pair meanwhile (its job then finds it not due: no-op).
    const existing = await this.log.eventsWithDelivery(
      endpoint.id,
      events.map((e) => e.id),
    );
    const fresh = events.filter((e) => !existing.has(e.id)).map((e) => newDelivery(endpoint.id, e.id, e.type, now));
    await this.deliveries.insertMany(fresh);
    const tail = events.at(-1);
    return { deliveries: fresh, last: events.length === REPLAY_BATCH && tail ? { t: tail.createdAt, id: tail.id } : null };
  }
}
