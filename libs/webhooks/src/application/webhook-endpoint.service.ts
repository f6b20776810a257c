import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import { Clock, ConflictError, NotFoundError, Page, PageRequest, ValidationFailedError } from '@pos/kernel';
import { DeliveryStatus } from '../domain/delivery';
import { receivesDeliveries } from '../domain/endpoint-health';
import { PING_EVENT, sentEventType } from '../domain/event-kinds';
import { deliveryBody, newSigningSecret } from '../domain/signature';
import { DeliveryDispatcher } from './delivery-dispatcher';
import { retentionCutoff } from './event-log.service';
import { EventReplayService } from './event-replay.service';
import { newDelivery } from './outbox-relay.service';
import { WebhookTargetGuard } from './target-guard';
import { DeliveryRecord, EndpointRecord, OutboxRelayRepository, WebhookDeliveryRepository, WebhookEndpointRepository } from './webhook.ports';
import { WebhookSecrets, WebhookSettings } from './webhook-settings';
import { attemptView, DeliveryView, deliveryView, EndpointView, endpointView } from './webhook.views';
import { AuditLog } from '@pos/platform';

export interface EndpointInput {
  url: string;
  events: string[];
  description?: string | null;
  active?: boolean;
  /** Replay the kept events created at or after this instant to the endpoint (within EVENT_RETENTION_DAYS). */
  replayFrom?: Date;
}

/**
 * Webhook endpoints (`webhooks.manage`): create (the signing secret is shown once, then only
 * its sealed form is kept), list, show, update, delete, rotate the secret (the old one keeps
 * signing beside the new for 24 h), ping, and the delivery log with re-sends. Create and update
 * take `replay_from`: the endpoint then receives the past events it subscribes to (see
 * EventReplayService), once it (or its change) has committed.
 */
