import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsIn, IsOptional, IsString } from 'class-validator';
import { DELIVERY_STATUSES, MAX_WEBHOOK_URL_LENGTH, WEBHOOK_EVENT_KINDS, WEBHOOK_EVENT_SUBSCRIPTIONS } from '@pos/webhooks';
import { OptionalDateTime } from '../http/date-time.validator';
import { PageQueryDto } from '../http/page-query.dto';
import { OptionalBoolean, OptionalString, RequiredString } from '../http/validators';

const EVENTS_TEXT = `Event kinds to receive (at least one; duplicates are ignored), or "*" for every kind.`;
const trimmedEach = Transform(({ value }: { value: unknown }) =>
  Array.isArray(value) ? value.map((v: unknown) => (typeof v === 'string' ? v.trim() : v)) : value,
);
const eventRules = [
  trimmedEach,
  IsArray(),
  ArrayMinSize(1),
  ArrayMaxSize(WEBHOOK_EVENT_SUBSCRIPTIONS.length * 2),
  IsString({ each: true }),
  IsIn([...WEBHOOK_EVENT_SUBSCRIPTIONS], { each: true, message: `each value in $property must be one of: ${WEBHOOK_EVENT_SUBSCRIPTIONS.join(', ')}` }),
];
const eventsSchema: ApiPropertyOptions = {
  type: String,
  isArray: true,
  enum: [...WEBHOOK_EVENT_SUBSCRIPTIONS],
  minItems: 1,
  maxItems: WEBHOOK_EVENT_SUBSCRIPTIONS.length * 2,
  description: EVENTS_TEXT,
  example: ['sale.completed', 'sale.voided'],
};
const RequiredEvents = () => applyDecorators(ApiProperty(eventsSchema), IsDefined(), ...eventRules);
const OptionalEvents = () => applyDecorators(ApiPropertyOptional(eventsSchema), IsOptional(), ...eventRules);
const URL_TEXT =
  'http(s) URL without credentials. Its host must resolve only to public addresses (no loopback, private, ' +
  'carrier-grade NAT, link-local, multicast, unspecified or reserved address, IPv4 or IPv6) unless WEBHOOK_ALLOW_PRIVATE_TARGETS=true. Stored normalised.';

const REPLAY_TEXT =
  'Also deliver the past events the endpoint subscribes to, created at or after this instant (ISO 8601 with a zone; ' +
  'within EVENT_RETENTION_DAYS, not in the future, the endpoint active): one delivery per (event, endpoint), never two, ' +
  'created and queued in event order before the answer. 422 otherwise.';

export class CreateWebhookDto {
  @RequiredString({ max: MAX_WEBHOOK_URL_LENGTH, example: 'https://partner.example.com/pos/webhooks', description: URL_TEXT }) url!: string;
  @RequiredEvents() events!: string[];
  @OptionalString({ max: 255, example: 'Accounting sync' }) description?: string | null;
  @OptionalBoolean('Whether the endpoint receives events (default true)') active?: boolean;
  @OptionalDateTime(REPLAY_TEXT) replay_from?: Date;
}

export class UpdateWebhookDto {
  @OptionalString({ max: MAX_WEBHOOK_URL_LENGTH, nonEmpty: true, description: URL_TEXT }) url?: string;
  @OptionalEvents() events?: string[];
  @OptionalString({ max: 255 }) description?: string | null;
  @OptionalBoolean(
    'false stops deliveries: events while inactive are not queued for this endpoint (send replay_from with active: true to receive them); true starts them again and clears an automatic disable',
  )
  active?: boolean;
  @OptionalDateTime(REPLAY_TEXT) replay_from?: Date;
}

export class DeliveryListQuery extends PageQueryDto {
  @OptionalString({ in: DELIVERY_STATUSES, description: 'pending, delivered or failed' }) status?: 'pending' | 'delivered' | 'failed';
  @OptionalString({ max: 64, in: WEBHOOK_EVENT_KINDS, description: 'Only this event kind' }) event?: string;
}

// ---- response shapes (OpenAPI) -------------------------------------------------------------

export class WebhookEndpointSchema {
  @ApiProperty({ type: 'integer', example: 1 }) id!: number;
  @ApiProperty({ example: 'https://partner.example.com/pos/webhooks' }) url!: string;
  @ApiProperty({ type: String, nullable: true, example: 'Accounting sync' }) description!: string | null;
  @ApiProperty({ type: [String], example: ['sale.completed'] }) events!: string[];
  @ApiProperty({ description: 'Receives events (false when switched off or disabled automatically)' }) active!: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Set when disabled after failing continuously' }) disabled_at!: string | null;
  @ApiProperty({ type: String, nullable: true, example: null }) disabled_reason!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Start of the current run of failed attempts' }) failing_since!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Until then the rotated-out secret signs too' })
  previous_secret_expires_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class CreatedWebhookEndpointSchema extends WebhookEndpointSchema {
  @ApiProperty({ description: 'The signing secret. Shown only here (and on rotation): store it now.', example: 'whsec_3q2+7w...' }) secret!: string;
}

export class RotatedSecretSchema {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty({ description: 'The new signing secret, shown once' }) secret!: string;
  @ApiProperty({ format: 'date-time', description: 'Until then every delivery carries a second signature made with the old secret' })
  previous_secret_expires_at!: string;
}

export class WebhookDeliverySchema {
  @ApiProperty({ format: 'uuid', description: 'The delivery id: X-Service-Delivery-Id, the same on every attempt and re-send' }) id!: string;
  @ApiProperty({ type: 'integer' }) endpoint_id!: number;
  @ApiProperty({ type: 'integer', description: 'The event id (body `id`)' }) event_id!: number;
  @ApiProperty({ enum: WEBHOOK_EVENT_KINDS, example: 'sale.completed' }) event!: string;
  @ApiProperty({ enum: DELIVERY_STATUSES }) status!: string;
  @ApiProperty({ type: 'integer', minimum: 0 }) attempts!: number;
  @ApiProperty({ type: 'integer', nullable: true, example: 200 }) last_status_code!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Duration of the last attempt in ms' }) last_duration_ms!: number | null;
  @ApiProperty({ type: String, nullable: true, example: null }) last_error!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_attempt_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When pending: the next attempt' }) next_attempt_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) delivered_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class WebhookAttemptSchema {
  @ApiProperty({ type: 'integer', minimum: 1 }) attempt!: number;
  @ApiProperty({ format: 'date-time' }) started_at!: string;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Null when no response came' }) status_code!: number | null;
  @ApiProperty({ type: 'integer' }) duration_ms!: number;
  @ApiProperty({ type: String, nullable: true, example: 'Timed out after 10000 ms' }) error!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Address connected to' }) remote_address!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'First 1 KB of the response body' }) response_excerpt!: string | null;
}

export class WebhookPayloadSchema {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty({ example: 'sale.completed' }) type!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The event data' }) data!: Record<string, unknown>;
  @ApiPropertyOptional({ type: Boolean, enum: [true], description: 'Only on a test send (POST /webhooks/{id}/test): true' }) test?: true;
}

export class WebhookDeliveryDetailSchema extends WebhookDeliverySchema {
  @ApiProperty({ type: WebhookPayloadSchema, nullable: true, description: 'The body sent (signed afresh on each attempt)' })
  payload!: WebhookPayloadSchema | null;
  @ApiProperty({ type: [WebhookAttemptSchema] }) attempt_log!: WebhookAttemptSchema[];
}
