import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Principal } from '@pos/identity';
import { WebhookEndpointService, WebhookTestService } from '@pos/webhooks';
import { CurrentPrincipal, RequirePermission } from '../access/policy.decorators';
import { MessageResult } from '../http/envelope';
import { IdPipe } from '../http/id.pipe';
import { PageQueryDto, pageRequest } from '../http/page-query.dto';
import {
  CreatedWebhookEndpointSchema,
  CreateWebhookDto,
  DeliveryListQuery,
  RotatedSecretSchema,
  UpdateWebhookDto,
  WebhookDeliveryDetailSchema,
  WebhookDeliverySchema,
  WebhookEndpointSchema,
} from './webhooks.dto';
import { endpointInput } from './webhooks.mapper';
import { ApiEnvelope, ApiErrors, ApiMessage } from './webhooks.openapi';
import { ApiEnvelope as ApiDataEnvelope } from '../http/openapi';
import { TestWebhookDto } from './webhook-events.dto';
import { EVENT_TYPES_SCHEMA } from './webhook-events.openapi';
import { IdempotentCreate } from '../http/idempotency.decorator';
import { PatchToo } from '../http/partial-update';

const PAGE = { default: 50, max: 100 };
const WebhookParam = () =>
  ApiParam({ name: 'webhook', schema: { type: 'string', pattern: '^[1-9][0-9]*$', example: '1' }, description: 'Endpoint id (anything else is a 404)' });
const DeliveryParam = () =>
  ApiParam({ name: 'delivery', type: String, format: 'uuid', description: 'Delivery id (= X-Service-Delivery-Id; anything else is a 404)' });

/** Outbound webhook endpoints and their delivery log (decisions.md, Webhooks; README "Webhooks"). */
@ApiTags('Webhooks')
@Controller('webhooks')
export class WebhooksController {
  constructor(
    private readonly webhooks: WebhookEndpointService,
    private readonly catalogue: WebhookTestService,
  ) {}

  @Post()
  @IdempotentCreate({ mode: 'claim', secrets: ['secret'] }) // replay_from commits and queues in batches
  @HttpCode(201)
  @RequirePermission('webhooks.manage')
  @ApiOperation({ summary: 'Create an endpoint; the signing secret is in this response only' })
  @ApiEnvelope(CreatedWebhookEndpointSchema, { status: 201, description: 'Created, with its signing secret (shown once)' })
  @ApiErrors(400, 413, 422)
  create(@CurrentPrincipal() p: Principal, @Body() b: CreateWebhookDto) {
    return this.webhooks.create(endpointInput(b), p.userId);
  }

  @Get()
  @RequirePermission('webhooks.manage')
  @ApiOperation({ summary: 'Endpoints (paginated; per_page default 50, max 100)' })
  @ApiEnvelope(WebhookEndpointSchema, { paginated: true })
  @ApiErrors(422)
  list(@Query() q: PageQueryDto) {
    return this.webhooks.list(pageRequest(q, PAGE));
  }

  @Get('event-types')
  @RequirePermission('webhooks.manage')
  @ApiOperation({
    summary: 'The event catalogue: every kind an endpoint can subscribe to, with its description, resource, read permission and a sample `data`',
    description: 'Each kind is its own schema (`<Kind>EventType`, discriminated by `type`); its `data` schema is `<Kind>EventData`.',
  })
  @ApiDataEnvelope(EVENT_TYPES_SCHEMA)
  eventTypes() {
    return this.catalogue.eventTypes();
  }

  @Get(':webhook')
  @RequirePermission('webhooks.manage')
  @WebhookParam()
  @ApiOperation({ summary: 'One endpoint (never its secret)' })
  @ApiEnvelope(WebhookEndpointSchema)
  @ApiErrors(404)
  show(@Param('webhook', IdPipe) id: number) {
    return this.webhooks.show(id);
  }

