import { Injectable } from '@nestjs/common';
import { StoreContext } from '@pos/catalog';
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
  private readonly stores = new Map<number, { facts: StoreFacts | null; until: number }>();
  private readonly warehouses = new Map<number, { storeId: number | null; until: number }>();

  constructor(private readonly context: StoreContext) {}

  async store(id: number): Promise<StoreFacts> {
    const hit = this.stores.get(id);
    let facts = hit && hit.until > Date.now() ? hit.facts : undefined;
    if (facts === undefined) {
      const s = await this.context.store(id);
      facts = s ? { id: s.id, currencyCode: s.currencyCode, timeZone: s.timezone } : null;
      this.stores.set(id, { facts, until: Date.now() + TTL_MS });
    }
    return facts ?? { id, currencyCode: '', timeZone: 'UTC' };
  }

  async zoneOfWarehouse(id: number): Promise<ZoneCalendar> {
    const hit = this.warehouses.get(id);
    let storeId = hit && hit.until > Date.now() ? hit.storeId : undefined;
    if (storeId === undefined) {
      storeId = (await this.context.warehouse(id))?.storeId ?? null;
      this.warehouses.set(id, { storeId, until: Date.now() + TTL_MS });
    }
    return storeId === null ? ZoneCalendar.of('UTC') : ZoneCalendar.of((await this.store(storeId)).timeZone);
  }

  /** Forget everything (tests, a rebuild after store changes). */
  clear(): void {
    this.stores.clear();
    this.warehouses.clear();
  }
}
