import type { StockSnapshotRow } from '@pos/catalog';
import { InventoryKit, STOCK_NOW, stockValue, valueByCategory, valueOf } from '../../application/inventory-kit';
import { chart } from '../../application/report-kit';
import { figure, row } from '../../domain/report-figures';
import { percent } from '../../domain/report-math';
import { defineReport } from '../definition';

// A compute report: the catalog's stock levels now, per item over its warehouses.
export default defineReport({
  route: 'inventory/valuation',
  operation: 'getInventoryValuationReport',
  title: 'Inventory: valuation',
  description: 'Stock value now at each item’s current cost (base currency), per item; by category and warehouse.',
  permission: 'inventory.reports',
  summary: ['stock_value', 'units_on_hand', 'items_in_stock', 'average_unit_cost'],
  columns: ['item_id', 'sku', 'name', 'category', 'on_hand', 'currency', 'unit_cost', 'value', 'share_percent'],
  build: async (ctx) => {
    const { scope } = ctx;
    const { money, base, levels } = await ctx.use(InventoryKit).levels(scope);
    const perItem = new Map<number, { l: StockSnapshotRow; units: number; value: number }>();
    for (const l of levels) {
      const e = perItem.get(l.itemId) ?? { l, units: 0, value: 0 };
      e.units += Math.max(l.quantity, 0);
      e.value += stockValue(l);
      perItem.set(l.itemId, e);
    }
    const all = [...perItem.values()].reduce((a, e) => a + e.value, 0);
    const rows = [...perItem.values()]
      .filter((e) => e.units > 0)
      .sort((a, b) => b.value - a.value || a.l.itemId - b.l.itemId)
      .map((e) =>
        row({
          item_id: e.l.itemId,
          sku: e.l.sku,
          name: e.l.name,
          category: e.l.categoryName,
          on_hand: e.units,
          currency: base,
          unit_cost: money.v(e.l.cost, base),
          value: money.v(e.value, base),
          share_percent: percent(e.value, all),
        }),
      );
    const units = rows.reduce((a, r) => a + r.on_hand, 0);
    const summary = [
      figure('stock_value', money.v(all, base), base),
      figure('units_on_hand', units),
      figure('items_in_stock', rows.length),
      figure('average_unit_cost', units ? money.v(Math.round(all / units), base) : null, base),
    ];
    const byWarehouse = scope.warehouseIds.map((w) => ({
      x: scope.warehouseNames.get(w) ?? String(w),
      y: money.v(valueOf(levels.filter((l) => l.warehouseId === w)), base),
    }));
    return {
      summary,
      rows,
      charts: [
        chart('pie', 'Stock value by category', [{ name: base, currency: base, data: valueByCategory(levels, money, base) }]),
        chart('bar', 'Stock value by warehouse', [{ name: base, currency: base, data: byWarehouse }]),
      ],
      note: STOCK_NOW,
    };
  },
});
