import { Injectable } from '@nestjs/common';
import { CategoryRecord, StockMovementRecord } from './catalog.records';
import { CategoryRepository, StockRepository, StockSnapshotRow } from './catalog.ports';

/**
 * Published by the catalog for reporting, read only: stock levels with the item facts that value
 * and classify them (cost, category, reorder settings), the movement ledger in id order (to
 * rebuild rollups kept from StockMovedFacts), and category names.
 */
@Injectable()
export class StockReadModel {
  constructor(
    private readonly stock: StockRepository,
    private readonly categories: CategoryRepository,
  ) {}

  /** Every level of live items in these warehouses. */
  snapshot(warehouseIds: number[]): Promise<StockSnapshotRow[]> {
    return this.stock.snapshot(warehouseIds);
  }

  /** Up to `limit` movements with id > afterId, in id order. */
  movementsAfter(afterId: number, limit: number): Promise<StockMovementRecord[]> {
    return this.stock.movementsAfter(afterId, limit);
  }

  /** Categories by id (deleted ones too: old sales point at them). */
  categoriesByIds(ids: number[]): Promise<CategoryRecord[]> {
    return ids.length ? this.categories.findByIds(ids) : Promise.resolve([]);
  }
}
