import { Injectable, OnModuleInit } from '@nestjs/common';
import { Clock } from '@pos/kernel';
import { ItemRecord, LivePrice, LivePriceRegistry, StoreRepository } from '@pos/catalog';
import { priceCart } from '../domain/pricing-engine';
import { PricingRepository } from './pricing.ports';
import { safeTimeZone } from './pricing.service';
import { ActivePricingCache } from './active-pricing.cache';

/**
 * The POS live price: one unit of each item priced alone by the engine for the store, now
 * (price book, then rules; cart-wide conditions such as a minimum subtotal see only that unit).
 */
@Injectable()
export class EngineLivePrice extends LivePrice implements OnModuleInit {
  constructor(
    private readonly pricing: PricingRepository,
    private readonly stores: StoreRepository,
    private readonly clock: Clock,
    private readonly registry: LivePriceRegistry,
    private readonly active: ActivePricingCache,
  ) {
    super();
  }

  onModuleInit(): void {
    this.registry.use(this);
  }

  async unitPrices(items: Pick<ItemRecord, 'id' | 'basePrice'>[], context: { storeId: number }): Promise<Map<number, { price: number; source: string }>> {
    const out = new Map<number, { price: number; source: string }>();
    if (!items.length) return out;
    const at = this.clock.now();
    const store = await this.stores.findStore(context.storeId);
    const [books, rules] = await Promise.all([
      this.pricing.priceBookCandidates(
        items.map((i) => i.id),
        { storeId: context.storeId, customerGroupId: null, at, currencyCode: store?.currencyCode ?? 'USD' },
      ),
      this.active.activeRules(),
    ]);
    for (const item of items) {
      const full = item as Partial<ItemRecord> & Pick<ItemRecord, 'id' | 'basePrice'>;
      const r = priceCart({
        context: {
          storeId: context.storeId,
          customerGroupId: null,
          at,
          timeZone: safeTimeZone(store?.timezone ?? 'UTC'),
          pricesIncludeTax: store?.pricesIncludeTax ?? false,
          taxExempt: true,
        },
        lines: [
          {
            key: '0',
            itemId: item.id,
            categoryId: full.categoryId ?? null,
            quantity: 1,
            basePrice: item.basePrice,
            priceBooks: books.get(item.id) ?? [],
            taxRateBp: 0,
          },
        ],
        rules,
        bundles: [],
      });
      const line = r.lines[0];
      out.set(item.id, { price: line.net, source: line.priceSource });
    }
    return out;
  }
}
