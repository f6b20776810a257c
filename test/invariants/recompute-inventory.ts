/**
 * Independent recomputation of the inventory reports (contract 4.10: inventory/overview, stock,
 * movement, valuation, replenishment, turns, dead-stock, damage-spoilage) from the raw tables
 * (stock_levels, stock_movements, items, categories, sale_items, sales, sale_returns,
 * sale_return_items), for the invariant suite of issue 23. Written from decisions.md "Reports",
 * the README's report table and the reports' own labels, never from the report code. The
 * definitions used, where those texts leave a choice:
 * - Stock is the current level of each item (not deleted) in each warehouse in scope: with
 *   store_id, the store's warehouses and the standalone ones serving it. Values are at the item's
 *   current cost, in the base currency. The effective reorder level is the warehouse's own, else
 *   the item's. Status (as GET /inventory): out <= 0, low <= reorder level, else in stock; the
 *   low figures count the levels in status low. A level below zero (an offline sale beyond the
 *   stock) holds nothing: it adds no units and no value (opening and closing likewise).
 * - A movement counts on its day in the scope's time zone (the store's when one store is in
 *   scope, else UTC); a sale on its store's business day, a return on the day it was processed.
 * - Units sold: the base units of the lines of kept (not voided) sales of the period that left
 *   a warehouse in scope, whichever store sold them (stock figures follow the warehouses). COGS:
 *   unit cost snapshotted on those lines x quantity, less the cost of the goods of the period's
 *   processed returns of lines that left it (where the goods come back to does not matter).
 * - Opening stock = now less the movements since the first day; closing = now less the
 *   movements after the last day.
 * - Dead stock: on hand > 0 and no kept sale from that warehouse in the 90 days up to today
 *   (today and the 89 before it), or never.
 * - Replenishment: active items at or below their reorder level; suggested order
 *   max(reorder quantity, reorder level - on hand); average daily sales = units sold / days in
 *   the period; days of cover = on hand / average daily sales (null without sales).
 */
import {
  count,
  dayNumber,
  Expected,
  ExpectedChart,
  expectation,
  Fig,
  groupBy,
  money,
  num,
  pct,
  Q,
  qty,
  ReportFilters,
  row,
  sum,
  text,
} from './recompute-common';
import { itemFields, Level, moneyChart, Movement, period, positive, Stock, stock, summaryOf } from './recompute-stock';

function deadLevels(s: Stock): { level: Level; last: string | null }[] {
  const last = new Map<string, string>();
  for (const l of s.sold) {
    const k = `${l.itemId}|${l.warehouseId}`;
    if ((last.get(k) ?? '') < l.day) last.set(k, l.day);
  }
  const since = dayNumber(s.scope.today) - 89;
  return positive(s.levels)
    .map((level) => ({ level, last: last.get(`${level.item.id}|${level.warehouseId}`) ?? null }))
    .filter(({ last }) => last === null || dayNumber(last) < since);
}

export async function recomputeInventoryOverview(q: Q, filters: ReportFilters, now = new Date()): Promise<Expected> {
  const s = await stock(q, filters, now);
  const moved = period(s, s.movements);
  const figs = (ls: Level[]) => ({
    units_on_hand: qty(sum(ls, (l) => l.held)),
    stock_value: money(sum(ls, (l) => l.value)),
    out_of_stock: count(ls.filter((l) => l.item.active && l.status === 'out').length),
    low_stock: count(ls.filter((l) => l.item.active && l.status === 'low').length),
  });
  const summary = summaryOf(s, {
    skus_in_stock: count(positive(s.levels).length),
    ...figs(s.levels),
    dead_stock: count(deadLevels(s).length),
    sale_units_out: qty(sum(period(s, s.sold), (l) => l.baseQuantity)),
    units_received: qty(sum(moved, (m) => (m.type === 'receive' ? m.quantity : 0))),
    units_written_off: qty(sum(moved, (m) => (m.type === 'damage' || m.type === 'spoilage' ? -m.quantity : 0))),
  });
  const rows = [...groupBy(s.levels, (l) => String(l.warehouseId))].map(([wh, ls]) =>
    row(wh, s.scope.baseCurrency, {
      warehouse_name: text(ls[0].warehouseName),
      items_in_stock: count(positive(ls).length),
      currency: text(s.scope.baseCurrency),
      ...figs(ls),
    }),
  );
  const value = sum(s.levels, (l) => l.value);
  const charts = [moneyChart(s, 'Stock value by warehouse', value), moneyChart(s, 'Stock value by category', value)];
  return expectation('inventory/overview', s.scope, { summary, rows, rowKey: ['warehouse_id'], zeroRowsOptional: true, charts });
}

