import { Injectable } from '@nestjs/common';

/** One change of an item's base price (minor units); `oldPrice` is null when the item was created. */
export interface BasePriceChange {
  itemId: number;
  oldPrice: number | null;
  newPrice: number;
}

/**
 * Where base-price changes are kept: one row per change, written in the transaction that makes
 * it (item create and update, the bulk price job), with the price before and after.
 */
export abstract class ItemPriceHistoryRepository {
  /**
   * The items' current base prices, locked until the caller's transaction ends (MySQL: FOR UPDATE,
   * in id order), so the price recorded as "before" is the one this change replaces even when two
   * changes of one item race. SQLite runs one writer at a time: a plain read.
   */
  abstract lockBasePrices(itemIds: number[]): Promise<Map<number, number>>;
  abstract record(changes: BasePriceChange[], at: Date): Promise<void>;
  /** Per item, the first change after `at` (oldest first), if any. */
  abstract firstChangesAfter(itemIds: number[], at: Date): Promise<Map<number, BasePriceChange>>;
}

/**
 * Published by the catalog: what an item's base price was at a past moment. The price in force at
 * `at` is the "before" price of the first change after it; with no change since, it is today's.
 * Rows record both prices, so the answer is exact from the first recorded change on, with no
 * backfill of items created before the history existed (before their first recorded change, the
 * price it replaced is the best knowledge there is).
 */
@Injectable()
export class ItemPriceHistory {
  constructor(private readonly history: ItemPriceHistoryRepository) {}

  /**
   * Base prices in force at `at` of the items whose price changed since; items absent from the
   * answer have had today's price since then (or did not exist yet).
   */
  async basePricesAt(itemIds: number[], at: Date): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    if (!itemIds.length) return out;
    for (const [itemId, change] of await this.history.firstChangesAfter([...new Set(itemIds)], at)) {
      if (change.oldPrice !== null) out.set(itemId, change.oldPrice);
    }
    return out;
  }
}
