import { Injectable } from '@nestjs/common';
import { StockReadModel, StockSnapshotRow } from '@pos/catalog';
import type { EpochDay } from '../domain/calendar';
import type { ChartPoint } from '../domain/report-payload';
import { ColumnOf, ITEM_STOCK, ITEMS, ITEMS_ALL, MeasureOf, STOCK_MOVES } from '../domain/rollup-tables';
import { Money, ReportKit } from './report-kit';
import type { SumRow } from './rollup.ports';
import type { ReportScope } from './report-scope';

/**
 * The movement types whose units are received (units_received): the `receive` adjustment (goods
 * in from a supplier; the demo's opening stock too). A transfer moves stock the chain already
 * held between two of its warehouses, and a restocked return brings sold goods back (the returns
 * report's units_restocked): neither is a receipt.
 */
export const RECEIVED = ['receive'];

export const STOCK_NOW = 'Stock as of generated_at (current levels); date filters do not apply to it.';

/** A level's value at the item's current cost (negative stock is worth nothing). */
export function stockValue(l: StockSnapshotRow): number {
  return Math.max(l.quantity, 0) * l.cost;
}

/** Units on hand of levels (negative stock counts as none). */
export function unitsOnHand(levels: StockSnapshotRow[]): number {
  return levels.reduce((a, l) => a + Math.max(l.quantity, 0), 0);
}

/** The value of levels at their items' current cost. */
export function valueOf(levels: StockSnapshotRow[]): number {
  return levels.reduce((a, l) => a + stockValue(l), 0);
}

/** Chart points of levels' value per category name (largest first, zeros left out), in the base currency. */
export function valueByCategory(levels: StockSnapshotRow[], money: Money, base: string): ChartPoint[] {
  const out = new Map<string, number>();
  for (const l of levels) out.set(l.categoryName ?? 'Uncategorised', (out.get(l.categoryName ?? 'Uncategorised') ?? 0) + stockValue(l));
  return [...out]
    .filter(([, v]) => v !== 0)
    .sort((a, b) => b[1] - a[1])
    .map(([x, v]) => ({ x, y: money.v(v, base) }));
}

/**
 * What the inventory report families share. Current stock comes from the catalog's published
 * StockReadModel (levels with the item's cost, category and reorder settings); movement history
 * from the rollups kept from the catalog's StockMovedFacts; COGS from the sales rollups (unit cost
 * snapshotted on each line). Stock is valued at the item's current cost, in the base currency.
 * The scope is the warehouses of the stores in scope (their own and the standalone ones serving
 * them) or the one warehouse asked for.
 */
@Injectable()
export class InventoryKit {
  constructor(
    private readonly kit: ReportKit,
    private readonly stock: StockReadModel,
  ) {}

  /** Stock now in the scope's warehouses, and money in the base currency its cost is in. */
  async levels(scope: ReportScope): Promise<{ money: Money; base: string; levels: StockSnapshotRow[] }> {
    const base = await this.kit.baseCurrencyCode();
    const [money, levels] = await Promise.all([this.kit.money([base]), this.stock.snapshot(scope.warehouseIds)]);
    return { money, base, levels };
  }

  /** The business day a level's item last sold out of its warehouse (null: never). */
  async lastSold(scope: ReportScope): Promise<(l: StockSnapshotRow) => EpochDay | null> {
    const last = await this.kit.rollups.lastSales(scope.warehouseIds);
    const lastOf = new Map(last.map((l) => [`${l.warehouseId}:${l.itemId}`, l.day]));
    return (l) => lastOf.get(`${l.warehouseId}:${l.itemId}`) ?? null;
  }

  moves<const G extends ColumnOf<typeof STOCK_MOVES> = never>(scope: ReportScope, groupBy: readonly G[], daily = false) {
    return this.kit.rollups.sum({
      table: STOCK_MOVES,
      from: scope.period.from,
      to: scope.period.to,
      daily,
      where: { warehouse_id: scope.warehouseIds },
      groupBy,
      measures: ['movements', 'qty_in', 'qty_out'],
    });
  }

  /**
   * The period's sale-line rollups of the lines that left the scope's warehouses, whichever store
   * sold them (units, cost and their returns; voided sales are out of them): per currency over
   * every store when nothing is filtered (unless grouped by warehouse).
   */
  lines<const M extends MeasureOf<typeof ITEMS>, const G extends ColumnOf<typeof ITEMS> = never>(
    scope: ReportScope,
    groupBy: readonly G[],
    measures: readonly M[],
    itemIds?: number[],
  ): Promise<SumRow<M, G>[]> {
    const q = { from: scope.period.from, to: scope.period.to, groupBy, measures };
    const items = itemIds ? { item_id: itemIds } : {};
    // The per-currency table has the same measures and no store or warehouse columns: grouped by those, the per-store one answers.
    return scope.unrestricted && !(groupBy as readonly string[]).includes('warehouse_id')
      ? this.kit.rollups
          .sum({ ...q, table: ITEMS_ALL, groupBy: groupBy as readonly ColumnOf<typeof ITEMS_ALL>[], where: items })
          .then((r) => r as SumRow<M, G>[])
      : this.kit.rollups.sum({ ...q, table: ITEMS, where: { warehouse_id: scope.warehouseIds, ...items } });
  }

  itemStock<const M extends MeasureOf<typeof ITEM_STOCK>>(
    scope: ReportScope,
    from: number,
    to: number,
    measures: readonly M[],
  ): Promise<SumRow<M, 'item_id'>[]> {
    if (from > to) return Promise.resolve([]);
    return this.kit.rollups.sum({ table: ITEM_STOCK, from, to, where: { warehouse_id: scope.warehouseIds }, groupBy: ['item_id'], measures });
  }
}
