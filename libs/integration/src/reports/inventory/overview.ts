import { StockSnapshotRow, stockStatus } from '@pos/catalog';
import { InventoryKit, RECEIVED, STOCK_NOW, unitsOnHand, valueByCategory, valueOf } from '../../application/inventory-kit';
import { chart, n } from '../../application/report-kit';
import { figure, row } from '../../domain/report-figures';
import { isDeadStock } from '../../domain/report-math';
import { defineReport } from '../definition';

// A compute report: stock now (the catalog's levels) beside the period's movements and sale lines.
export default defineReport({
  route: 'inventory/overview',
  operation: 'getInventoryOverviewReport',
  title: 'Inventory: overview',
  description:
    'Stock now (items in stock, units, value at current cost, out, low, dead) per warehouse, and in the period: units sold out of these warehouses (voided sales excluded), received (receive adjustments; a transfer is not a receipt) and written off.',
  permission: 'inventory.reports',
  summary: [
    'skus_in_stock',
    'units_on_hand',
    'stock_value',
    'out_of_stock',
    'low_stock',
    'dead_stock',
    'sale_units_out',
    'units_received',
    'units_written_off',
  ],
  columns: ['warehouse_id', 'warehouse_name', 'items_in_stock', 'units_on_hand', 'stock_value', 'currency', 'out_of_stock', 'low_stock'],
  build: async (ctx) => {
    const { scope } = ctx;
    const inv = ctx.use(InventoryKit);
    const [{ money, base, levels }, moves, lastSold, sold] = await Promise.all([
      inv.levels(scope),
      inv.moves(scope, ['move_type']),
      inv.lastSold(scope),
      inv.lines(scope, [], ['units']),
    ]);
    const status = (l: StockSnapshotRow) => stockStatus(l.quantity, l.reorderLevel);
    const active = levels.filter((l) => l.isActive);
    const moved = (type: string, m: 'qty_in' | 'qty_out') =>
      n(
        moves.find((r) => r.move_type === type),
        m,
      );
    const summary = [
      figure('skus_in_stock', levels.filter((l) => l.quantity > 0).length),
      figure('units_on_hand', unitsOnHand(levels)),
      figure('stock_value', money.v(valueOf(levels), base), base),
      figure('out_of_stock', active.filter((l) => status(l) === 'out').length),
      figure('low_stock', active.filter((l) => status(l) === 'low').length),
      figure('dead_stock', levels.filter((l) => isDeadStock(l.quantity, lastSold(l), scope.today)).length),
      figure('sale_units_out', n(sold[0], 'units')),
      figure(
        'units_received',
        RECEIVED.reduce((a, type) => a + moved(type, 'qty_in'), 0),
      ),
      figure('units_written_off', moved('damage', 'qty_out') + moved('spoilage', 'qty_out')),
    ];
    const rows = scope.warehouseIds.map((w) => {
      const mine = levels.filter((l) => l.warehouseId === w);
      return row({
        warehouse_id: w,
        warehouse_name: scope.warehouseNames.get(w) ?? null,
        items_in_stock: mine.filter((l) => l.quantity > 0).length,
        units_on_hand: unitsOnHand(mine),
        stock_value: money.v(valueOf(mine), base),
        currency: base,
        out_of_stock: mine.filter((l) => l.isActive && status(l) === 'out').length,
        low_stock: mine.filter((l) => l.isActive && status(l) === 'low').length,
      });
    });
    return {
      summary,
      rows,
      charts: [
        chart('bar', 'Stock value by warehouse', [{ name: base, currency: base, data: rows.map((r) => ({ x: String(r.warehouse_name), y: r.stock_value })) }]),
        chart('pie', 'Stock value by category', [{ name: base, currency: base, data: valueByCategory(levels, money, base) }]),
      ],
      note: STOCK_NOW,
    };
  },
});
