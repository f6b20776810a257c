import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import { Clock } from '@pos/kernel';
import { JobHandler, Metrics } from '@pos/platform';
import { attemptSucceeded, DeliveryProgress, progressAfterAttempt } from '../domain/delivery';
import { healthAfterFailure, healthAfterSuccess, receivesDeliveries } from '../domain/endpoint-health';
import { sentEventType } from '../domain/event-kinds';
import { deliveryBody, signatureHeader } from '../domain/signature';
import { DeliverWebhookJob, DeliveryDispatcher } from './delivery-dispatcher';
import {
  DeliveryRecord,
  EndpointRecord,
  OutboxEventRecord,
  SendResult,
  WebhookDeliveryRepository,
  WebhookEndpointRepository,
  WebhookSender,
} from './webhook.ports';
import { WebhookSecrets, WebhookSettings } from './webhook-settings';

export const WEBHOOK_USER_AGENT = 'POS-Service-Webhooks/1.0';

/**
 * Sends one attempt of one delivery (the handler of DeliverWebhookJob):
 *   1. claim: a lease on the delivery row, only if it is pending and due (a duplicate or stale
 *      job, or another worker holding it, ends here);
 *   2. sign and POST {id, type, created_at, data} with the X-Service-* headers (no transaction
 *      is open during the request);
 *   3. record, in one transaction: the attempt row, the delivery's new state (delivered, retry at
 *      next_attempt_at, or failed) and the endpoint's failing streak (disabling it after
 *      WEBHOOK_DISABLE_AFTER_HOURS); then queue the retry.
 * A crash anywhere leaves the delivery pending with a lease that runs out; the sweep queues it
 * again, with the same delivery id (at-least-once).
 */
