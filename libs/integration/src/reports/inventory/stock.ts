import { stockStatus } from '@pos/catalog';
import { InventoryKit, STOCK_NOW, stockValue, unitsOnHand, valueOf } from '../../application/inventory-kit';
import { chart } from '../../application/report-kit';
import { figure, row } from '../../domain/report-figures';
import { defineReport } from '../definition';

// A compute report: the catalog's stock levels now (no rollup holds current stock).
export default defineReport({
  route: 'inventory/stock',
  operation: 'getInventoryStockReport',
  title: 'Inventory: stock',
  description: 'Every item x warehouse level now: on hand, reorder level, status (out <= 0, low <= reorder level, in_stock), unit cost, value.',
  permission: 'inventory.reports',
  summary: ['levels', 'in_stock', 'low', 'out', 'units_on_hand', 'stock_value'],
  columns: [
    'item_id',
    'sku',
    'name',
    'category',
    'warehouse_id',
    'warehouse_name',
    'on_hand',
    'reorder_level',
    'stock_status',
    'is_active',
    'currency',
    'unit_cost',
    'value',
  ],
  build: async (ctx) => {
    const { scope } = ctx;
    const { money, base, levels } = await ctx.use(InventoryKit).levels(scope);
    const rows = levels.map((l) =>
      row({
        item_id: l.itemId,
        sku: l.sku,
        name: l.name,
        category: l.categoryName,
        warehouse_id: l.warehouseId,
        warehouse_name: scope.warehouseNames.get(l.warehouseId) ?? null,
        on_hand: l.quantity,
        reorder_level: l.reorderLevel,
        stock_status: stockStatus(l.quantity, l.reorderLevel),
        is_active: l.isActive,
        currency: base,
        unit_cost: money.v(l.cost, base),
        value: money.v(stockValue(l), base),
      }),
    );
    const count = (s: string) => rows.filter((r) => r.stock_status === s).length;
    const summary = [
      figure('levels', rows.length),
      figure('in_stock', count('in_stock')),
      figure('low', count('low')),
      figure('out', count('out')),
      figure('units_on_hand', unitsOnHand(levels)),
      figure('stock_value', money.v(valueOf(levels), base), base),
    ];
    const byStatus = ['in_stock', 'low', 'out'].map((s) => ({ x: s, y: count(s) }));
    return { summary, rows, charts: [chart('pie', 'Levels by stock status', [{ name: 'levels', currency: null, data: byStatus }])], note: STOCK_NOW };
  },
});
