import { Injectable } from '@nestjs/common';
import { Clock } from '@pos/kernel';
import { ItemRecord, StoreRecord } from '@pos/catalog';
import { priceCart } from '../domain/pricing-engine';
import { PricingRepository } from './pricing.ports';
import { safeTimeZone } from './pricing.service';
import { ActivePricingCache } from './active-pricing.cache';

/**
 * The POS live price: one unit of each item priced alone by the engine for the store, now
 * (price book, then rules; cart-wide conditions such as a minimum subtotal see only that unit).
 */
@Injectable()
export class LivePriceService {
  constructor(
    private readonly pricing: PricingRepository,
    private readonly clock: Clock,
    private readonly active: ActivePricingCache,
  ) {}

  async unitPrices(items: ItemRecord[], store: StoreRecord): Promise<Map<number, { price: number; source: string }>> {
    const out = new Map<number, { price: number; source: string }>();
    if (!items.length) return out;
    const at = this.clock.now();
    const [books, rules] = await Promise.all([
      this.active.priceBookCandidates(
        items.map((i) => i.id),
        { storeId: store.id, customerGroupId: null, at, currencyCode: store.currencyCode },
      ),
      this.active.activeRules(),
    ]);
    const context = {
      storeId: store.id,
      customerGroupId: null,
      at,
      timeZone: safeTimeZone(store.timezone),
      pricesIncludeTax: store.pricesIncludeTax,
      taxExempt: true,
    };
    for (const item of items) {
      const r = priceCart({
        context,
        lines: [
          {
            key: '0',
            itemId: item.id,
            categoryId: item.categoryId,
            quantity: 1,
            basePrice: item.basePrice,
            priceBooks: books.get(item.id) ?? [],
            taxRateBp: 0,
          },
        ],
        rules,
        bundles: [],
      });
      out.set(item.id, { price: r.lines[0].net, source: r.lines[0].priceSource });
    }
    return out;
  }
}
