import { InventoryKit, stockValue, valueByCategory, valueOf } from '../../application/inventory-kit';
import { chart } from '../../application/report-kit';
import { formatDay } from '../../domain/calendar';
import { figure, row } from '../../domain/report-figures';
import { DEAD_STOCK_DAYS, isDeadStock, percent } from '../../domain/report-math';
import { defineReport } from '../definition';

// A compute report: the catalog's stock levels now against each level's last sale (a rollup).
export default defineReport({
  route: 'inventory/dead-stock',
  operation: 'getDeadStockReport',
  title: 'Inventory: dead stock',
  description: 'Item x warehouse with stock on hand and no sale in the last 90 days (or never).',
  permission: 'inventory.reports',
  summary: ['dead_stock_items', 'dead_stock_units', 'dead_stock_value', 'share_of_stock_value'],
  columns: ['item_id', 'sku', 'name', 'category', 'warehouse_id', 'warehouse_name', 'on_hand', 'currency', 'value', 'last_sold', 'days_since_last_sale'],
  build: async (ctx) => {
    const { scope } = ctx;
    const inv = ctx.use(InventoryKit);
    const [{ money, base, levels }, lastSold] = await Promise.all([inv.levels(scope), inv.lastSold(scope)]);
    const dead = levels.filter((l) => isDeadStock(l.quantity, lastSold(l), scope.today));
    const rows = [...dead]
      .sort((a, b) => stockValue(b) - stockValue(a) || a.itemId - b.itemId)
      .map((l) => {
        const day = lastSold(l);
        return row({
          item_id: l.itemId,
          sku: l.sku,
          name: l.name,
          category: l.categoryName,
          warehouse_id: l.warehouseId,
          warehouse_name: scope.warehouseNames.get(l.warehouseId) ?? null,
          on_hand: l.quantity,
          currency: base,
          value: money.v(stockValue(l), base),
          last_sold: day === null ? null : formatDay(day),
          days_since_last_sale: day === null ? null : scope.today - day,
        });
      });
    const summary = [
      figure('dead_stock_items', rows.length),
      figure(
        'dead_stock_units',
        rows.reduce((a, r) => a + r.on_hand, 0),
      ),
      figure('dead_stock_value', money.v(valueOf(dead), base), base),
      figure('share_of_stock_value', percent(valueOf(dead), valueOf(levels))),
    ];
    return {
      summary,
      rows,
      charts: [chart('pie', 'Dead stock value by category', [{ name: base, currency: base, data: valueByCategory(dead, money, base) }])],
      note: `Stock as of generated_at; no sale in the ${DEAD_STOCK_DAYS} days up to today (${formatDay(scope.today)}).`,
    };
  },
});
