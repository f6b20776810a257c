import { ChangePosition } from '@pos/kernel';
import { OutboxEventRecord } from './webhook.ports';

/** What the event log reads: events after a position, in (created_at, id) order. */
export interface EventRange {
  /** Exclusive: events with (created_at, id) > (t, id). */
  after: ChangePosition;
  /** Inclusive upper bound on created_at (the change horizon); null: none. */
  upTo: Date | null;
  /** Only these kinds (never empty: the caller answers an empty set without asking). */
  types: readonly string[];
  /** Only events of these stores, or of no store; 'all': every store. */
  stores: readonly number[] | 'all';
  limit: number;
}

/**
 * The event log's view of the outbox (`outbox_events`, owned by platform's ChangeLog, read here
 * as the relay reads it): pages in (created_at, id) order, and retention by created_at. Every
 * event is read, published or not: replay_from relies on it (see EventReplayService).
 */
export abstract class EventLogRepository {
  abstract range(range: EventRange): Promise<OutboxEventRecord[]>;
  /** Of `eventIds`, those that already have a delivery to the endpoint. */
  abstract eventsWithDelivery(endpointId: number, eventIds: number[]): Promise<Set<number>>;
  /** Published events created before `before` (never the newest row: SQLite would hand its id out again). */
  abstract expired(before: Date, limit: number): Promise<number[]>;
  /** Deletes the events with their deliveries and the deliveries' attempts (the foreign keys' order). */
  abstract deleteWithDeliveries(ids: number[]): Promise<{ deliveries: number }>;
}
