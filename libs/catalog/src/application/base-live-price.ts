import { Injectable } from '@nestjs/common';
import { ItemRecord } from './catalog.records';
import { LivePrice } from './catalog.ports';

/** Until the pricing engine lands: the live price is the item's base price. */
@Injectable()
export class BaseLivePrice extends LivePrice {
  async unitPrices(items: Pick<ItemRecord, 'id' | 'basePrice'>[]): Promise<Map<number, { price: number; source: string }>> {
    return new Map(items.map((i) => [i.id, { price: i.basePrice, source: 'base' }]));
  }
}
