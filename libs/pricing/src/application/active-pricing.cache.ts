import { Inject, Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { afterCommit, APP_CONFIG, AppConfig, KeyedCache, ReplicaBroadcast } from '@pos/platform';
import { PriceBookCandidate } from '../domain/pricing.types';
import { BundleRecord, PriceBookEntryRef, PricingRepository, RuleRecord } from './pricing.ports';
import { PriceBookWithScope, ReferenceRepository } from './reference.ports';
import { TaxRateRecord } from './reference.records';

const CHANGED_TOPIC = 'pricing.reference-changed';

/**
 * What every priced cart reads but rarely changes, kept per process for `PRICING_CACHE_TTL_MS`
 * (5 s by default): active rules and bundles, the tax rates of a store's tax classes, the price
 * books that apply to a store, and each item's price book entries (by item, read in one set query for the items not held). A
 * write through this context (rules, bundles, bulk prices) calls `clear`: this process forgets
 * at once, and every replica once the write has committed (ReplicaBroadcast); rows edited in the
 * database by hand show within that TTL (README).
 */
@Injectable()
export class ActivePricingCache implements OnModuleInit {
  /** One key each (0): the active rules, the active bundles. */
  private readonly rules: KeyedCache<RuleRecord[]>;
  private readonly bundles: KeyedCache<BundleRecord[]>;
  private readonly rates: KeyedCache<TaxRateRecord[], string>;
  private readonly books: KeyedCache<PriceBookWithScope[], string>;
  private readonly entries: KeyedCache<PriceBookEntryRef[]>;

  constructor(
    private readonly pricing: PricingRepository,
    private readonly reference: ReferenceRepository,
    private readonly broadcast: ReplicaBroadcast,
    @Optional() @Inject(APP_CONFIG) config?: Pick<AppConfig, 'pricingCacheTtlMs'>,
  ) {
    const ttlMs = config?.pricingCacheTtlMs ?? 5000;
    this.rules = new KeyedCache(ttlMs);
    this.bundles = new KeyedCache(ttlMs);
    this.rates = new KeyedCache(ttlMs, { max: 1000 });
    this.books = new KeyedCache(ttlMs, { max: 1000 });
    this.entries = new KeyedCache(ttlMs);
  }

  async onModuleInit(): Promise<void> {
    // Its own echo is skipped: `clear` already forgot, before and after the commit.
    await this.broadcast.subscribe(CHANGED_TOPIC, (_message, own) => {
      if (!own) this.forget();
    });
  }

  /** Active rates of these tax classes that apply in a store (its own and the general ones). */
  taxRates(taxClassIds: number[], storeId: number | null): Promise<TaxRateRecord[]> {
    const key = `${storeId}:${[...taxClassIds].sort((a, b) => a - b).join(',')}`;
    return this.rates.get(key, () => this.reference.taxRates(taxClassIds, storeId));
  }

  activeRules(): Promise<RuleRecord[]> {
    return this.rules.get(0, () => this.pricing.activeRules());
  }

  activeBundles(): Promise<BundleRecord[]> {
    return this.bundles.get(0, () => this.pricing.activeBundles());
  }

  /**
   * Entries of active, in-window price books in the store's currency that apply to the store and
   * customer group (a book scoped to groups applies only to those; no group: unscoped books only).
   */
  async priceBookCandidates(
    itemIds: number[],
    ctx: { storeId: number; customerGroupId: number | null; at: Date; currencyCode: string },
  ): Promise<Map<number, PriceBookCandidate[]>> {
    if (!itemIds.length) return new Map();
    const [books, entries] = await Promise.all([this.storeBooks(ctx.storeId, ctx.currencyCode), this.itemEntries(itemIds)]);
    return bookCandidates(books, entries, ctx);
  }

  /** The price books of a store in a currency, as held: the same array until a write or the TTL renews it. */
  storeBooks(storeId: number, currencyCode: string): Promise<PriceBookWithScope[]> {
    return this.books.get(`${storeId}:${currencyCode}`, () => this.reference.priceBooksForStore(storeId, currencyCode));
  }

  /** Each item's price book entries (null: none), as held: the same arrays until a write or the TTL renews them. */
  itemEntries(itemIds: number[]): Promise<Map<number, PriceBookEntryRef[] | null>> {
    return this.entries.getMany(itemIds, (missing) => this.pricing.priceBookEntriesOf(missing));
  }

  /** After a write to rules, bundles, price books or their entries: forgotten here now, and everywhere once committed. */
  clear(): void {
    this.forget();
    afterCommit(() => {
      this.forget();
      this.broadcast.publish(CHANGED_TOPIC, {});
    });
  }

  private forget(): void {
    for (const cache of [this.rules, this.bundles, this.rates, this.books, this.entries]) cache.forget();
  }
}

/** The candidates of each item among its entries: books that apply to the context (group, window) at its moment. */
export function bookCandidates(
  books: PriceBookWithScope[],
  entries: Map<number, PriceBookEntryRef[] | null>,
  ctx: { customerGroupId: number | null; at: Date },
): Map<number, PriceBookCandidate[]> {
  const out = new Map<number, PriceBookCandidate[]>();
  const at = ctx.at.getTime();
  const applicable = new Map(
    books
      .filter(
        (b) =>
          (!b.customerGroupIds.length || (ctx.customerGroupId !== null && b.customerGroupIds.includes(ctx.customerGroupId))) &&
          (!b.validFrom || b.validFrom.getTime() <= at) &&
          (!b.validTo || b.validTo.getTime() >= at),
      )
      .map((b) => [b.id, b]),
  );
  if (!applicable.size) return out;
  for (const [itemId, list] of entries) {
    const found: PriceBookCandidate[] = [];
    for (const e of list ?? []) {
      const book = applicable.get(e.priceBookId);
      if (book) found.push({ priceBookId: book.id, name: book.name, priority: book.priority, price: e.price, minQuantity: e.minQuantity });
    }
    if (found.length) out.set(itemId, found);
  }
  return out;
}
