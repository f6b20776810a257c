import { Injectable } from '@nestjs/common';
import { StockReadModel, StockSnapshotRow } from '@pos/catalog';
import { Principal } from '@pos/identity';
import { ITEM_STOCK, ITEMS, ITEMS_ALL, STOCK_MOVES } from '../domain/rollup-tables';
import { Money, ReportKit, Row } from './report-kit';
import { ReportFilters, ReportScope, ReportScopeResolver } from './report-scope';

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

/** A value per category name, largest first, zeros left out. */
export function byCategory(levels: StockSnapshotRow[], value: (l: StockSnapshotRow) => number): [string, number][] {
  const out = new Map<string, number>();
  for (const l of levels) out.set(l.categoryName ?? 'Uncategorised', (out.get(l.categoryName ?? 'Uncategorised') ?? 0) + value(l));
  return [...out].filter(([, v]) => v !== 0).sort((a, b) => b[1] - a[1]);
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
    private readonly scopes: ReportScopeResolver,
    readonly kit: ReportKit,
    private readonly stock: StockReadModel,
  ) {}

  async open(p: Principal, f: ReportFilters): Promise<{ scope: ReportScope; money: Money; base: string; levels: StockSnapshotRow[] }> {
    const scope = await this.scopes.resolve(p, f);
    const base = await this.kit.baseCurrencyCode();
    const [money, levels] = await Promise.all([this.kit.money([base]), this.stock.snapshot(scope.warehouseIds)]);
    return { scope, money, base, levels };
  }

  moves(scope: ReportScope, groupBy: string[], daily = false): Promise<Row[]> {
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
  lines(scope: ReportScope, groupBy: string[], measures: string[], itemIds?: number[]): Promise<Row[]> {
    const q = { from: scope.period.from, to: scope.period.to, groupBy, measures };
    const items = itemIds ? { item_id: itemIds } : {};
    return scope.unrestricted && !groupBy.includes('warehouse_id')
      ? this.kit.rollups.sum({ ...q, table: ITEMS_ALL, where: items })
      : this.kit.rollups.sum({ ...q, table: ITEMS, where: { warehouse_id: scope.warehouseIds, ...items } });
  }

  itemStock(scope: ReportScope, from: number, to: number, measures: string[]): Promise<Row[]> {
    if (from > to) return Promise.resolve([]);
    return this.kit.rollups.sum({ table: ITEM_STOCK, from, to, where: { warehouse_id: scope.warehouseIds }, groupBy: ['item_id'], measures });
  }
}
