import { Injectable } from '@nestjs/common';
import { StoreContext } from '@pos/catalog';
import { KeyedCache } from '@pos/platform';
import { ZoneCalendar } from '../domain/calendar';
import type { StoreFacts } from '../domain/rollup-deltas';

const TTL_MS = 60_000;

/**
 * The two facts rollups need about a store (currency, time zone) and a warehouse (its store's
 * time zone; UTC for a standalone one), read through the catalog's StoreContext and kept per
 * process for a minute: they almost never change, and every sale would otherwise read them.
 */
@Injectable()
export class StoreFactsCache {
  private readonly stores = new KeyedCache<StoreFacts>(TTL_MS);
  /** A warehouse's store id; null (kept): a standalone warehouse, or none. */
  private readonly warehouses = new KeyedCache<number>(TTL_MS);

  constructor(private readonly context: StoreContext) {}

  async store(id: number): Promise<StoreFacts> {
    const facts = await this.stores.get(id, async () => {
      const s = await this.context.store(id);
      return s ? { id: s.id, currencyCode: s.currencyCode, timeZone: s.timezone } : null;
    });
    return facts ?? { id, currencyCode: '', timeZone: 'UTC' };
  }

  async zoneOfWarehouse(id: number): Promise<ZoneCalendar> {
    const storeId = await this.warehouses.get(id, async () => (await this.context.warehouse(id))?.storeId ?? null);
    return storeId === null ? ZoneCalendar.of('UTC') : ZoneCalendar.of((await this.store(storeId)).timeZone);
  }

  /** Forget everything (tests, a rebuild after store changes). */
  clear(): void {
    this.stores.forget();
    this.warehouses.forget();
  }
}
