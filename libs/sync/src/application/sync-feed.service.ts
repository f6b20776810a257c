import { Inject, Injectable, Logger } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { Clock, ConflictError, ValidationFailedError } from '@pos/kernel';
import { DEFAULT_DEVICE_NAME, Principal } from '@pos/identity';
import { APP_CONFIG, AppConfig, ChangeLog, onPrimary, ReadOnReplica, withTransactionRetry } from '@pos/platform';
import { decodeCursor, decodeSyncToken, encodeCursor, encodeSyncToken, FeedCursor, SyncToken } from '../domain/sync-token';
import { ChangeWindow, DELETABLE_TYPES, DeletableType, FeedSections, RECORD_TYPES, RecordType, Section } from './feed-sections';
import { referenceHash, StoreFrame, StoreFrames, SyncReference } from './store-frame';
import { SyncDeviceRepository } from './sync.ports';
import { SyncSigner } from './sync-signer';

export const DEFAULT_PAGE_LIMIT = 1000;
export const MAX_PAGE_LIMIT = 5000;
const PURGE_EVERY_MS = 3_600_000;

const INITIAL_SECTIONS: Section[] = [...RECORD_TYPES];
const DELTA_SECTIONS: Section[] = ['deleted', ...RECORD_TYPES];

export interface FeedRequest {
  storeId?: number;
  cursor?: string;
  limit?: number;
}

export interface FeedPage {
  sync_token: string;
  server_time: string;
  store_id: number;
  /** Delta: the time changes are read from (the token's time less the overlap window). */
  since: string | null;
  complete: boolean;
  next_cursor: string | null;
  /** The whole reference sets (first page of a download; in a delta only when they changed), else null. */
  reference: SyncReference | null;
  records: Record<RecordType, unknown[]>;
  deleted: Record<DeletableType, number[]>;
}

/**
 * GET /sync/initial and GET /sync/delta: a store's data for an offline terminal, in pages of at
 * most `limit` records walked in id order, section by section, so nothing is built whole in
 * memory however large the catalog. The sync token is fixed when a download starts (taken
 * before anything is read) and travels in the cursor; every page is read in one transaction.
 *
 * Never missing a change: records carry updated_at (tombstones deleted_at), stamped inside the
 * writing transaction, so a transaction that started before a token was issued can commit after
 * it with a timestamp before it. A delta therefore reads from the token's time less an overlap
 * window (SYNC_OVERLAP_SECONDS, default 300) longer than any write transaction (and any clock
 * skew between replicas), and the terminal upserts by id: records seen twice are harmless
 * (dedupe), a late commit is seen. Tokens older than the tombstone retention are refused (409).
 */
@Injectable()
export class SyncFeedService {
  private readonly logger = new Logger(SyncFeedService.name);
  private lastPurge = 0;

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly frames: StoreFrames,
    private readonly sections: FeedSections,
    private readonly devices: SyncDeviceRepository,
    private readonly changes: ChangeLog,
    private readonly signer: SyncSigner,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Downloads read on a read replica when one is in bounds (ReadOnReplica): the overlap window (300 s) dwarfs its lag bound. */
  @ReadOnReplica()
  async initial(principal: Principal, req: FeedRequest): Promise<FeedPage> {
    const limit = pageLimit(req.limit);
    if (req.cursor !== undefined) {
      const cursor = this.cursor(req.cursor, 'initial', req.storeId);
      return this.recorded(principal, 'initial', await this.page(principal, cursor, limit, null));
    }
    const issuedAt = this.clock.now();
    const page = await this.read(async () => {
      const frame = await this.frames.frame(principal, req.storeId);
      const reference = await this.frames.reference(principal, frame);
      const token = tokenOf(frame, issuedAt, referenceHash(reference));
      return this.walk(frame, { kind: 'initial', token, since: null, section: 0, afterId: 0 }, limit, reference);
    });
    return this.recorded(principal, 'initial', page);
  }