export async function recomputeInventoryStock(q: Q, filters: ReportFilters, now = new Date()): Promise<Expected> {
  const s = await stock(q, filters, now);
  const by = (st: string) => count(s.levels.filter((l) => l.status === st).length);
  const summary = summaryOf(s, {
    levels: count(s.levels.length),
    in_stock: by('in_stock'),
    low: by('low'),
    out: by('out'),
    units_on_hand: qty(sum(s.levels, (l) => l.held)),
    stock_value: money(sum(s.levels, (l) => l.value)),
  });
  const rows = s.levels.map((l) =>
    row(`${l.item.id}|${l.warehouseId}`, s.scope.baseCurrency, {
      ...itemFields(l.item),
      category: text(l.item.category),
      warehouse_name: text(l.warehouseName),
      on_hand: qty(l.onHand),
      reorder_level: qty(l.reorderLevel),
      stock_status: text(l.status),
      is_active: text(String(l.item.active)),
      currency: text(s.scope.baseCurrency),
      unit_cost: money(l.item.cost),
      value: money(l.value),
    }),
  );
  const charts: ExpectedChart[] = [{ title: 'Levels by stock status', unit: 'count', currency: null, total: s.levels.length }];
  return expectation('inventory/stock', s.scope, { summary, rows, rowKey: ['item_id', 'warehouse_id'], charts });
}

export async function recomputeInventoryMovement(q: Q, filters: ReportFilters, now = new Date()): Promise<Expected> {
  const s = await stock(q, filters, now);
  const figs = (ms: Movement[]) => ({
    movements: count(ms.length),
    units_in: qty(sum(ms, (m) => Math.max(m.quantity, 0))),
    units_out: qty(sum(ms, (m) => Math.max(-m.quantity, 0))),
    net_change: qty(sum(ms, (m) => m.quantity)),
  });
  const moved = period(s, s.movements);
  const rows = [...groupBy(moved, (m) => m.type)].map(([type, ms]) => row(type, null, figs(ms)));
  const net = sum(moved, (m) => m.quantity);
  const charts: ExpectedChart[] = ['Units moved by type (in - out)', 'Net change in units per day'].map((title) => ({
    title,
    unit: 'quantity',
    currency: null,
    total: net,
  }));
  return expectation('inventory/movement', s.scope, { summary: summaryOf(s, figs(moved)), rows, rowKey: ['type'], charts });
}

export async function recomputeInventoryValuation(q: Q, filters: ReportFilters, now = new Date()): Promise<Expected> {
  const s = await stock(q, filters, now);
  const value = sum(s.levels, (l) => l.value);
  const units = sum(s.levels, (l) => l.held);
  const perItem = [...groupBy(s.levels, (l) => String(l.item.id))].map(([, ls]) => ({ item: ls[0].item, onHand: sum(ls, (l) => l.held) }));
  const held = perItem.filter((i) => i.onHand > 0);
  const summary = summaryOf(s, {
    stock_value: money(value),
    units_on_hand: qty(units),
    items_in_stock: count(held.length),
    average_unit_cost: money(units === 0 ? null : value / units),
  });
  const rows = held.map(({ item, onHand }) =>
    row(String(item.id), s.scope.baseCurrency, {
      ...itemFields(item),
      category: text(item.category),
      on_hand: qty(onHand),
      currency: text(s.scope.baseCurrency),
      unit_cost: money(item.cost),
      value: money(onHand * item.cost),
      share_percent: pct(onHand * item.cost, value),
    }),
  );
  const charts = [moneyChart(s, 'Stock value by category', value), moneyChart(s, 'Stock value by warehouse', value)];
  return expectation('inventory/valuation', s.scope, { summary, rows, rowKey: ['item_id'], zeroRowsOptional: true, charts });
}

