import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * outbox_events (created_at, id): the event log (GET /integration/events) pages in this order
 * from a cursor, and retention (EVENT_RETENTION_DAYS) deletes by created_at (issue 26). The
 * unique (event_id, endpoint_id) index of webhook_deliveries, which makes replay_from and the
 * relay create each delivery once, exists since 1763800150000.
 */
export class OutboxEventsCreatedAt1764810000000 implements MigrationInterface {
  name = 'OutboxEventsCreatedAt1764810000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createIndex('outbox_events', new TableIndex({ name: 'IDX_outbox_events_created_at_id', columnNames: ['created_at', 'id'] }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('outbox_events', 'IDX_outbox_events_created_at_id');
  }
}