@Injectable()
export class WebhookEndpointService {
  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly outbox: OutboxRelayRepository,
    private readonly guard: WebhookTargetGuard,
    private readonly secrets: WebhookSecrets,
    private readonly settings: WebhookSettings,
    private readonly dispatcher: DeliveryDispatcher,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
    private readonly replayer: EventReplayService,
  ) {}

  async create(input: EndpointInput, userId: number | null): Promise<EndpointView & { secret: string }> {
    const url = await this.guard.check(input.url);
    this.checkReplay(input.replayFrom, input.active ?? true);
    const secret = newSigningSecret();
    const created = await this.insert({ ...input, url }, this.secrets.seal(secret), userId);
    if (input.replayFrom) await this.replayer.replay(created.id, input.replayFrom);
    return { ...endpointView(created), secret };
  }

  @Transactional()
  async insert(input: EndpointInput, secretSealed: string, userId: number | null): Promise<EndpointRecord> {
    const now = this.clock.now();
    const created = await this.endpoints.create({
      url: input.url,
      description: input.description ?? null,
      events: dedupe(input.events),
      active: input.active ?? true,
      secretSealed,
      previousSecretSealed: null,
      previousSecretExpiresAt: null,
      failingSince: null,
      disabledAt: null,
      disabledReason: null,
      createdBy: userId,
      createdAt: now,
      updatedAt: now,
    });
    await this.audit.record({ action: 'webhook_endpoint.created', target: { type: 'webhook_endpoint', id: created.id }, after: endpointView(created) });
    return created;
  }

  async list(page: PageRequest): Promise<Page<EndpointView>> {
    return (await this.endpoints.list(page)).map(endpointView);
  }

  async show(id: number): Promise<EndpointView> {
    return endpointView(await this.endpoint(id));
  }

  /** Changes only the fields given; a new url passes the SSRF guard; active: true re-enables a disabled endpoint. */
  async update(id: number, input: Partial<EndpointInput>): Promise<EndpointView> {
    const current = await this.endpoint(id);
    const url = input.url === undefined ? undefined : await this.guard.check(input.url);
    this.checkReplay(input.replayFrom, input.active ?? receivesDeliveries(current));
    const updated = await this.applyUpdate(id, { ...input, url });
    if (input.replayFrom) await this.replayer.replay(id, input.replayFrom);
    return endpointView(updated);
  }

  /** replay_from: within the event retention, not in the future, for an endpoint that takes deliveries. */
  private checkReplay(from: Date | undefined, willReceive: boolean): void {
    if (from === undefined) return;
    const now = this.clock.now();
    const days = this.settings.config.eventRetentionDays;
    const problem =
      from > now
        ? 'The replay_from must not be in the future.'
        : from < retentionCutoff(now, days)
          ? `The replay_from must be within the last ${days} days (EVENT_RETENTION_DAYS): older events are not kept.`
          : !willReceive
            ? 'Events can be replayed only to an active endpoint (give active: true).'
            : null;
    if (problem) throw ValidationFailedError.field('replay_from', problem);
  }

  @Transactional()
  async applyUpdate(id: number, input: Partial<EndpointInput>): Promise<EndpointRecord> {
    const before = await this.endpoint(id);
    const changes: Partial<EndpointRecord> = { updatedAt: this.clock.now() };
    if (input.url !== undefined) changes.url = input.url;
    if (input.events !== undefined) changes.events = dedupe(input.events);
    if (input.description !== undefined) changes.description = input.description;
    if (input.active === true) Object.assign(changes, { active: true, disabledAt: null, disabledReason: null, failingSince: null });
    if (input.active === false) changes.active = false;
    await this.endpoints.update(id, changes);
    const after = await this.endpoint(id);
    await this.audit.record({
      action: 'webhook_endpoint.updated',
      target: { type: 'webhook_endpoint', id },
      before: endpointView(before),
      after: endpointView(after),
    });
    return after;
  }

  /** Deletes the endpoint with its delivery log; queued attempts find nothing and stop. */
  @Transactional()
  async remove(id: number): Promise<void> {
    const before = await this.endpoint(id);
    await this.endpoints.delete(id);
    await this.audit.record({ action: 'webhook_endpoint.deleted', target: { type: 'webhook_endpoint', id }, before: endpointView(before) });
  }

  /** A new secret, shown once; the previous one signs too (second signature) for 24 hours. */
  @Transactional()
  async rotateSecret(id: number): Promise<{ id: number; secret: string; previous_secret_expires_at: string }> {
    const endpoint = await this.endpoint(id);
    const now = this.clock.now();
    const secret = newSigningSecret();
    const expires = new Date(now.getTime() + this.settings.rotationOverlapMs);
    await this.endpoints.update(id, {
      secretSealed: this.secrets.seal(secret),
      previousSecretSealed: endpoint.secretSealed,
      previousSecretExpiresAt: expires,
      updatedAt: now,
    });
    await this.audit.record({
      action: 'webhook_endpoint.secret_rotated',
      target: { type: 'webhook_endpoint', id },
      after: { previous_secret_expires_at: expires.toISOString() },
    });
    return { id, secret, previous_secret_expires_at: expires.toISOString() };
  }

  /** Queues a `ping` event for this endpoint alone (whatever it subscribes to). */
  async ping(id: number): Promise<DeliveryView> {
    const delivery = await this.createPing(id);
    await this.dispatcher.dispatch([delivery]);
    return deliveryView(delivery);
  }

  @Transactional()
  async createPing(id: number): Promise<DeliveryRecord> {
    const endpoint = await this.receiving(id);
    const now = this.clock.now();
    const event = await this.outbox.insertPublished(PING_EVENT, { endpoint_id: endpoint.id, message: 'Webhook endpoint check from the POS service.' }, now);
    const delivery = newDelivery(endpoint.id, event.id, PING_EVENT, now);
    await this.deliveries.insertMany([delivery]);
    return (await this.deliveries.findByUuid(delivery.uuid))!;
  }

  async deliveriesOf(id: number, filter: { status?: DeliveryStatus; event?: string }, page: PageRequest): Promise<Page<DeliveryView>> {
    await this.endpoint(id);
    return (await this.deliveries.list(id, { status: filter.status, eventType: filter.event }, page)).map(deliveryView);
  }

  /** One delivery with every attempt and the body it sends. */
  async delivery(id: number, uuid: string) {
    const d = await this.deliveryOf(id, uuid);
    const [attempts, event] = await Promise.all([this.deliveries.attempts(d.id), this.outbox.find(d.eventId)]);
    return {
      ...deliveryView(d),
      payload: event
        ? (JSON.parse(deliveryBody({ ...sentEventType(event.type), id: event.id, createdAt: event.createdAt, payloadJson: event.payload })) as unknown)
        : null,
      attempt_log: attempts.map(attemptView),
    };
  }

  /** Sends the delivery again, same delivery id, starting the retry schedule over. */
  async redeliver(id: number, uuid: string): Promise<DeliveryView> {
    const d = await this.requeue(id, uuid);
    await this.dispatcher.dispatch([d]);
    return deliveryView(d);
  }

  @Transactional()
  async requeue(id: number, uuid: string): Promise<DeliveryRecord> {
    await this.receiving(id);
    const d = await this.deliveryOf(id, uuid);
    const now = this.clock.now();
    if (d.lockedUntil && d.lockedUntil > now)
      throw new ConflictError('webhook_delivery_in_progress', 'An attempt of this delivery is in progress; try again in a few seconds.');
    await this.deliveries.update(d.id, { status: 'pending', nextAttemptAt: now, roundStart: d.attempts, updatedAt: now });
    return (await this.deliveries.findByUuid(uuid))!;
  }

  private async endpoint(id: number): Promise<EndpointRecord> {
    const e = await this.endpoints.find(id);
    if (!e) throw new NotFoundError('Webhook endpoint');
    return e;
  }

  private async receiving(id: number): Promise<EndpointRecord> {
    const e = await this.endpoint(id);
    if (!receivesDeliveries(e)) throw new ConflictError('webhook_endpoint_inactive', 'The endpoint is inactive or disabled; activate it (active: true) first.');
    return e;
  }

  private async deliveryOf(endpointId: number, uuid: string): Promise<DeliveryRecord> {
    const d = /^[0-9a-f-]{36}$/i.test(uuid) ? await this.deliveries.findByUuid(uuid.toLowerCase()) : null;
    if (!d || d.endpointId !== endpointId) throw new NotFoundError('Webhook delivery');
    return d;
  }
}

function dedupe(events: string[]): string[] {
  return [...new Set(events)];
}
