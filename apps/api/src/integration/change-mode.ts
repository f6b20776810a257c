import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional, ApiResponse } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength, ValidateBy } from 'class-validator';
import type { AppConfig } from '@pos/platform';
import { ChangePage, ChangeRead, changeHorizon, changePage, Clock, decodeCursor, Page, ValidationFailedError } from '@pos/kernel';
import { DATE_TIME_MESSAGE, parseDateTime } from '../http/date-time.validator';
import { ApiView, defineView, PaginationMeta, s, Schema } from '../http/openapi';

/**
 * Change mode of the integration feeds (issue 26, README "Integration feeds: change mode").
 * `updated_since` (ISO 8601 date-time) or `cursor` (meta.next_cursor of the previous page), never
 * both: the feed then answers the rows changed after that position in (updated_at, id) order,
 * none stamped after the horizon (now - CHANGE_FEED_SETTLE_SECONDS), with meta
 * {per_page, next_cursor, has_more}. Without them a feed answers as it always has.
 */

const IsChangeDateTime = () =>
  ValidateBy({
    name: 'isChangeDateTime',
    validator: {
      validate: (value: unknown) => parseDateTime(value) !== null,
      defaultMessage: () => DATE_TIME_MESSAGE,
    },
  });

/** The two change-mode parameters, added to a feed's query DTO (subclasses below). */
export const UpdatedSince = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      format: 'date-time',
      description:
        'Change mode: rows whose updated_at is at or after this instant (ISO 8601 date-time with a zone), in (updated_at, id) order. Not with cursor. Then follow meta.next_cursor.',
    }),
    IsOptional(),
    IsString({ message: DATE_TIME_MESSAGE }),
    IsChangeDateTime(),
  );

export const ChangeCursor = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: String,
      maxLength: 512,
      pattern: '^[A-Za-z0-9_-]+$',
      description: 'Change mode: meta.next_cursor of the previous page of this feed (opaque; another feed’s cursor is 422). Not with updated_since.',
    }),
    IsOptional(),
    IsString({ message: '$property must be a cursor from meta.next_cursor' }),
    MaxLength(512, { message: '$property must be a cursor from meta.next_cursor' }),
    Matches(/^[A-Za-z0-9_-]+$/, { message: '$property must be a cursor from meta.next_cursor' }),
  );

export interface ChangeModeQuery {
  updated_since?: string;
  cursor?: string;
  per_page?: number;
}

/** The feeds whose cursors are told apart (a cursor of one is 422 on another). */
export type FeedKind = 'sales' | 'invoices' | 'returns' | 'customers' | 'items' | 'inventory' | 'stores' | 'warehouses';

/** Turns a feed's query into a change read (or none), and a read's rows into a ChangePage (built by each feed controller from APP_CONFIG and Clock). */
export class ChangeMode {
  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * The change read a query asks for, or undefined (the feed's usual listing). Both parameters:
   * 422 on each. `limit` is one more than the page, so a page knows whether more remain.
   */
  read(kind: FeedKind, q: ChangeModeQuery, perPage: number): ChangeRead | undefined {
    if (q.updated_since === undefined && q.cursor === undefined) return undefined;
    if (q.updated_since !== undefined && q.cursor !== undefined) {
      const both = 'Give updated_since or cursor, not both.';
      throw new ValidationFailedError({ updated_since: [both], cursor: [both] });
    }
    const after = q.cursor !== undefined ? decodeCursor(kind, q.cursor) : { t: new Date(q.updated_since!), id: 0 };
    return { after, horizon: changeHorizon(this.clock.now(), this.config.changeFeed.settleSeconds, this.marginMs()), limit: perPage + 1 };
  }

  /**
   * How much further back than the settle window the horizon sits. DATETIME on MySQL keeps whole
   * seconds: a stored stamp can be up to a second before its change. And the feeds read a replica
   * (ReadOnReplica) that may be behind the primary by up to DB_READ_MAX_LAG_SECONDS, plus the
   * interval its lag is trusted for: a row committed on the primary before the horizon may not be
   * on the replica yet, and a cursor moved past it there would skip it for good.
   */
  private marginMs(): number {
    const { type, readReplicas } = this.config.db;
    const granularityMs = type === 'sqlite' ? 0 : 1000;
    const replicaMs = readReplicas.endpoints.length ? readReplicas.maxLagSeconds * 1000 + readReplicas.checkIntervalMs : 0;
    return granularityMs + replicaMs;
  }

  /** The page of views read with `read` (ids and updated_at of the views name the position). */
  page<T extends { id: number; updated_at: string }>(kind: FeedKind, read: ChangeRead, perPage: number, result: Page<T>): ChangePage<T> {
    return changePage(kind, read, perPage, result.items, (row) => ({ t: new Date(row.updated_at), id: row.id }));
  }
}

export const ChangeFeedMeta = defineView(
  'ChangeFeedMeta',
  {
    per_page: s.int('The page size used (a per_page above the endpoint maximum is clamped)'),
    next_cursor: s.string('Where the next poll starts (pass it as `cursor`): the last row of this page, or the position asked from when the page is empty'),
    has_more: s.bool('Rows changed up to the horizon remain after this page: ask again at once with next_cursor'),
  },
  { description: 'Change mode (updated_since or cursor given): no page numbers or total' },
);

/**
 * The 200 of a feed with change mode: `meta` is PaginationMeta in the usual listing and
 * ChangeFeedMeta in change mode.
 */
export function ApiFeedEnvelope(row: ApiView | Schema, description: string) {
  return ApiResponse({
    status: 200,
    description: `${description}. With updated_since or cursor (change mode): the rows changed after that position, oldest change first ((updated_at, id) order), none changed later than CHANGE_FEED_SETTLE_SECONDS ago, and meta {per_page, next_cursor, has_more}.`,
    schema: {
      type: 'object',
      required: ['success', 'data', 'meta'],
      properties: {
        success: { type: 'boolean', enum: [true] },
        data: s.array(row),
        meta: { oneOf: [PaginationMeta.ref, ChangeFeedMeta.ref] },
      },
    },
  });
}

/** The change-mode 422s of a feed, with those of its filters. */
export const CHANGE_MODE_422 =
  'updated_since not an ISO 8601 date-time with a zone, a cursor that is not one of this feed’s (malformed, or another feed’s), or both updated_since and cursor';
