import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Principal } from '@pos/identity';
import { CurrencyDecimals } from '@pos/pricing';
import { SyncFeedService, SyncStatusService, SyncUploadService } from '@pos/sync';
import { CurrentPrincipal, RateTier, RequirePermission } from '../access/policy.decorators';
import { envelope } from '../http/envelope';
import { ApiEnvelope, ApiErrors } from '../http/openapi';
import { WriteDeadline } from '../http/write-deadline';
import { sendJson } from './gzip-json';
import { SyncDeltaQuery, SyncInitialQuery, SyncStatusQuery, SyncUploadDto } from './sync.dto';
import { SyncPage, SyncStatus, SyncUploadReport } from './sync.responses';
import { parseTransaction } from './upload-transactions';
import { IdempotentCreate } from '../http/idempotency.decorator';

const PAGING =
  'Paged by cursor: each page holds at most `limit` records (default 1,000, max 5,000) walked in id order, type by type ' +
  '(categories, price_book_entries, customers, items); follow `next_cursor` until `complete` is true. ' +
  'The `sync_token` is fixed when the download starts and is the same on every page. Responses are gzip-compressed when Accept-Encoding allows it.';

@ApiTags('Offline sync')
@Controller('sync')
@RequirePermission('pos.access')
export class SyncController {
  constructor(
    private readonly feed: SyncFeedService,
    private readonly uploads: SyncUploadService,
    private readonly statuses: SyncStatusService,
    private readonly currencies: CurrencyDecimals,
  ) {}

  @Get('initial')
  @RateTier('bulk')
  @ApiOperation({
    summary: 'Everything a terminal needs to sell offline in a store, paged',
    description:
      "The first page carries `reference` (store settings and currency, the user's discount limits, payment methods, tax classes and rates, " +
      'customer groups, price books, active pricing rules and bundles), then records: categories, price-book entries of those books, customers, and ' +
      'sellable items with their live price, units, barcodes and stock in every warehouse serving the store. ' +
      PAGING,
  })
  @ApiEnvelope(SyncPage, { description: 'One page of the download' })
  @ApiErrors([422, 'No store known, unknown store, invalid cursor (errors.cursor), store_id not matching the cursor, limit < 1'])
  async initial(@CurrentPrincipal() p: Principal, @Query() q: SyncInitialQuery, @Req() req: Request, @Res() res: Response) {
    await sendJson(req, res, 200, envelope(await this.feed.initial(p, { storeId: q.store_id, cursor: q.cursor, limit: q.limit })));
  }

  @Get('delta')
  @ApiOperation({
    summary: 'Every record created or changed since a sync token, and the ids deleted since, paged',
    description:
      "`since` is the sync_token of the last completed sync (initial or delta). Changes are read from the token's time less an overlap " +
      'window (SYNC_OVERLAP_SECONDS, default 300), so a change committed late is never missed; records may repeat: upsert them by id. ' +
      '`reference` is present (first page) only when the reference sets changed. Keep the new `sync_token` after the last page. ' +
      PAGING,
  })
  @ApiEnvelope(SyncPage, { description: 'One page of the delta' })
  @ApiErrors(
    [422, 'since missing or not a sync token issued by this service nor an ISO 8601 time (errors.since), invalid cursor, store_id not matching'],
    [409, 'The token is older than the tombstone retention (SYNC_TOMBSTONE_RETENTION_DAYS, default 90): run /sync/initial again'],
  )
  async delta(@CurrentPrincipal() p: Principal, @Query() q: SyncDeltaQuery, @Req() req: Request, @Res() res: Response) {
    await sendJson(req, res, 200, envelope(await this.feed.delta(p, { since: q.since, storeId: q.store_id, cursor: q.cursor, limit: q.limit })));
  }

  @Post('upload')
  @IdempotentCreate({ mode: 'claim' })
  @HttpCode(200)
  @RateTier('bulk')
  @WriteDeadline('sync_upload')
  @ApiOperation({
    summary: 'What a terminal did offline: sales, customers, cash movements, each applied and answered on its own, in order',
    description:
      'Each transaction runs in its own database transaction: `accepted` (with the record id and, for a sale, its receipt number), ' +
      '`duplicate` (its idempotency_key was already settled: the original outcome again, never a second sale) or `rejected` (errors keyed within ' +
      'the transaction, e.g. data.items.0.qty). One bad transaction never drops the others. Sales keep the price the terminal charged ' +
      "(price_source offline); below the server's price at offline_created_at beyond the cashier's discount limits (and without a valid " +
      'approval token) a sale is still accepted but flagged for review (`review`, listed by GET /sales/reviews). Sales may take stock below zero, need no open session (they attach to the session open then, if any), are dated ' +
      'offline_created_at (required; not in the future beyond OFFLINE_CLOCK_SKEW_SECONDS, not older than OFFLINE_MAX_AGE_DAYS) and keep synced_at. ' +
      'Per transaction the permission of its type applies: sale sales.create, customer customers.manage, cash_movement sessions.manage.',
  })
  @ApiEnvelope(SyncUploadReport, { description: 'One result per transaction, in the order sent (HTTP 200 even when some are rejected)' })
  @ApiErrors(
    [400, 'Malformed JSON or a body that is not an object'],
    [422, 'store_id missing or unknown; transactions missing, empty, or more than SYNC_UPLOAD_MAX_TRANSACTIONS (default 500)'],
    [413, 'Body over SYNC_UPLOAD_BODY_LIMIT (default 10mb)'],
  )
  async upload(@CurrentPrincipal() p: Principal, @Body() body: SyncUploadDto) {
    this.uploads.assertSize(body.transactions.length);
    const decimals = await this.currencies.ofStore(body.store_id);
    const parsed = [];
    for (const raw of body.transactions) parsed.push(await parseTransaction(raw, body.store_id, decimals));
    return this.uploads.upload(p, body.store_id, parsed);
  }

  @Get('status')
  @ApiOperation({
    summary: "This device's sync health in a store: server time, last initial and delta sync, last upload, upload counts, rejected transactions",
    description: 'The device is the token\'s device name (device_name at login, default "Mobile POS").',
  })
  @ApiEnvelope(SyncStatus, { description: 'The device, its counts and its still-rejected transactions' })
  @ApiErrors([422, 'No store known or unknown store'])
  status(@CurrentPrincipal() p: Principal, @Query() q: SyncStatusQuery) {
    return this.statuses.status(p, q.store_id);
  }
}
