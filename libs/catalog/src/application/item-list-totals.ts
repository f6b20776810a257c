import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig, KeyedCache, readAsOf } from '@pos/platform';
import { ItemFilter } from './catalog.ports';
import { ItemReferenceCache } from './item-reference.cache';

/** How many filters' totals a process keeps (each a number under a short key). */
const MAX_FILTERS = 10_000;
/** The fields a total is kept under; a filter with any other (change mode, or one added later) is counted every time. */
const KEYED: ReadonlySet<string> = new Set(['q', 'categoryId', 'isActive']);

/**
 * The exact totals of GET /items pages (`meta.total`) per filter (term, category, active flag),
 * kept per process for REFERENCE_CACHE_TTL_MS, so the count of a filter is not made again for
 * each of its pages and each keystroke's repeat: a plain page's count reads every live item (10-20
 * ms of MariaDB at 100k items), a one-letter term's about 30,000 rows of the prefix index (3 ms).
 *
 * A total is only as old as the last item write: every write through ItemService forgets them
 * all, on this replica once it commits and on the others through the item reference cache's
 * broadcast (while Redis is down they fall back to the TTL, as rows edited in the database by hand
 * do). A total whose read overlapped a write is not kept (KeyedCache), nor one read on a replica
 * whose data may be older than the last write this process heard of, or than its start.
 */
@Injectable()
export class ItemListTotals {
  private readonly totals: KeyedCache<number, string>;
  /** When this process last heard of an item write (ms since the epoch); its start counts as one (it heard nothing before). */
  private lastWriteAt = Date.now();
  /** How fresh the running read's data is (a replica's moment, undefined on the primary). */
  readonly freshness: () => Date | undefined = readAsOf;

  constructor(references: ItemReferenceCache, @Inject(APP_CONFIG) config: AppConfig) {
    this.totals = new KeyedCache<number, string>(config.referenceCacheTtlMs, { max: MAX_FILTERS, keepAbsent: false });
    references.onChanged(() => {
      this.lastWriteAt = Date.now();
      this.totals.forget();
    });
  }

  /**
   * A page read by `read`, given the filter's total when one is held (its read need not count),
   * else undefined (it counts; its total is kept for the next page). Only filters of the KEYED
   * fields are kept. Concurrent first pages of one filter wait for one count, then read their pages.
   */
  async page<P extends { total: number }>(filter: ItemFilter, read: (knownTotal: number | undefined) => Promise<P>): Promise<P> {
    if (Object.entries(filter).some(([field, value]) => value !== undefined && !KEYED.has(field))) return read(undefined);
    let own: P | undefined;
    const total = await this.totals.get(JSON.stringify([filter.q ?? null, filter.categoryId ?? null, filter.isActive ?? null]), async () => {
      own = await read(undefined);
      const asOf = this.freshness();
      return asOf !== undefined && asOf.getTime() <= this.lastWriteAt ? null : own.total;
    });
    return own ?? read(total ?? undefined);
  }
}
