import { Injectable, OnModuleInit } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import { Clock, ConflictError, NotFoundError, ValidationFailedError } from '@pos/kernel';
import { allEventTypes } from '@pos/platform';
import { receivesDeliveries } from '../domain/endpoint-health';
import { PING_EVENT, testEventType } from '../domain/event-kinds';
import { DeliveryDispatcher } from './delivery-dispatcher';
import { EVENT_CATALOGUE, EventKind, eventKind } from './event-catalogue';
import { newDelivery } from './outbox-relay.service';
import { DeliveryRecord, OutboxRelayRepository, WebhookDeliveryRepository, WebhookEndpointRepository } from './webhook.ports';
import { DeliveryView, deliveryView } from './webhook.views';

/**
 * The event catalogue at the API (GET /webhooks/event-types) and test sends (POST
 * /webhooks/{id}/test): the sample of a chosen kind, signed and sent to that one endpoint through
 * the normal delivery path (delivery log, retries, re-send), whatever it subscribes to. Like a
 * ping, a test send is an outbox row born published, marked as a test (event-kinds.ts), so it
 * never reaches the event log, a replay or another endpoint.
 *
 * At boot (every process has loaded every context by then) it fails loudly if a context defines
 * an integration event the catalogue does not list: partners could not subscribe to it by name.
 */
@Injectable()
export class WebhookTestService implements OnModuleInit {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly outbox: OutboxRelayRepository,
    private readonly dispatcher: DeliveryDispatcher,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    const unlisted = allEventTypes().filter((type) => !eventKind(type));
    if (unlisted.length) throw new Error(`Integration events missing from the event catalogue (libs/webhooks event-catalogue.ts): ${unlisted.join(', ')}`);
  }

  eventTypes(): readonly EventKind[] {
    return EVENT_CATALOGUE;
  }

  async send(id: number, type: string): Promise<DeliveryView> {
    const kind = eventKind(type);
    if (!kind) throw ValidationFailedError.field('type', 'The selected type is not an event kind (see GET /webhooks/event-types).');
    const delivery = await this.createTest(id, kind);
    await this.dispatcher.dispatch([delivery]);
    return deliveryView(delivery);
  }

  @Transactional()
  async createTest(id: number, kind: EventKind): Promise<DeliveryRecord> {
    const endpoint = await this.endpoints.find(id);
    if (!endpoint) throw new NotFoundError('Webhook endpoint');
    if (!receivesDeliveries(endpoint))
      throw new ConflictError('webhook_endpoint_inactive', 'The endpoint is inactive or disabled; activate it (active: true) first.');
    const now = this.clock.now();
    const data = kind.type === PING_EVENT ? { ...kind.sample, endpoint_id: endpoint.id } : kind.sample;
    const event = await this.outbox.insertPublished(testEventType(kind.type), data as Record<string, unknown>, now);
    const delivery = newDelivery(endpoint.id, event.id, kind.type, now);
    await this.deliveries.insertMany([delivery]);
    return (await this.deliveries.findByUuid(delivery.uuid))!;
  }
}