@Injectable()
export class WebhookDeliveryService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private readonly inFlight = new Set<Promise<void>>();
  private readonly waiting: (() => void)[] = [];
  private running = 0;
  /** Attempts being sent now, by endpoint (WEBHOOK_ENDPOINT_CONCURRENCY at most each). */
  private readonly sending = new Map<number, number>();
  private closing = false;

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly sender: WebhookSender,
    private readonly secrets: WebhookSecrets,
    private readonly settings: WebhookSettings,
    private readonly dispatcher: DeliveryDispatcher,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
  ) {}

  @JobHandler(DeliverWebhookJob)
  async handle(payload: { delivery: string }): Promise<void> {
    // Shutting down: fail the job so the queue runs it again later (the delivery is untouched).
    if (this.closing) throw new Error('shutting down');
    await this.acquireSlot();
    if (this.closing) {
      this.releaseSlot();
      throw new Error('shutting down');
    }
    const run = this.attempt(payload.delivery).finally(() => this.releaseSlot());
    this.inFlight.add(run);
    try {
      await run;
    } finally {
      this.inFlight.delete(run);
    }
  }

  async attempt(uuid: string): Promise<void> {
    const claimed = await this.claim(uuid);
    if (!claimed) return;
    const { delivery, endpoint, event } = claimed;
    if (!receivesDeliveries(endpoint)) {
      await this.close(delivery, 'The endpoint is inactive or disabled; the delivery was not sent.');
      return;
    }
    const busy = this.sending.get(endpoint.id) ?? 0;
    if (busy >= this.settings.config.endpointConcurrency) {
      await this.defer(delivery);
      return;
    }
    this.sending.set(endpoint.id, busy + 1);
    try {
      await this.send(uuid, delivery, endpoint, event);
    } finally {
      const left = (this.sending.get(endpoint.id) ?? 1) - 1;
      if (left > 0) this.sending.set(endpoint.id, left);
      else this.sending.delete(endpoint.id);
    }
  }

  /**
   * The endpoint already has its share of attempts in flight here: the delivery gives its lease
   * back, unchanged (no attempt counted), and is queued again in about half a timeout, so a slow
   * receiver's backlog waits without holding the slots every other endpoint needs.
   */
  private async defer(delivery: DeliveryRecord): Promise<void> {
    const now = this.clock.now();
    const half = this.settings.config.timeoutMs / 2;
    const nextAttemptAt = new Date(now.getTime() + Math.round(half + Math.random() * half));
    if (await this.deliveries.settle(delivery.uuid, this.settings.owner, { nextAttemptAt, updatedAt: now }))
      await this.dispatcher.dispatch([{ uuid: delivery.uuid, attempts: delivery.attempts, nextAttemptAt }]);
  }

  private async send(uuid: string, delivery: DeliveryRecord, endpoint: EndpointRecord, event: OutboxEventRecord): Promise<void> {
    const sent = sentEventType(event.type);
    const body = deliveryBody({ id: event.id, type: sent.type, test: sent.test, createdAt: event.createdAt, payloadJson: event.payload });
    const startedAt = this.clock.now();
    const timestamp = Math.floor(startedAt.getTime() / 1000);
    const secrets = this.signingSecrets(endpoint, startedAt);
    const result: SendResult = !secrets
      ? {
          statusCode: null,
          durationMs: 0,
          error: 'The signing secret cannot be opened (was APP_KEY changed?); rotate the secret.',
          remoteAddress: null,
          responseExcerpt: null,
        }
      : await this.sender.send({
          url: endpoint.url,
          body,
          timeoutMs: this.settings.config.timeoutMs,
          allowPrivateTargets: this.settings.allowPrivateTargets,
          headers: {
            'Content-Type': 'application/json',
            'User-Agent': WEBHOOK_USER_AGENT,
            'X-Service-Event': sent.type,
            'X-Service-Timestamp': String(timestamp),
            'X-Service-Signature': signatureHeader(secrets, timestamp, body),
            'X-Service-Delivery-Id': delivery.uuid,
          },
        });
    const next = await this.record(delivery, endpoint, startedAt, result);
    if (next) this.metrics.webhookAttempt(next.status === 'delivered' ? 'delivered' : next.status === 'pending' ? 'retrying' : 'failed');
    if (next?.status === 'pending') await this.dispatcher.dispatch([{ uuid, attempts: delivery.attempts + 1, nextAttemptAt: next.nextAttemptAt }]);
  }

  /** The current secret, and the previous one while its 24 hours after a rotation last; null when unreadable. */
  private signingSecrets(endpoint: EndpointRecord, now: Date): string[] | null {
    try {
      const secrets = [this.secrets.unseal(endpoint.secretSealed)];
      if (endpoint.previousSecretSealed && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) {
        secrets.push(this.secrets.unseal(endpoint.previousSecretSealed));
      }
      return secrets;
    } catch {
      return null;
    }
  }

  /** The lease and everything the attempt needs (null: not ours to send). */
  claim(uuid: string): Promise<{ delivery: DeliveryRecord; endpoint: EndpointRecord; event: OutboxEventRecord } | null> {
    return this.settings.claimInTransaction ? this.claimInTx(uuid) : this.claimNow(uuid);
  }

  @Transactional()
  private claimInTx(uuid: string): Promise<{ delivery: DeliveryRecord; endpoint: EndpointRecord; event: OutboxEventRecord } | null> {
    return this.claimNow(uuid);
  }

  private async claimNow(uuid: string): Promise<{ delivery: DeliveryRecord; endpoint: EndpointRecord; event: OutboxEventRecord } | null> {
    const now = this.clock.now();
    if (!(await this.deliveries.claim(uuid, this.settings.owner, now, new Date(now.getTime() + this.settings.leaseMs)))) return null;
    return this.deliveries.loadForSend(uuid); // null: the endpoint was deleted meanwhile
  }

  @Transactional()
  async record(delivery: DeliveryRecord, sentTo: EndpointRecord, startedAt: Date, result: SendResult): Promise<DeliveryProgress | null> {
    const now = this.clock.now();
    const attempt = delivery.attempts + 1;
    const progress = progressAfterAttempt(attempt - delivery.roundStart, result, now, this.settings.config.retryScheduleSeconds);
    const error =
      result.error ?? (attemptSucceeded(result) ? null : `HTTP ${result.statusCode}${isRedirect(result.statusCode) ? ' (redirects are not followed)' : ''}`);
    const mine = await this.deliveries.settle(delivery.uuid, this.settings.owner, {
      status: progress.status,
      attempts: attempt,
      nextAttemptAt: progress.nextAttemptAt,
      deliveredAt: progress.deliveredAt ?? delivery.deliveredAt,
      lastAttemptAt: startedAt,
      lastStatusCode: result.statusCode,
      lastDurationMs: result.durationMs,
      lastError: clip(error, 500),
      updatedAt: now,
    });
    if (!mine) {
      if (!(await this.deliveries.findByUuid(delivery.uuid))) return null; // deleted with its endpoint meanwhile
      // Only when the lease ran out (a stalled process): another sender owns the delivery now.
      this.logger.warn(`delivery ${delivery.uuid}: lease lost before attempt ${attempt} was recorded; the attempt is logged, the state left to the new holder`);
    }
    await this.deliveries.addAttempt({
      deliveryId: delivery.id,
      attempt,
      startedAt,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      error: clip(error, 500),
      remoteAddress: result.remoteAddress,
      responseExcerpt: result.responseExcerpt,
    });
    // A success at a healthy endpoint (the common case) changes nothing there: no read, no write.
    const succeeded = attemptSucceeded(result);
    const endpoint = succeeded && healthAfterSuccess(sentTo) === null ? null : await this.endpoints.find(delivery.endpointId);
    if (endpoint) {
      const health = succeeded ? healthAfterSuccess(endpoint) : healthAfterFailure(endpoint, now, this.settings.config.disableAfterHours);
      if (health) {
        await this.endpoints.update(endpoint.id, { ...health, updatedAt: now });
        if (health.disabledAt) this.logger.warn(`webhook endpoint ${endpoint.id} disabled: ${health.disabledReason}`);
      }
    }
    return mine ? progress : null;
  }

  /** Ends a delivery without sending it (the endpoint no longer takes deliveries). */
  @Transactional()
  async close(delivery: DeliveryRecord, reason: string): Promise<void> {
    await this.deliveries.settle(delivery.uuid, this.settings.owner, { status: 'failed', nextAttemptAt: null, lastError: reason, updatedAt: this.clock.now() });
  }

  private async acquireSlot(): Promise<void> {
    if (this.running < this.settings.config.concurrency) {
      this.running++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private releaseSlot(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }

  /** Lets the attempts in progress finish and record themselves before the database closes. */
  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }
}

function isRedirect(status: number | null): boolean {
  return status !== null && status >= 300 && status < 400;
}

function clip(text: string | null, max: number): string | null {
  return text === null || text.length <= max ? text : text.slice(0, max - 1) + '…';
}
