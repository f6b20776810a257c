import { MigrationInterface, QueryRunner, Table, TableColumnOptions } from 'typeorm';
import { col, fk } from '../columns';

/** Millisecond timestamps: retry times and commit-to-delivery lag are finer than a second. */
const at = (name: string, nullable = true): TableColumnOptions => ({ ...col.datetime(name, nullable), precision: 3 });

/**
 * Webhook endpoints (signing secrets sealed under APP_KEY), one delivery row per (outbox event,
 * endpoint) with its retry state and lease, and every attempt. The outbox itself is unchanged:
 * its (published_at, id) index already serves the relay.
 */
export class WebhookEndpointsAndDeliveries1763800150000 implements MigrationInterface {
  name = 'WebhookEndpointsAndDeliveries1763800150000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'webhook_endpoints',
        columns: [
          col.id(),
          col.string('url', 2048),
          col.string('description', 255, { isNullable: true }),
          col.text('events', false),
          col.bool('active', true),
          col.text('secret_sealed', false),
          col.text('previous_secret_sealed'),
          at('previous_secret_expires_at'),
          at('failing_since'),
          at('disabled_at'),
          col.string('disabled_reason', 255, { isNullable: true }),
          col.ref('created_by', true),
          at('created_at', false),
          at('updated_at', false),
        ],
        indices: [{ columnNames: ['active'] }],
      }),
    );
    await q.createTable(
      new Table({
        name: 'webhook_deliveries',
        columns: [
          col.id(),
          col.string('uuid', 36, { isUnique: true }),
          col.ref('endpoint_id'),
          col.ref('event_id'),
          col.string('event_type', 64),
          col.string('status', 16),
          col.int('attempts', { default: 0 }),
          col.int('round_start', { default: 0 }),
          at('next_attempt_at'),
          at('last_attempt_at'),
          col.int('last_status_code', { isNullable: true }),
          col.int('last_duration_ms', { isNullable: true }),
          col.string('last_error', 500, { isNullable: true }),
          at('delivered_at'),
          col.string('locked_by', 64, { isNullable: true }),
          at('locked_until'),
          at('created_at', false),
          at('updated_at', false),
        ],
        foreignKeys: [fk('endpoint_id', 'webhook_endpoints', 'CASCADE'), fk('event_id', 'outbox_events')],
        indices: [
          { columnNames: ['event_id', 'endpoint_id'], isUnique: true },
          { columnNames: ['endpoint_id', 'id'] },
          { columnNames: ['status', 'next_attempt_at'] },
          { columnNames: ['updated_at'] },
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'webhook_delivery_attempts',
        columns: [
          col.id(),
          col.ref('delivery_id'),
          col.int('attempt'),
          at('started_at', false),
          col.int('status_code', { isNullable: true }),
          col.int('duration_ms'),
          col.string('error', 500, { isNullable: true }),
          col.string('remote_address', 64, { isNullable: true }),
          col.text('response_excerpt'),
        ],
        foreignKeys: [fk('delivery_id', 'webhook_deliveries', 'CASCADE')],
        indices: [{ columnNames: ['delivery_id', 'attempt'] }],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['webhook_delivery_attempts', 'webhook_deliveries', 'webhook_endpoints']) await q.dropTable(table);
  }
}