  @ReadOnReplica()
  async delta(principal: Principal, req: FeedRequest & { since?: string }): Promise<FeedPage> {
    const limit = pageLimit(req.limit);
    if (req.cursor !== undefined)
      return this.recorded(principal, 'delta', await this.page(principal, this.cursor(req.cursor, 'delta', req.storeId), limit, null));
    if (req.since === undefined) throw ValidationFailedError.field('since', 'The since field is required (the sync_token of your last sync).');
    const since = await this.sinceToken(principal, req.since, req.storeId);
    const now = this.clock.now();
    if (since.issuedAt.getTime() < now.getTime() - this.config.sync.tombstoneRetentionDays * 86_400_000) {
      throw new ConflictError(
        'sync_token_expired',
        `The sync token is older than the ${this.config.sync.tombstoneRetentionDays}-day deletion history; run GET /sync/initial again.`,
      );
    }
    this.maybePurgeTombstones(now);
    const page = await this.read(async () => {
      const frame = await this.frames.frame(principal, since.storeId);
      const reference = await this.frames.reference(principal, frame);
      const hash = referenceHash(reference);
      const token = tokenOf(frame, now, hash);
      return this.walk(frame, { kind: 'delta', token, since, section: 0, afterId: 0 }, limit, hash === since.referenceHash ? null : reference);
    });
    return this.recorded(principal, 'delta', page);
  }

  /** A finished download is recorded for the device on the primary, after the read (which may have run on a replica). */
  private async recorded(principal: Principal, kind: 'initial' | 'delta', page: FeedPage): Promise<FeedPage> {
    if (page.complete) await onPrimary(() => withTransactionRetry(this.txHost, () => this.recordDevice(principal, page.store_id, kind)));
    return page;
  }

  /** A continuation page: the store's current settings, the warehouses and books fixed by the token. */
  private page(principal: Principal, cursor: FeedCursor, limit: number, reference: SyncReference | null): Promise<FeedPage> {
    return this.read(async () => {
      const { warehouseIds, priceBookIds } = cursor.token;
      const frame = await this.frames.frame(principal, cursor.token.storeId, { warehouseIds, priceBookIds });
      return this.walk(frame, cursor, limit, reference);
    });
  }

  private async walk(frame: StoreFrame, cursor: FeedCursor, limit: number, reference: SyncReference | null): Promise<FeedPage> {
    const sections = cursor.kind === 'initial' ? INITIAL_SECTIONS : DELTA_SECTIONS;
    const window = cursor.since ? this.window(cursor.since, cursor.token) : null;
    const records = Object.fromEntries(RECORD_TYPES.map((t) => [t, [] as unknown[]])) as Record<RecordType, unknown[]>;
    const deleted = Object.fromEntries(DELETABLE_TYPES.map((t) => [t, [] as number[]])) as Record<DeletableType, number[]>;
    let { section, afterId } = cursor;
    let remaining = limit;
    while (section < sections.length && remaining > 0) {
      const name = sections[section];
      const asked = remaining;
      const read = await this.sections.read(name, frame, afterId, asked, window);
      if (name !== 'deleted') records[name].push(...read.records);
      for (const d of read.deleted) deleted[d.type].push(d.id);
      remaining -= read.rows;
      // Fewer rows than asked: the section is exhausted (exactly as many: the next page finds out).
      if (read.rows < asked) {
        section += 1;
        afterId = 0;
      } else {
        afterId = read.lastId;
      }
    }
    const complete = section >= sections.length;
    const sign = this.signer.sign;
    return {
      sync_token: encodeSyncToken(cursor.token, sign),
      server_time: this.clock.now().toISOString(),
      store_id: frame.store.id,
      since: window ? window.since.toISOString() : null,
      complete,
      next_cursor: complete ? null : encodeCursor({ ...cursor, section, afterId }, sign),
      reference,
      records,
      deleted: Object.fromEntries(Object.entries(deleted).map(([t, ids]) => [t, [...new Set(ids)]])) as Record<DeletableType, number[]>,
    };
  }

