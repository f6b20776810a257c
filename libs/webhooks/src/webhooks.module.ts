import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DeliveryDispatcher } from './application/delivery-dispatcher';
import { EventLogRepository } from './application/event-log.ports';
import { EventLogService } from './application/event-log.service';
import { EventReplayService } from './application/event-replay.service';
import { OutboxRelayService } from './application/outbox-relay.service';
import { WebhookTargetGuard } from './application/target-guard';
import { WebhookDeliveryService } from './application/webhook-delivery.service';
import { WebhookEndpointService } from './application/webhook-endpoint.service';
import { WebhookMaintenanceService } from './application/webhook-maintenance.service';
import { HostResolver, OutboxRelayRepository, WebhookDeliveryRepository, WebhookEndpointRepository, WebhookSender } from './application/webhook.ports';
import { WebhookSecrets, WebhookSettings } from './application/webhook-settings';
import { WebhookTestService } from './application/webhook-test.service';
import { TypeOrmEventLogRepository } from './infrastructure/event-log.repository';
import { NodeHttpWebhookSender, SystemHostResolver } from './infrastructure/node-http.sender';
import { WEBHOOK_ENTITIES } from './infrastructure/webhook.entities';
import { TypeOrmOutboxRelayRepository, TypeOrmWebhookDeliveryRepository, TypeOrmWebhookEndpointRepository } from './infrastructure/webhook.repositories';

/**
 * Signed webhooks: endpoints, the outbox relay, deliveries with retries, the delivery log,
 * sweep and retention. Imported by the API (endpoints API; relay and deliveries too when jobs
 * run in-process), the worker (relay, deliveries, sweep, retention) and the CLI (so every
 * defined job has its handler; the CLI runs no periodic work).
 */
@Module({
  imports: [TypeOrmModule.forFeature(WEBHOOK_ENTITIES)],
  providers: [
    WebhookSettings,
    WebhookSecrets,
    WebhookTargetGuard,
    DeliveryDispatcher,
    WebhookEndpointService,
    OutboxRelayService,
    WebhookDeliveryService,
    WebhookMaintenanceService,
    WebhookTestService,
    EventLogService,
    EventReplayService,
    { provide: EventLogRepository, useClass: TypeOrmEventLogRepository },
    { provide: WebhookEndpointRepository, useClass: TypeOrmWebhookEndpointRepository },
    { provide: WebhookDeliveryRepository, useClass: TypeOrmWebhookDeliveryRepository },
    { provide: OutboxRelayRepository, useClass: TypeOrmOutboxRelayRepository },
    { provide: WebhookSender, useClass: NodeHttpWebhookSender },
    { provide: HostResolver, useClass: SystemHostResolver },
  ],
  exports: [WebhookTestService, WebhookEndpointService, OutboxRelayService, WebhookDeliveryService, WebhookMaintenanceService, EventLogService],
})
export class WebhooksModule {}
