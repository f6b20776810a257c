import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { Response } from 'express';
import { clampPerPage } from '@pos/kernel';
import { Principal } from '@pos/identity';
import { EventLogService } from '@pos/webhooks';
import { CurrentPrincipal, IntegrationReadPerEvent } from '../access/policy.decorators';
import { SerializedJson } from '../http/envelope';
import { ApiErrors, defineView, s } from '../http/openapi';
import { EVENTS_PAGE, EventLogQueryDto } from './events.dto';

const LoggedEvent = defineView(
  'LoggedEvent',
  {
    id: s.int('The event id (the same as the webhook body and X-Service-Event deliveries carry)'),
    type: s.string('The event kind, e.g. sale.completed'),
    created_at: s.dateTime('When the change happened (UTC)'),
    data: s.any('The event data, exactly as the webhook delivers it (see GET /webhooks/event-types)'),
  },
  { description: 'Exactly the body of the webhook delivery of this event' },
);

const EventLogMeta = defineView('EventLogMeta', {
  per_page: s.int('The page size used (above 500 is clamped)'),
  next_cursor: s.string('Pass as `after` for the next page (on an empty page: the position given, so polling resumes there)'),
  has_more: s.bool('More events are readable now: ask again at once with next_cursor'),
});

const PAGE_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['success', 'data', 'meta'],
  properties: { success: { type: 'boolean', enum: [true] }, data: s.array(LoggedEvent), meta: EventLogMeta.ref },
};

/**
 * The event log (issue 26): every event the webhooks deliver, kept EVENT_RETENTION_DAYS, read
 * back in (created_at, id) order by cursor. Reads the primary (libs/webhooks EventLogService).
 */
@ApiTags('Integration: event log')
@Controller(['integration', 'integrations'])
export class EventsController {
  constructor(private readonly events: EventLogService) {}

  @Get('events')
  @IntegrationReadPerEvent()
  @ApiOperation({
    summary: 'Events in (created_at, id) order from a cursor (after) or an instant (since); types filter; per_page default 100, max 500',
    description:
      'Each row is exactly the webhook body `{id, type, created_at, data}`. An event is listed only if the application holds the ' +
      'permission of its resource (sale.* sales.view, invoice.* invoices.view, return.* returns.view, customer.* customers.view, ' +
      'item.*/price.*/prices.* items.view, inventory.* inventory.view, session.* reports.sales) and it belongs to one of the ' +
      "application's stores (or to none). Nothing stamped within CHANGE_FEED_SETTLE_SECONDS of now is served yet, so a cursor " +
      'never passes an event that commits late. Without after/since the log is read from its oldest kept event. A position older ' +
      'than EVENT_RETENTION_DAYS is still served, from what is kept, with a `Warning` header saying events before the cutoff may be missing.',
  })
  @ApiResponse({
    status: 200,
    description: 'A page of events',
    schema: PAGE_SCHEMA,
    headers: {
      Warning: {
        description: 'Only when the position is older than the retention: `299 - "Events created before <ISO> are no longer kept ..."`',
        schema: { type: 'string' },
      },
    },
  })
  @ApiErrors([
    422,
    'after is not a cursor of the event log, since is not an ISO 8601 date-time with a zone, both are given, a type is unknown, per_page < 1, or an unknown query parameter',
  ])
  async list(@CurrentPrincipal() p: Principal, @Query() q: EventLogQueryDto, @Res({ passthrough: true }) res: Response): Promise<SerializedJson> {
    const page = await this.events.page(p, {
      after: q.after,
      since: q.since,
      types: q.types,
      perPage: clampPerPage(q.per_page, EVENTS_PAGE.default, EVENTS_PAGE.max),
    });
    if (page.expiredBefore) {
      res.setHeader(
        'Warning',
        `299 - "Events created before ${page.expiredBefore.toISOString()} are no longer kept (EVENT_RETENTION_DAYS); some after your position may be missing"`,
      );
    }
    return SerializedJson.of({
      success: true,
      data: page.rows.map((row) => JSON.parse(row) as unknown),
      meta: { per_page: page.perPage, next_cursor: page.nextCursor, has_more: page.hasMore },
    });
  }
}
