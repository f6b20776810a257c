import { Inject, Injectable } from '@nestjs/common';
import { ChangePosition, changeHorizon, Clock, decodeCursor, encodeCursor, ValidationFailedError } from '@pos/kernel';
import { APP_CONFIG, AppConfig } from '@pos/platform';
import { hasPermission, Principal } from '@pos/identity';
import { loggedEventKinds, readableEventKinds } from '../domain/event-access';
import { WEBHOOK_EVENT_KINDS } from './event-catalogue';
import { deliveryBody } from '../domain/signature';
import { EventLogRepository } from './event-log.ports';

/** The cursor kind of the event log (a feed's cursor given here is 422). */
export const EVENT_LOG_CURSOR = 'events';

export interface EventLogQuery {
  /** An opaque cursor from meta.next_cursor (exclusive). */
  after?: string;
  /** Events created at or after this instant. */
  since?: Date;
  /** Only these kinds (each one of eventLogKinds()); absent: every kind the reader may see. */
  types?: string[];
  perPage: number;
}

export interface EventLogPage {
  /** Each row exactly the body of the webhook delivery of that event, as JSON text. */
  rows: string[];
  perPage: number;
  nextCursor: string;
  hasMore: boolean;
  /** Set when the position is older than the retention: events after it may have been purged. */
  expiredBefore: Date | null;
}

/** The kinds the event log can show (the catalogue less ping). */
export function eventLogKinds(): string[] {
  return loggedEventKinds(WEBHOOK_EVENT_KINDS);
}

/**
 * GET /integration/events: the outbox read back in (created_at, id) order, never past the change
 * horizon (an event stamped later may belong to a transaction that has not committed yet, and a
 * reader past it would skip that event for good). Each reader sees the kinds its permissions
 * allow (domain/event-access.ts) of the stores its application may access (events of no store
 * included). Reads the primary: a replica's lag would have to be added to the horizon.
 */
@Injectable()
export class EventLogService {
  private readonly settleSeconds: number;
  private readonly retentionDays: number;

  constructor(
    private readonly log: EventLogRepository,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.settleSeconds = config.changeFeed.settleSeconds;
    this.retentionDays = config.webhooks.eventRetentionDays;
  }

  async page(reader: Principal, q: EventLogQuery): Promise<EventLogPage> {
    if (q.after !== undefined && q.since !== undefined) {
      throw new ValidationFailedError({ after: ['Give either after or since, not both.'], since: ['Give either after or since, not both.'] });
    }
    const now = this.clock.now();
    const given: ChangePosition | null =
      q.after !== undefined ? decodeCursor(EVENT_LOG_CURSOR, q.after, 'after') : q.since !== undefined ? { t: q.since, id: 0 } : null;
    const horizon = changeHorizon(now, this.settleSeconds);
    const cutoff = retentionCutoff(now, this.retentionDays);
    const position = given ?? { t: new Date(0), id: 0 };
    const types = readableEventKinds(q.types ?? eventLogKinds(), (permission) => hasPermission(reader, permission));
    const found = types.length ? await this.log.range({ after: position, upTo: horizon, types, stores: reader.stores, limit: q.perPage + 1 }) : [];
    const rows = found.slice(0, q.perPage);
    const last = rows.at(-1);
    // An empty page from the start of the log: nothing at or before the horizon matched, so the
    // next read may start there (what is stamped later is not served yet).
    const next = last ? { t: last.createdAt, id: last.id } : (given ?? { t: horizon, id: 0 });
    return {
      rows: rows.map((e) => deliveryBody({ id: e.id, type: e.type, createdAt: e.createdAt, payloadJson: e.payload })),
      perPage: q.perPage,
      nextCursor: encodeCursor(EVENT_LOG_CURSOR, next.t, next.id),
      hasMore: found.length > q.perPage,
      expiredBefore: given && given.t < cutoff ? cutoff : null,
    };
  }
}

/** Events created before this are purged (EVENT_RETENTION_DAYS). */
export function retentionCutoff(now: Date, retentionDays: number): Date {
  return new Date(now.getTime() - retentionDays * 86_400_000);
}