  /** From the previous token's time less the overlap window; what became visible since counts whole. */
  private window(since: SyncToken, token: SyncToken): ChangeWindow {
    return {
      since: new Date(since.issuedAt.getTime() - this.config.sync.overlapSeconds * 1000),
      newWarehouseIds: token.warehouseIds.filter((w) => !since.warehouseIds.includes(w)),
      newPriceBookIds: token.priceBookIds.filter((b) => !since.priceBookIds.includes(b)),
    };
  }

  /** One read transaction per page: a consistent snapshot (MySQL), and no half-written transaction seen (SQLite's one connection). */
  private read<T>(work: () => Promise<T>): Promise<T> {
    return withTransactionRetry(this.txHost, work);
  }

  private cursor(raw: string, kind: FeedCursor['kind'], storeId: number | undefined): FeedCursor {
    const cursor = decodeCursor(raw, this.signer.sign);
    if (!cursor || cursor.kind !== kind) throw ValidationFailedError.field('cursor', 'The cursor is invalid; use the next_cursor of the previous page.');
    if (storeId !== undefined && storeId !== cursor.token.storeId) throw ValidationFailedError.field('store_id', 'The store_id does not match the cursor.');
    return cursor;
  }

  /**
   * The token of the last sync. An ISO 8601 time is accepted too (the contract's "timestamp"):
   * then the store is store_id (or the caller's), and the reference sets are always sent.
   */
  private async sinceToken(principal: Principal, raw: string, storeId: number | undefined): Promise<SyncToken> {
    const token = decodeSyncToken(raw, this.signer.sign);
    if (token) {
      if (storeId !== undefined && storeId !== token.storeId) throw ValidationFailedError.field('store_id', 'The store_id does not match the sync token.');
      return token;
    }
    const at = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(raw) ? new Date(raw) : null;
    if (!at || Number.isNaN(at.getTime()))
      throw ValidationFailedError.field('since', 'The since value is not a sync token issued by this service (or an ISO 8601 time).');
    if (at.getTime() > this.clock.now().getTime()) throw ValidationFailedError.field('since', 'The since time is in the future.');
    const frame = await this.read(() => this.frames.frame(principal, storeId));
    return { storeId: frame.store.id, issuedAt: at, warehouseIds: frame.warehouseIds, priceBookIds: frame.priceBookIds, referenceHash: '' };
  }

  private async recordDevice(principal: Principal, storeId: number, kind: 'initial' | 'delta'): Promise<void> {
    const now = this.clock.now();
    const device = await this.devices.ensure(principal.userId, storeId, deviceName(principal), now);
    await this.devices.recordSync(device.id, kind, now);
  }

  /** Tombstones past the retention are forgotten, at most once an hour per process, off the request's path. */
  private maybePurgeTombstones(now: Date): void {
    if (now.getTime() - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now.getTime();
    const before = new Date(now.getTime() - this.config.sync.tombstoneRetentionDays * 86_400_000);
    void onPrimary(() => withTransactionRetry(this.txHost, () => this.changes.purgeTombstones(before))).catch((error: unknown) =>
      this.logger.warn({ err: error }, 'Purging old tombstones failed; will try again later'),
    );
  }
}

export function deviceName(principal: Principal): string {
  return (principal.token.name || DEFAULT_DEVICE_NAME).slice(0, 255);
}

function pageLimit(limit: number | undefined): number {
  return Math.min(limit ?? DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT);
}

function tokenOf(frame: StoreFrame, issuedAt: Date, hash: string): SyncToken {
  return { storeId: frame.store.id, issuedAt, warehouseIds: frame.warehouseIds, priceBookIds: frame.priceBookIds, referenceHash: hash };
}
