import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { afterCommit, APP_CONFIG, AppConfig, KeyedCache, ReplicaBroadcast } from '@pos/platform';
import { ItemBarcodeRecord, ItemRecord, ItemUnitRecord } from './catalog.records';
import { ItemRepository } from './catalog.ports';

const CHANGED_TOPIC = 'catalog.items-changed';

/** What a till reads about an item besides its stock: the item, its units and barcodes. */
export interface ItemReference {
  item: ItemRecord;
  units: ItemUnitRecord[];
  barcodes: ItemBarcodeRecord[];
}

/**
 * Live items with their units and barcodes, kept per process by id for REFERENCE_CACHE_TTL_MS
 * (the scanner's and the checkout's reads: the same few thousand items all day). Ids not held are
 * read in one statement (ItemRepository.references). Every write to an item (ItemService) calls
 * `changed` once it has committed: this process forgets the ids at once and tells the other
 * replicas to (ReplicaBroadcast; while Redis is down they fall back to the TTL). Rows edited in
 * the database by hand show within the TTL.
 */
@Injectable()
export class ItemReferenceCache implements OnModuleInit {
  private readonly cache: KeyedCache<ItemReference>;
  private readonly listeners: (() => void)[] = [];

  constructor(
    private readonly items: ItemRepository,
    private readonly broadcast: ReplicaBroadcast,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.cache = new KeyedCache<ItemReference>(config.referenceCacheTtlMs);
  }

  async onModuleInit(): Promise<void> {
    await this.broadcast.subscribe(CHANGED_TOPIC, (message, own) => {
      // Its own echo: `changed` already forgot and told, and telling again would drop the totals
      // and overlapping reads counted since (ItemListTotals) for nothing.
      if (own) return;
      const ids = (message as { ids?: unknown }).ids;
      if (Array.isArray(ids)) this.cache.forget(ids.filter((id): id is number => typeof id === 'number'));
      this.tell();
    });
  }

  /** `listener` runs whenever items were written: here once the write commits, and as the other replicas' messages arrive. */
  onChanged(listener: () => void): void {
    this.listeners.push(listener);
  }

  private tell(): void {
    for (const listener of this.listeners) listener();
  }

  /** Live items by id (absent: null), with their units and barcodes. */
  of(ids: readonly number[]): Promise<Map<number, ItemReference | null>> {
    return this.cache.getMany(ids, async (missing) => {
      const { items, units, barcodes } = await this.items.references(missing);
      const out = new Map<number, ItemReference>(items.map((item) => [item.id, { item, units: [], barcodes: [] }]));
      for (const u of units) out.get(u.itemId)?.units.push(u);
      for (const b of barcodes) out.get(b.itemId)?.barcodes.push(b);
      return out;
    });
  }

  /** These items were written: forgotten here and on every replica once the transaction commits. */
  changed(ids: number[]): void {
    afterCommit(() => {
      this.cache.forget(ids);
      this.tell();
      this.broadcast.publish(CHANGED_TOPIC, { ids });
    });
  }
}
