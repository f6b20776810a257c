import { InventoryKit } from '../../application/inventory-kit';
import { chart, dailyPoints, n, total } from '../../application/report-kit';
import { figure, row } from '../../domain/report-figures';
import { defineReport } from '../definition';

// A compute report: the stock movement rollup is per warehouse, not per store and currency (units, no money).
export default defineReport({
  route: 'inventory/movement',
  operation: 'getInventoryMovementReport',
  title: 'Inventory: movement',
  description: 'Stock movements of the period by type (sale, void, return, receive, count, damage, spoilage, transfer_in/out): units in, out, net.',
  permission: 'inventory.reports',
  summary: ['movements', 'units_in', 'units_out', 'net_change'],
  columns: ['type', 'movements', 'units_in', 'units_out', 'net_change'],
  build: async (ctx) => {
    const { scope } = ctx;
    const inv = ctx.use(InventoryKit);
    const [byType, daily] = await Promise.all([inv.moves(scope, ['move_type']), inv.moves(scope, ['day'], true)]);
    const t = total(byType, ['movements', 'qty_in', 'qty_out']);
    const summary = [
      figure('movements', n(t, 'movements')),
      figure('units_in', n(t, 'qty_in')),
      figure('units_out', n(t, 'qty_out')),
      figure('net_change', n(t, 'qty_in') - n(t, 'qty_out')),
    ];
    const rows = byType
      .sort((a, b) => String(a.move_type).localeCompare(String(b.move_type)))
      .map((r) =>
        row({
          type: String(r.move_type),
          movements: n(r, 'movements'),
          units_in: n(r, 'qty_in'),
          units_out: n(r, 'qty_out'),
          net_change: n(r, 'qty_in') - n(r, 'qty_out'),
        }),
      );
    const perDay = dailyPoints(scope, daily, (r) => n(r, 'qty_in') - n(r, 'qty_out'));
    return {
      summary,
      rows,
      charts: [
        chart('bar', 'Units moved by type (in - out)', [{ name: 'units', currency: null, data: rows.map((r) => ({ x: String(r.type), y: r.net_change })) }]),
        chart('line', 'Net change in units per day', [{ name: 'units', currency: null, data: perDay }]),
      ],
    };
  },
});
