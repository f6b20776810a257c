import { Injectable } from '@nestjs/common';
import { ItemRecord } from './catalog.records';
import { LivePrice } from './catalog.ports';
import { BaseLivePrice } from './base-live-price';

/**
 * The LivePrice the POS lookups use. The catalog cannot depend on the pricing context (pricing
 * depends on the catalog), so pricing plugs its engine in here at start; until then (or without
 * the pricing module, as in the CLI) the base price is the live price.
 */
@Injectable()
export class LivePriceRegistry extends LivePrice {
  private impl: LivePrice = new BaseLivePrice();

  use(impl: LivePrice): void {
    this.impl = impl;
  }

  unitPrices(items: Pick<ItemRecord, 'id' | 'basePrice'>[], context: { storeId: number; customerId?: number }) {
    return this.impl.unitPrices(items, context);
  }
}
