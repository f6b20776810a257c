import type { StockSnapshotRow } from '@pos/catalog';
import { InventoryKit } from '../../application/inventory-kit';
import { chart, n } from '../../application/report-kit';
import { figure, row } from '../../domain/report-figures';
import { reorderSuggestion } from '../../domain/report-math';
import { defineReport } from '../definition';

// A compute report: the catalog's levels now (reorder settings) with the period's sale lines per level.
export default defineReport({
  route: 'inventory/replenishment',
  operation: 'getInventoryReplenishmentReport',
  title: 'Inventory: replenishment',
  description: 'Levels at or below the reorder level: suggested order = max(reorder quantity, reorder level - on hand); sales rate over the period.',
  permission: 'inventory.reports',
  summary: ['items_to_reorder', 'units_suggested', 'estimated_cost'],
  columns: [
    'item_id',
    'sku',
    'name',
    'warehouse_id',
    'warehouse_name',
    'on_hand',
    'reorder_level',
    'reorder_quantity',
    'suggested_order',
    'units_sold_in_period',
    'average_daily_sales',
    'days_of_cover',
    'currency',
    'estimated_cost',
  ],
  build: async (ctx) => {
    const { scope } = ctx;
    const inv = ctx.use(InventoryKit);
    const { money, base, levels } = await inv.levels(scope);
    const due = levels
      .filter((l) => l.isActive)
      .map((l) => ({ l, suggested: reorderSuggestion(l.quantity, l.reorderLevel, l.reorderQuantity) }))
      .filter((x): x is { l: StockSnapshotRow; suggested: number } => x.suggested !== null);
    const candidates = [...new Set(due.map((x) => x.l.itemId))];
    const sold = candidates.length ? await inv.lines(scope, ['warehouse_id', 'item_id'], ['units'], candidates) : [];
    const soldOf = new Map(sold.map((r) => [`${r.warehouse_id}:${r.item_id}`, n(r, 'units')]));
    let estimated = 0;
    const rows = due
      .sort((a, b) => a.l.quantity - a.l.reorderLevel - (b.l.quantity - b.l.reorderLevel) || a.l.itemId - b.l.itemId || a.l.warehouseId - b.l.warehouseId)
      .map(({ l, suggested }) => {
        const unitsSold = soldOf.get(`${l.warehouseId}:${l.itemId}`) ?? 0;
        const perDay = unitsSold / scope.period.days;
        estimated += suggested * l.cost;
        return row({
          item_id: l.itemId,
          sku: l.sku,
          name: l.name,
          warehouse_id: l.warehouseId,
          warehouse_name: scope.warehouseNames.get(l.warehouseId) ?? null,
          on_hand: l.quantity,
          reorder_level: l.reorderLevel,
          reorder_quantity: l.reorderQuantity,
          suggested_order: suggested,
          units_sold_in_period: unitsSold,
          average_daily_sales: Math.round(perDay * 100) / 100,
          days_of_cover: perDay > 0 ? Math.round((Math.max(l.quantity, 0) / perDay) * 10) / 10 : null,
          currency: base,
          estimated_cost: money.v(suggested * l.cost, base),
        });
      });
    const summary = [
      figure('items_to_reorder', rows.length),
      figure(
        'units_suggested',
        rows.reduce((a, r) => a + r.suggested_order, 0),
      ),
      figure('estimated_cost', money.v(estimated, base), base),
    ];
    const top = [...rows]
      .sort((a, b) => b.suggested_order - a.suggested_order)
      .slice(0, 10)
      .map((r) => ({ x: `${r.sku} @ ${r.warehouse_name ?? r.warehouse_id}`, y: r.suggested_order }));
    return {
      summary,
      rows,
      charts: [chart('bar', 'Suggested order quantities (top 10)', [{ name: 'units', currency: null, data: top }])],
      note: 'Levels as of generated_at; units sold over the period.',
    };
  },
});
