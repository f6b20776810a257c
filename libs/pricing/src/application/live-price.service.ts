import { Injectable } from '@nestjs/common';
import { Clock } from '@pos/kernel';
import { ItemRecord, StoreRecord } from '@pos/catalog';
import { priceCart } from '../domain/pricing-engine';
import { PriceBookEntryRef, PricingRepository, RuleRecord } from './pricing.ports';
import { PriceBookWithScope } from './reference.ports';
import { safeTimeZone } from './pricing.service';
import { ActivePricingCache, bookCandidates } from './active-pricing.cache';

/** Priced items held per process, at most; the oldest go first. */
const MAX_PRICED = 50_000;

interface Priced {
  price: number;
  source: string;
  /** What the price was computed from: the very objects ActivePricingCache held then. */
  rules: RuleRecord[];
  books: PriceBookWithScope[];
  entries: PriceBookEntryRef[] | null;
  basePrice: number;
  categoryId: number | null;
  timeZone: string;
  pricesIncludeTax: boolean;
  /** The moments [from, until) within which no rule or book starts, ends or changes its hours. */
  from: number;
  until: number;
}

/**
 * The POS live price: one unit of each item priced alone by the engine for the store, now
 * (price book, then rules; cart-wide conditions such as a minimum subtotal see only that unit).
 *
 * A priced item is kept and served again, without an engine run, while everything it was priced
 * from is unchanged: the same rules, store price books and item entries (the same objects the
 * ActivePricingCache holds: a write through the service, a replica's broadcast or the cache's 5 s
 * TTL replaces them, and with them every price computed from them), the same base price and
 * category (the item as read now), the same store zone and tax mode, and a moment before the
 * next time boundary: a rule's or book's start or end, or the next minute when a rule has days
 * or hours (they apply by the store's local minute).
 */
@Injectable()
export class LivePriceService {
  private readonly priced = new Map<string, Priced>();

  constructor(
    private readonly pricing: PricingRepository,
    private readonly clock: Clock,
    private readonly active: ActivePricingCache,
  ) {}

  async unitPrices(items: ItemRecord[], store: StoreRecord): Promise<Map<number, { price: number; source: string }>> {
    const out = new Map<number, { price: number; source: string }>();
    if (!items.length) return out;
    const at = this.clock.now();
    const now = at.getTime();
    const timeZone = safeTimeZone(store.timezone);
    const [rules, books, entries] = await Promise.all([
      this.active.activeRules(),
      this.active.storeBooks(store.id, store.currencyCode),
      this.active.itemEntries(items.map((i) => i.id)),
    ]);
    const key = (item: ItemRecord) => `${store.id}:${store.currencyCode}:${item.id}`;
    const toPrice: ItemRecord[] = [];
    for (const item of items) {
      const held = this.priced.get(key(item));
      if (
        held &&
        held.rules === rules &&
        held.books === books &&
        held.entries === (entries.get(item.id) ?? null) &&
        held.basePrice === item.basePrice &&
        held.categoryId === item.categoryId &&
        held.timeZone === timeZone &&
        held.pricesIncludeTax === store.pricesIncludeTax &&
        now >= held.from &&
        now < held.until
      )
        out.set(item.id, { price: held.price, source: held.source });
      else toPrice.push(item);
    }
    if (!toPrice.length) return out;
    const candidates = bookCandidates(books, entries, { customerGroupId: null, at });
    const context = { storeId: store.id, customerGroupId: null, at, timeZone, pricesIncludeTax: store.pricesIncludeTax, taxExempt: true };
    const until = nextPriceBoundary(rules, books, now);
    for (const item of toPrice) {
      const r = priceCart({
        context,
        lines: [
          {
            key: '0',
            itemId: item.id,
            categoryId: item.categoryId,
            quantity: 1,
            basePrice: item.basePrice,
            priceBooks: candidates.get(item.id) ?? [],
            taxRateBp: 0,
          },
        ],
        rules,
        bundles: [],
      });
      const line = { price: r.lines[0].net, source: r.lines[0].priceSource };
      out.set(item.id, line);
      this.keep(key(item), {
        ...line,
        rules,
        books,
        entries: entries.get(item.id) ?? null,
        basePrice: item.basePrice,
        categoryId: item.categoryId,
        timeZone,
        pricesIncludeTax: store.pricesIncludeTax,
        from: now,
        until,
      });
    }
    return out;
  }

  private keep(key: string, priced: Priced): void {
    this.priced.delete(key);
    this.priced.set(key, priced);
    if (this.priced.size > MAX_PRICED) this.priced.delete(this.priced.keys().next().value as string);
  }
}

/**
 * The first moment after `now` (ms) at which a price computed at `now` may differ with the same
 * rules and books: a rule or book window's start (active from validFrom on) or end (active
 * through validTo, so validTo + 1 ms), or the next whole minute when a rule has days of the week
 * or hours (checked by the store's local minute; every zone's offset is whole minutes).
 * Infinity: none.
 */
export function nextPriceBoundary(rules: RuleRecord[], books: PriceBookWithScope[], now: number): number {
  let until = Infinity;
  const window = (from: Date | string | null | undefined, to: Date | string | null | undefined) => {
    if (from) {
      const f = new Date(from).getTime();
      if (f > now) until = Math.min(until, f);
    }
    if (to) {
      const t = new Date(to).getTime() + 1;
      if (t > now) until = Math.min(until, t);
    }
  };
  for (const r of rules) {
    const c = r.conditions;
    window(c.validFrom, c.validTo);
    if (c.daysOfWeek?.length || c.startTime || c.endTime) until = Math.min(until, Math.floor(now / 60_000) * 60_000 + 60_000);
  }
  for (const b of books) window(b.validFrom, b.validTo);
  return until;
}
