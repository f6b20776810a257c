import { InventoryKit, RECEIVED } from '../../application/inventory-kit';
import { chart, dailyPoints, groupRows, n, total } from '../../application/report-kit';
import { figure, row } from '../../domain/report-figures';
import { percent } from '../../domain/report-math';
import { STOCK_MOVES, WRITE_OFFS } from '../../domain/rollup-tables';
import { defineReport } from '../definition';

// A compute report: write-offs (a rollup per warehouse and item) valued at the catalog's current cost.
export default defineReport({
  route: 'inventory/damage-spoilage',
  operation: 'getDamageSpoilageReport',
  title: 'Inventory: damage and spoilage',
  description: 'Units written off as damaged or spoiled in the period per item, valued at current cost.',
  permission: 'inventory.reports',
  summary: ['damaged_units', 'spoiled_units', 'damaged_value', 'spoiled_value', 'loss_value', 'written_off_per_received'],
  columns: ['item_id', 'sku', 'name', 'category', 'damaged_units', 'spoiled_units', 'currency', 'damaged_value', 'spoiled_value', 'loss_value'],
  build: async (ctx) => {
    const { scope } = ctx;
    const inv = ctx.use(InventoryKit);
    const q = { from: scope.period.from, to: scope.period.to };
    const inScope = { warehouse_id: scope.warehouseIds };
    const [{ money, base, levels }, perItem, daily, received] = await Promise.all([
      inv.levels(scope),
      ctx.kit.rollups.sum({ ...q, table: WRITE_OFFS, where: inScope, groupBy: ['item_id'], measures: ['damaged_qty', 'spoiled_qty'] }),
      ctx.kit.rollups.sum({
        ...q,
        table: STOCK_MOVES,
        daily: true,
        where: { ...inScope, move_type: ['damage', 'spoilage'] },
        groupBy: ['day', 'move_type'],
        measures: ['qty_out'],
      }),
      ctx.kit.rollups.sum({ ...q, table: STOCK_MOVES, where: { ...inScope, move_type: RECEIVED }, groupBy: [], measures: ['qty_in'] }),
    ]);
    const hit = perItem.filter((r) => n(r, 'damaged_qty') !== 0 || n(r, 'spoiled_qty') !== 0);
    const info = await ctx.kit.itemInfo(hit.map((r) => n(r, 'item_id')));
    const costOf = new Map(levels.map((l) => [l.itemId, l.cost]));
    const unitCost = (id: number) => costOf.get(id) ?? info.get(id)?.cost ?? 0;
    const lines = hit
      .map((r) => {
        const id = n(r, 'item_id');
        return { id, damaged: n(r, 'damaged_qty'), spoiled: n(r, 'spoiled_qty'), loss: (n(r, 'damaged_qty') + n(r, 'spoiled_qty')) * unitCost(id) };
      })
      .sort((a, b) => b.loss - a.loss || a.id - b.id);
    const rows = lines.map(({ id, damaged, spoiled, loss }) =>
      row({
        item_id: id,
        sku: info.get(id)?.sku ?? null,
        name: info.get(id)?.name ?? null,
        category: info.get(id)?.categoryName ?? null,
        damaged_units: damaged,
        spoiled_units: spoiled,
        currency: base,
        damaged_value: money.v(damaged * unitCost(id), base),
        spoiled_value: money.v(spoiled * unitCost(id), base),
        loss_value: money.v(loss, base),
      }),
    );
    const sum = (f: (l: (typeof lines)[number]) => number) => lines.reduce((a, l) => a + f(l), 0);
    const damaged = sum((l) => l.damaged);
    const spoiled = sum((l) => l.spoiled);
    const summary = [
      figure('damaged_units', damaged),
      figure('spoiled_units', spoiled),
      figure(
        'damaged_value',
        money.v(
          sum((l) => l.damaged * unitCost(l.id)),
          base,
        ),
        base,
      ),
      figure(
        'spoiled_value',
        money.v(
          sum((l) => l.spoiled * unitCost(l.id)),
          base,
        ),
        base,
      ),
      figure(
        'loss_value',
        money.v(
          sum((l) => l.loss),
          base,
        ),
        base,
      ),
      figure('written_off_per_received', percent(damaged + spoiled, n(received[0], 'qty_in'))),
    ];
    const perType = (type: string) =>
      [
        ...groupRows(
          daily.filter((r) => r.move_type === type),
          'day',
        ),
      ].map(([day, list]) => ({ day: Number(day), qty_out: n(total(list, ['qty_out']), 'qty_out') }));
    const byType = [
      { x: 'damage', y: damaged },
      { x: 'spoilage', y: spoiled },
    ];
    return {
      summary,
      rows,
      charts: [
        chart('bar', 'Units written off by type', [{ name: 'units', currency: null, data: byType }]),
        chart(
          'line',
          'Units written off per day',
          ['damage', 'spoilage'].map((type) => ({ name: type, currency: null, data: dailyPoints(scope, perType(type), (r) => n(r, 'qty_out')) })),
        ),
      ],
    };
  },
});
