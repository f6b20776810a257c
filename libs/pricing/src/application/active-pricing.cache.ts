import { Injectable, OnModuleInit } from '@nestjs/common';
import { Clock } from '@pos/kernel';
import { afterCommit, KeyedCache, ReplicaBroadcast } from '@pos/platform';
import { PriceBookCandidate } from '../domain/pricing.types';
import { BundleRecord, PriceBookEntryRef, PricingRepository, RuleRecord } from './pricing.ports';
import { PriceBookWithScope, ReferenceRepository } from './reference.ports';
import { TaxRateRecord } from './reference.records';

const TTL_MS = 5000;
const CHANGED_TOPIC = 'pricing.reference-changed';

type Timed<T> = { until: number; value: Promise<T> };

/**
 * What every priced cart reads but rarely changes, kept per process for 5 s: active rules and
 * bundles, the tax rates of a store's tax classes, the price books that apply to a store, and
 * each item's price book entries (by item, read in one set query for the items not held). A
 * write through this context (rules, bundles, bulk prices) calls `clear`: this process forgets
 * at once, and every replica once the write has committed (ReplicaBroadcast); rows edited in the
 * database by hand show within 5 s (README).
 */
@Injectable()
export class ActivePricingCache implements OnModuleInit {
  private rules?: Timed<RuleRecord[]>;
  private bundles?: Timed<BundleRecord[]>;
  private rates = new Map<string, Timed<TaxRateRecord[]>>();
  private books = new Map<string, Timed<PriceBookWithScope[]>>();
  private readonly entries = new KeyedCache<PriceBookEntryRef[]>(TTL_MS);

  constructor(
    private readonly pricing: PricingRepository,
    private readonly clock: Clock,
    private readonly reference: ReferenceRepository,
    private readonly broadcast: ReplicaBroadcast,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.broadcast.subscribe(CHANGED_TOPIC, () => this.forget());
  }

  /** Active rates of these tax classes that apply in a store (its own and the general ones). */
  taxRates(taxClassIds: number[], storeId: number | null): Promise<TaxRateRecord[]> {
    const key = `${storeId}:${[...taxClassIds].sort((a, b) => a - b).join(',')}`;
    return this.timed(this.rates, key, () => this.reference.taxRates(taxClassIds, storeId));
  }

  activeRules(): Promise<RuleRecord[]> {
    const now = this.clock.now().getTime();
    if (!this.rules || this.rules.until <= now) {
      const value = this.pricing.activeRules();
      this.rules = { until: now + TTL_MS, value };
      value.catch(() => (this.rules = undefined));
    }
    return this.rules.value;
  }

  activeBundles(): Promise<BundleRecord[]> {
    const now = this.clock.now().getTime();
    if (!this.bundles || this.bundles.until <= now) {
      const value = this.pricing.activeBundles();
      this.bundles = { until: now + TTL_MS, value };
      value.catch(() => (this.bundles = undefined));
    }
    return this.bundles.value;
  }

  /**
   * Entries of active, in-window price books in the store's currency that apply to the store and
   * customer group (a book scoped to groups applies only to those; no group: unscoped books only).
   */
  async priceBookCandidates(
    itemIds: number[],
    ctx: { storeId: number; customerGroupId: number | null; at: Date; currencyCode: string },
  ): Promise<Map<number, PriceBookCandidate[]>> {
    const out = new Map<number, PriceBookCandidate[]>();
    if (!itemIds.length) return out;
    const [books, entries] = await Promise.all([
      this.timed(this.books, `${ctx.storeId}:${ctx.currencyCode}`, () => this.reference.priceBooksForStore(ctx.storeId, ctx.currencyCode)),
      this.entries.getMany(itemIds, (missing) => this.pricing.priceBookEntriesOf(missing)),
    ]);
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

  /** After a write to rules, bundles, price books or their entries: forgotten here now, and everywhere once committed. */
  clear(): void {
    this.forget();
    afterCommit(() => {
      this.forget();
      this.broadcast.publish(CHANGED_TOPIC, {});
    });
  }

  private forget(): void {
    this.rules = undefined;
    this.bundles = undefined;
    this.rates.clear();
    this.books.clear();
    this.entries.forget();
  }

  private timed<T>(map: Map<string, Timed<T>>, key: string, load: () => Promise<T>): Promise<T> {
    const now = this.clock.now().getTime();
    const hit = map.get(key);
    if (hit && hit.until > now) return hit.value;
    if (map.size > 1000) map.clear();
    const value = load();
    map.set(key, { until: now + TTL_MS, value });
    value.catch(() => map.delete(key));
    return value;
  }
}
