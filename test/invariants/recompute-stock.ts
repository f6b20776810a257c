/**
 * The raw stock records the inventory recomputations (recompute-inventory.ts) read, for the scope
 * of a report's filters: items (not deleted) with their current cost, the levels of the warehouses
 * in scope, the stock ledger, the lines of kept sales that left those warehouses and the cost of
 * the goods of processed returns of such lines. Plain SELECTs, portable to SQLite and MariaDB.
 */
import { dayIn, ExpectedChart, ExpectedFigure, Fig, figures, inPeriod, num, Q, ReportFilters, Scope, scopeOf, text, toDate } from './recompute-common';

export interface Item {
  id: number;
  sku: string;
  name: string;
  category: string | null;
  cost: number;
  active: boolean;
  reorderLevel: number;
  reorderQuantity: number;
}
export interface Level {
  item: Item;
  warehouseId: number;
  warehouseName: string;
  onHand: number;
  /** What the level holds: a level below zero (an offline sale beyond the stock) holds nothing. */
  held: number;
  reorderLevel: number;
  status: 'out' | 'low' | 'in_stock';
  value: number;
}
export interface Movement {
  itemId: number;
  warehouseId: number;
  type: string;
  quantity: number;
  day: string;
}
export interface SoldLine {
  itemId: number;
  warehouseId: number;
  baseQuantity: number;
  cost: number;
  day: string;
}
export interface Stock {
  scope: Scope;
  items: Map<number, Item>;
  levels: Level[];
  movements: Movement[];
  /** Lines of kept sales that left a warehouse in scope, any day. */
  sold: SoldLine[];
  /** Cost of the goods of processed returns (of lines that left a warehouse in scope), by day. */
  returned: { itemId: number; warehouseId: number; cost: number; day: string }[];
}

export async function stock(q: Q, filters: ReportFilters, now: Date): Promise<Stock> {
  const scope = await scopeOf(q, filters, now);
  const categories = new Map((await q('SELECT id, name FROM categories')).map((c) => [num(c.id), String(c.name)]));
  const items = new Map<number, Item>();
  for (const i of await q('SELECT id, sku, name, category_id, cost, is_active, reorder_level, reorder_quantity, deleted_at FROM items')) {
    if (i.deleted_at !== null) continue;
    items.set(num(i.id), {
      id: num(i.id),
      sku: String(i.sku),
      name: String(i.name),
      category: i.category_id === null ? null : (categories.get(num(i.category_id)) ?? null),
      cost: num(i.cost),
      active: i.is_active === true || num(i.is_active) === 1,
      reorderLevel: num(i.reorder_level),
      reorderQuantity: num(i.reorder_quantity),
    });
  }
  const levels: Level[] = [];
  for (const l of await q('SELECT item_id, warehouse_id, quantity, reorder_level FROM stock_levels')) {
    const item = items.get(num(l.item_id));
    const wh = scope.warehouses.get(num(l.warehouse_id));
    if (!item || !wh) continue;
    const onHand = num(l.quantity);
    const reorderLevel = l.reorder_level === null ? item.reorderLevel : num(l.reorder_level);
    const status = onHand <= 0 ? 'out' : onHand <= reorderLevel ? 'low' : 'in_stock';
    levels.push({
      item,
      warehouseId: wh.id,
      warehouseName: wh.name,
      onHand,
      held: Math.max(onHand, 0),
      reorderLevel,
      status,
      value: Math.max(onHand, 0) * item.cost,
    });
  }
  const movements = (await q('SELECT item_id, warehouse_id, type, quantity, created_at FROM stock_movements'))
    .filter((m) => scope.warehouses.has(num(m.warehouse_id)) && items.has(num(m.item_id)))
    .map((m) => ({
      itemId: num(m.item_id),
      warehouseId: num(m.warehouse_id),
      type: String(m.type),
      quantity: num(m.quantity),
      day: dayIn(toDate(m.created_at), scope.tz),
    }));
  const tzOf = (storeId: unknown) => scope.allStores.get(num(storeId))?.tz ?? 'UTC';
  const lines = await q(
    'SELECT si.id, si.item_id, si.warehouse_id, si.base_quantity, si.quantity, si.unit_cost, s.status, s.store_id, s.created_at FROM sale_items si JOIN sales s ON s.id = si.sale_id',
  );
  const sold = lines
    .filter((l) => l.status !== 'voided' && scope.warehouses.has(num(l.warehouse_id)))
    .map((l) => ({
      itemId: num(l.item_id),
      warehouseId: num(l.warehouse_id),
      baseQuantity: num(l.base_quantity),
      cost: num(l.unit_cost) * num(l.quantity),
      day: dayIn(toDate(l.created_at), tzOf(l.store_id)),
    }));
  const lineById = new Map(lines.map((l) => [num(l.id), l]));
  const returned = (
    await q(
      'SELECT ri.sale_item_id, ri.cost, r.store_id, r.processed_at FROM sale_return_items ri JOIN sale_returns r ON r.id = ri.return_id WHERE r.status = ? AND r.processed_at IS NOT NULL',
      ['processed'],
    )
  )
    .map((r) => ({ r, line: lineById.get(num(r.sale_item_id)) }))
    .filter(({ line }) => line && scope.warehouses.has(num(line.warehouse_id)))
    .map(({ r, line }) => ({
      itemId: num(line.item_id),
      warehouseId: num(line.warehouse_id),
      cost: num(r.cost),
      day: dayIn(toDate(r.processed_at), tzOf(r.store_id)),
    }));
  return { scope, items, levels, movements, sold, returned };
}

/** Summary figures: money in the base currency, the others without a currency. */
export const summaryOf = (s: Stock, figs: Record<string, Fig>): ExpectedFigure[] =>
  Object.entries(figs).flatMap(([key, f]) => figures(f.unit === 'money' ? s.scope.baseCurrency : null, { [key]: f }));
export const itemFields = (i: Item) => ({ sku: text(i.sku), name: text(i.name) });
export const moneyChart = (s: Stock, title: string, total: number): ExpectedChart => ({ title, unit: 'money', currency: s.scope.baseCurrency, total });
export const positive = (ls: Level[]) => ls.filter((l) => l.onHand > 0);
export const period = <T extends { day: string }>(s: Stock, xs: T[]) => xs.filter((x) => inPeriod(x.day, s.scope.filters));
