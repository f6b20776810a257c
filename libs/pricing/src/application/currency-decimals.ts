import { Injectable } from '@nestjs/common';
import { DEFAULT_DECIMALS } from '@pos/kernel';
import { StoreContext } from '@pos/catalog';
import { ReferenceRepository } from './reference.ports';

const TTL_MS = 60_000;

/**
 * How many decimals a currency's amounts carry (USD 2, JPY 0): the HTTP edge reads and writes
 * JSON amounts in the store's currency with them, and views turn minor units back with them.
 * Currencies almost never change, so answers are cached per process for a minute.
 */
@Injectable()
export class CurrencyDecimals {
  private cache = new Map<string, { decimals: number; until: number }>();

  constructor(
    private readonly reference: ReferenceRepository,
    private readonly stores: StoreContext,
  ) {}

  async of(currencyCode: string): Promise<number> {
    const hit = this.cache.get(currencyCode);
    if (hit && hit.until > Date.now()) return hit.decimals;
    const decimals = (await this.reference.currency(currencyCode))?.decimals ?? DEFAULT_DECIMALS;
    this.cache.set(currencyCode, { decimals, until: Date.now() + TTL_MS });
    return decimals;
  }

  /** Decimals of a store's currency (the default when the store is unknown: the use case will refuse it). */
  async ofStore(storeId: number | undefined | null): Promise<number> {
    if (storeId === undefined || storeId === null) return DEFAULT_DECIMALS;
    const store = await this.stores.store(storeId);
    return store ? this.of(store.currencyCode) : DEFAULT_DECIMALS;
  }
}