export async function recomputeReplenishment(q: Q, filters: ReportFilters, now = new Date()): Promise<Expected> {
  const s = await stock(q, filters, now);
  const days = s.scope.days;
  const soldIn = period(s, s.sold);
  const due = s.levels
    .filter((l) => l.item.active && l.onHand <= l.reorderLevel)
    .map((l) => {
      const sold = sum(
        soldIn.filter((x) => x.itemId === l.item.id && x.warehouseId === l.warehouseId),
        (x) => x.baseQuantity,
      );
      const suggested = Math.max(l.item.reorderQuantity, l.reorderLevel - l.onHand);
      return { l, sold, suggested, daily: sold / days };
    });
  const summary = summaryOf(s, {
    items_to_reorder: count(due.length),
    units_suggested: qty(sum(due, (d) => d.suggested)),
    estimated_cost: money(sum(due, (d) => d.suggested * d.l.item.cost)),
  });
  const rows = due.map(({ l, sold, suggested, daily }) =>
    row(`${l.item.id}|${l.warehouseId}`, s.scope.baseCurrency, {
      ...itemFields(l.item),
      warehouse_name: text(l.warehouseName),
      on_hand: qty(l.onHand),
      reorder_level: qty(l.reorderLevel),
      reorder_quantity: qty(l.item.reorderQuantity),
      suggested_order: qty(suggested),
      units_sold_in_period: qty(sold),
      average_daily_sales: { unit: 'ratio', value: daily },
      days_of_cover: { unit: 'days', value: daily === 0 ? null : l.held / daily },
      currency: text(s.scope.baseCurrency),
      estimated_cost: money(suggested * l.item.cost),
    }),
  );
  const charts: ExpectedChart[] =
    due.length <= 10 ? [{ title: 'Suggested order quantities (top 10)', unit: 'quantity', currency: null, total: sum(due, (d) => d.suggested) }] : [];
  return expectation('inventory/replenishment', s.scope, { summary, rows, rowKey: ['item_id', 'warehouse_id'], charts });
}

export async function recomputeTurns(q: Q, filters: ReportFilters, now = new Date()): Promise<Expected> {
  const s = await stock(q, filters, now);
  const days = s.scope.days;
  const f = s.scope.filters;
  const ids = new Set([...s.levels.map((l) => l.item.id), ...period(s, s.sold).map((l) => l.itemId)]);
  const perItem = [...ids].map((id) => {
    const item = s.items.get(id)!;
    const onHand = sum(
      s.levels.filter((l) => l.item.id === id),
      (l) => l.onHand,
    );
    const mine = s.movements.filter((m) => m.itemId === id);
    const opening = onHand - sum(mine, (m) => (m.day >= f.date_from ? m.quantity : 0));
    const closing = onHand - sum(mine, (m) => (m.day > f.date_to ? m.quantity : 0));
    const cogs =
      sum(
        period(s, s.sold).filter((l) => l.itemId === id),
        (l) => l.cost,
      ) -
      sum(
        period(s, s.returned).filter((r) => r.itemId === id),
        (r) => r.cost,
      );
    return { item, opening, closing, cogs, average: ((Math.max(opening, 0) + Math.max(closing, 0)) * item.cost) / 2 };
  });
  const turns = (cogs: number, average: number): Fig => ({ unit: 'ratio', value: average === 0 ? null : cogs / average });
  const daysOf = (cogs: number, average: number): Fig => ({ unit: 'days', value: cogs === 0 || average === 0 ? null : (days * average) / cogs });
  const cogs = sum(perItem, (i) => i.cogs);
  const average = sum(perItem, (i) => i.average);
  const summary = summaryOf(s, {
    cogs: money(cogs),
    average_inventory_value: money(average),
    turns: turns(cogs, average),
    days_of_inventory: daysOf(cogs, average),
  });
  const rows = perItem.map((i) =>
    row(String(i.item.id), s.scope.baseCurrency, {
      ...itemFields(i.item),
      currency: text(s.scope.baseCurrency),
      cogs: money(i.cogs),
      opening_units: qty(i.opening),
      closing_units: qty(i.closing),
      average_inventory_value: money(i.average),
      turns: turns(i.cogs, i.average),
      days_of_inventory: daysOf(i.cogs, i.average),
    }),
  );
  return expectation('inventory/turns', s.scope, { summary, rows, rowKey: ['item_id'], zeroRowsOptional: true });
}