  @PatchToo()
  @Put(':webhook')
  @RequirePermission('webhooks.manage')
  @WebhookParam()
  @ApiOperation({ summary: 'Change url, events, description or active (only the fields given)' })
  @ApiEnvelope(WebhookEndpointSchema)
  @ApiErrors(400, 404, 413, 422)
  update(@Param('webhook', IdPipe) id: number, @Body() b: UpdateWebhookDto) {
    return this.webhooks.update(id, endpointInput(b));
  }

  @Delete(':webhook')
  @RequirePermission('webhooks.manage')
  @WebhookParam()
  @ApiOperation({ summary: 'Delete an endpoint and its delivery log' })
  @ApiMessage('Deleted')
  @ApiErrors(404)
  async remove(@Param('webhook', IdPipe) id: number) {
    await this.webhooks.remove(id);
    return new MessageResult('Webhook endpoint deleted.');
  }

  @Post(':webhook/rotate-secret')
  @HttpCode(200)
  @RequirePermission('webhooks.manage')
  @WebhookParam()
  @ApiOperation({ summary: 'New signing secret (shown once); the old one keeps signing beside it for 24 h' })
  @ApiEnvelope(RotatedSecretSchema)
  @ApiErrors(404)
  rotate(@Param('webhook', IdPipe) id: number) {
    return this.webhooks.rotateSecret(id);
  }

  @Post(':webhook/ping')
  @HttpCode(202)
  @RequirePermission('webhooks.manage')
  @WebhookParam()
  @ApiOperation({ summary: 'Queue a signed `ping` event to this endpoint; follow it in its delivery log' })
  @ApiEnvelope(WebhookDeliverySchema, { status: 202, description: 'Queued' })
  @ApiErrors(404, 409)
  ping(@Param('webhook', IdPipe) id: number) {
    return this.webhooks.ping(id);
  }

  @Post(':webhook/test')
  @HttpCode(202)
  @RequirePermission('webhooks.manage')
  @WebhookParam()
  @ApiOperation({
    summary: 'Queue a signed sample of a chosen event kind to this endpoint (whatever it subscribes to); follow it in its delivery log',
    description: "Body sent: `{id, type, created_at, data, test: true}` with the kind's sample as `data`, signed as any delivery. Never in the event log.",
  })
  @ApiEnvelope(WebhookDeliverySchema, { status: 202, description: 'Queued' })
  @ApiErrors(404, 409, 422)
  test(@Param('webhook', IdPipe) id: number, @Body() b: TestWebhookDto) {
    return this.catalogue.send(id, b.type);
  }

  @Get(':webhook/deliveries')
  @RequirePermission('webhooks.manage')
  @WebhookParam()
  @ApiOperation({ summary: 'Delivery log, newest first (status and event filters; per_page default 50, max 100)' })
  @ApiEnvelope(WebhookDeliverySchema, { paginated: true })
  @ApiErrors(404, 422)
  deliveries(@Param('webhook', IdPipe) id: number, @Query() q: DeliveryListQuery) {
    return this.webhooks.deliveriesOf(id, { status: q.status, event: q.event }, pageRequest(q, PAGE));
  }

  @Get(':webhook/deliveries/:delivery')
  @RequirePermission('webhooks.manage')
  @WebhookParam()
  @DeliveryParam()
  @ApiOperation({ summary: 'One delivery: its body and every attempt (status code, duration, error)' })
  @ApiEnvelope(WebhookDeliveryDetailSchema)
  @ApiErrors(404)
  delivery(@Param('webhook', IdPipe) id: number, @Param('delivery') delivery: string) {
    return this.webhooks.delivery(id, delivery);
  }

  @Post(':webhook/deliveries/:delivery/redeliver')
  @HttpCode(202)
  @RequirePermission('webhooks.manage')
  @WebhookParam()
  @DeliveryParam()
  @ApiOperation({ summary: 'Send a delivery again now, with the same delivery id (the retry schedule starts over)' })
  @ApiEnvelope(WebhookDeliverySchema, { status: 202, description: 'Queued' })
  @ApiErrors(404, 409)
  redeliver(@Param('webhook', IdPipe) id: number, @Param('delivery') delivery: string) {
    return this.webhooks.redeliver(id, delivery);
  }
}
