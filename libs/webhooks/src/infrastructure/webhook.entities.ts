import { Column, Entity, PrimaryGeneratedColumn, ValueTransformer } from 'typeorm';
import { utcDate } from '@pos/platform/database/columns';
import type { OutboxEventEntity } from '@pos/platform';
import type { DeliveryStatus } from '../domain/delivery';
import type { AttemptRecord, DeliveryRecord, EndpointRecord } from '../application/webhook.ports';

const date = (name: string, nullable = true) => ({ name, type: 'datetime' as const, precision: 3, nullable, transformer: utcDate });
const jsonList: ValueTransformer = {
  to: (value: string[] | undefined) => (value === undefined ? value : JSON.stringify(value)),
  from: (value: string | null) => (value ? (JSON.parse(value) as string[]) : []),
};

@Entity('webhook_endpoints')
export class WebhookEndpointEntity implements EndpointRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 2048 }) url!: string;
  @Column({ type: 'varchar', nullable: true }) description!: string | null;
  @Column({ type: 'text', transformer: jsonList }) events!: string[];
  @Column({ type: 'boolean' }) active!: boolean;
  @Column({ name: 'secret_sealed', type: 'text' }) secretSealed!: string;
  @Column({ name: 'previous_secret_sealed', type: 'text', nullable: true }) previousSecretSealed!: string | null;
  @Column(date('previous_secret_expires_at')) previousSecretExpiresAt!: Date | null;
  @Column(date('failing_since')) failingSince!: Date | null;
  @Column(date('disabled_at')) disabledAt!: Date | null;
  @Column({ name: 'disabled_reason', type: 'varchar', nullable: true }) disabledReason!: string | null;
  @Column({ name: 'created_by', type: 'integer', nullable: true }) createdBy!: number | null;
  @Column(date('created_at', false)) createdAt!: Date;
  @Column(date('updated_at', false)) updatedAt!: Date;
}

@Entity('webhook_deliveries')
export class WebhookDeliveryEntity implements DeliveryRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 36 }) uuid!: string;
  @Column({ name: 'endpoint_id', type: 'integer' }) endpointId!: number;
  @Column({ name: 'event_id', type: 'integer' }) eventId!: number;
  @Column({ name: 'event_type', type: 'varchar' }) eventType!: string;
  @Column({ type: 'varchar' }) status!: DeliveryStatus;
  @Column({ type: 'integer' }) attempts!: number;
  @Column({ name: 'round_start', type: 'integer' }) roundStart!: number;
  @Column(date('next_attempt_at')) nextAttemptAt!: Date | null;
  @Column(date('last_attempt_at')) lastAttemptAt!: Date | null;
  @Column({ name: 'last_status_code', type: 'integer', nullable: true }) lastStatusCode!: number | null;
  @Column({ name: 'last_duration_ms', type: 'integer', nullable: true }) lastDurationMs!: number | null;
  @Column({ name: 'last_error', type: 'varchar', nullable: true }) lastError!: string | null;
  @Column(date('delivered_at')) deliveredAt!: Date | null;
  @Column({ name: 'locked_by', type: 'varchar', nullable: true }) lockedBy!: string | null;
  @Column(date('locked_until')) lockedUntil!: Date | null;
  @Column(date('created_at', false)) createdAt!: Date;
  @Column(date('updated_at', false)) updatedAt!: Date;
  /** Filled only by loadForSend's joins (not columns). */
  endpoint?: WebhookEndpointEntity;
  event?: OutboxEventEntity;
}

@Entity('webhook_delivery_attempts')
export class WebhookDeliveryAttemptEntity implements AttemptRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'delivery_id', type: 'integer' }) deliveryId!: number;
  @Column({ type: 'integer' }) attempt!: number;
  @Column(date('started_at', false)) startedAt!: Date;
  @Column({ name: 'status_code', type: 'integer', nullable: true }) statusCode!: number | null;
  @Column({ name: 'duration_ms', type: 'integer' }) durationMs!: number;
  @Column({ type: 'varchar', nullable: true }) error!: string | null;
  @Column({ name: 'remote_address', type: 'varchar', nullable: true }) remoteAddress!: string | null;
  @Column({ name: 'response_excerpt', type: 'text', nullable: true }) responseExcerpt!: string | null;
}

export const WEBHOOK_ENTITIES = [WebhookEndpointEntity, WebhookDeliveryEntity, WebhookDeliveryAttemptEntity];
