import { InventoryKit } from '../../application/inventory-kit';
import { chart, n } from '../../application/report-kit';
import { figure, row } from '../../domain/report-figures';
import { daysOfInventory, inventoryTurns } from '../../domain/report-math';
import { defineReport } from '../definition';

// A compute report: COGS from the sale-line rollups over stock now walked back through the stock rollups.
export default defineReport({
  route: 'inventory/turns',
  operation: 'getInventoryTurnsReport',
  title: 'Inventory: turns',
  description:
    'Turns = COGS of the period / average inventory value ((opening + closing) / 2 at current cost), per item; days of inventory = days x average value / COGS. A return reverses its cost in the warehouse its line was sold from.',
  permission: 'inventory.reports',
  summary: ['cogs', 'average_inventory_value', 'turns', 'days_of_inventory'],
  columns: ['item_id', 'sku', 'name', 'currency', 'cogs', 'opening_units', 'closing_units', 'average_inventory_value', 'turns', 'days_of_inventory'],
  build: async (ctx) => {
    const { scope } = ctx;
    const inv = ctx.use(InventoryKit);
    const [{ money, base, levels }, cogsRows, during, after] = await Promise.all([
      inv.levels(scope),
      inv.lines(scope, ['item_id'], ['cost', 'refund_cost']),
      inv.itemStock(scope, scope.period.from, scope.period.to, ['net_qty']),
      inv.itemStock(scope, scope.period.to + 1, Math.max(scope.today, scope.period.to), ['net_qty']),
    ]);
    const onHand = new Map<number, number>();
    const cost = new Map<number, number>();
    for (const l of levels) {
      onHand.set(l.itemId, (onHand.get(l.itemId) ?? 0) + l.quantity);
      cost.set(l.itemId, l.cost);
    }
    const info = await ctx.kit.itemInfo([...new Set([...cogsRows.map((r) => n(r, 'item_id')), ...onHand.keys()])]);
    const change = (rows: readonly { item_id: number; net_qty: number }[]) => new Map(rows.map((r) => [n(r, 'item_id'), n(r, 'net_qty')]));
    const inPeriod = change(during);
    const afterPeriod = change(after);
    const cogsOf = new Map(cogsRows.map((r) => [n(r, 'item_id'), n(r, 'cost') - n(r, 'refund_cost')]));
    const ids = [...new Set([...cogsOf.keys(), ...onHand.keys()])];
    let cogsTotal = 0;
    let avgTotal = 0;
    const rows = ids
      .map((id) => {
        const unitCost = cost.get(id) ?? info.get(id)?.cost ?? 0;
        const closing = (onHand.get(id) ?? 0) - (afterPeriod.get(id) ?? 0);
        const opening = closing - (inPeriod.get(id) ?? 0);
        // kept unrounded (it may end in half a minor unit): turns and days are divided by it
        const avgValue = ((Math.max(opening, 0) + Math.max(closing, 0)) * unitCost) / 2;
        const cogs = cogsOf.get(id) ?? 0;
        cogsTotal += cogs;
        avgTotal += avgValue;
        return row({
          item_id: id,
          sku: info.get(id)?.sku ?? null,
          name: info.get(id)?.name ?? null,
          currency: base,
          cogs: money.v(cogs, base),
          opening_units: opening,
          closing_units: closing,
          average_inventory_value: money.v(Math.round(avgValue), base),
          turns: inventoryTurns(cogs, avgValue),
          days_of_inventory: daysOfInventory(scope.period.days, cogs, avgValue),
        });
      })
      .filter((r) => r.cogs !== 0 || r.opening_units !== 0 || r.closing_units !== 0)
      .sort((a, b) => (b.turns ?? -1) - (a.turns ?? -1) || a.item_id - b.item_id);
    const summary = [
      figure('cogs', money.v(cogsTotal, base), base),
      figure('average_inventory_value', money.v(Math.round(avgTotal), base), base),
      figure('turns', inventoryTurns(cogsTotal, avgTotal)),
      figure('days_of_inventory', daysOfInventory(scope.period.days, cogsTotal, avgTotal)),
    ];
    const fastest = rows.slice(0, 10).map((r) => ({ x: String(r.sku ?? r.item_id), y: r.turns }));
    return { summary, rows, charts: [chart('bar', 'Fastest turning items (top 10)', [{ name: 'turns', currency: null, data: fastest }])] };
  },
});