export async function recomputeDeadStock(q: Q, filters: ReportFilters, now = new Date()): Promise<Expected> {
  const s = await stock(q, filters, now);
  const dead = deadLevels(s);
  const value = sum(dead, (d) => d.level.value);
  const summary = summaryOf(s, {
    dead_stock_items: count(dead.length),
    dead_stock_units: qty(sum(dead, (d) => d.level.onHand)),
    dead_stock_value: money(value),
    share_of_stock_value: pct(
      value,
      sum(s.levels, (l) => l.value),
    ),
  });
  const rows = dead.map(({ level: l, last }) =>
    row(`${l.item.id}|${l.warehouseId}`, s.scope.baseCurrency, {
      ...itemFields(l.item),
      category: text(l.item.category),
      warehouse_name: text(l.warehouseName),
      on_hand: qty(l.onHand),
      currency: text(s.scope.baseCurrency),
      value: money(l.value),
      last_sold: text(last),
      days_since_last_sale: { unit: 'days', value: last === null ? null : dayNumber(s.scope.today) - dayNumber(last) },
    }),
  );
  return expectation('inventory/dead-stock', s.scope, {
    summary,
    rows,
    rowKey: ['item_id', 'warehouse_id'],
    charts: [moneyChart(s, 'Dead stock value by category', value)],
  });
}

export async function recomputeDamageSpoilage(q: Q, filters: ReportFilters, now = new Date()): Promise<Expected> {
  const s = await stock(q, filters, now);
  const moved = period(s, s.movements);
  const lost = moved.filter((m) => m.type === 'damage' || m.type === 'spoilage');
  const figs = (ms: Movement[]) => {
    const units = (t: string) => sum(ms, (m) => (m.type === t ? -m.quantity : 0));
    const value = (t: string) => sum(ms, (m) => (m.type === t ? -m.quantity * s.items.get(m.itemId)!.cost : 0));
    return {
      damaged_units: qty(units('damage')),
      spoiled_units: qty(units('spoilage')),
      damaged_value: money(value('damage')),
      spoiled_value: money(value('spoilage')),
      loss_value: money(value('damage') + value('spoilage')),
    };
  };
  const written = sum(lost, (m) => -m.quantity);
  const received = sum(moved, (m) => (m.type === 'receive' ? m.quantity : 0));
  const summary = summaryOf(s, { ...figs(lost), written_off_per_received: pct(written, received) });
  const rows = [...groupBy(lost, (m) => String(m.itemId))].map(([id, ms]) => {
    const item = s.items.get(Number(id))!;
    return row(id, s.scope.baseCurrency, { ...itemFields(item), category: text(item.category), currency: text(s.scope.baseCurrency), ...figs(ms) });
  });
  const units = (series: string, total: number): ExpectedChart => ({ title: 'Units written off per day', series, unit: 'quantity', currency: null, total });
  const charts: ExpectedChart[] = [
    { title: 'Units written off by type', unit: 'quantity', currency: null, total: written },
    units('damage', num(figs(lost).damaged_units.value)),
    units('spoilage', num(figs(lost).spoiled_units.value)),
  ];
  return expectation('inventory/damage-spoilage', s.scope, { summary, rows, rowKey: ['item_id'], charts });
}

/** Each report of the family: its recomputation (compare a payload with it with compareReport). */
export const INVENTORY_REPORTS = {
  'inventory/overview': recomputeInventoryOverview,
  'inventory/stock': recomputeInventoryStock,
  'inventory/movement': recomputeInventoryMovement,
  'inventory/valuation': recomputeInventoryValuation,
  'inventory/replenishment': recomputeReplenishment,
  'inventory/turns': recomputeTurns,
  'inventory/dead-stock': recomputeDeadStock,
  'inventory/damage-spoilage': recomputeDamageSpoilage,
} as const;
export { compareReport } from './recompute-common';
