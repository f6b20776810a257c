import { Injectable } from '@nestjs/common';
import { StockSnapshotRow } from '@pos/catalog';
import { Principal } from '@pos/identity';
import { figure, row } from '../domain/report-figures';
import { daysOfInventory, inventoryTurns, percent, reorderSuggestion } from '../domain/report-math';
import { ReportResult } from '../domain/report-payload';
import { STOCK_MOVES, WRITE_OFFS } from '../domain/rollup-tables';
import { chart, dailyPoints, groupRows, n, reportResult, Row, total } from './report-kit';
import { ReportFilters } from './report-scope';
import { InventoryKit, RECEIVED } from './inventory-kit';

/** Stock over the period (contract 4.10): inventory/movement, replenishment, turns, damage-spoilage. Figures: metrics.ts. */
@Injectable()
export class StockFlowReportsService {
  constructor(private readonly inv: InventoryKit) {}

  async movement(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope } = await this.inv.open(p, f);
    const [byType, daily] = await Promise.all([this.inv.moves(scope, ['move_type']), this.inv.moves(scope, ['day'], true)]);
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
    return reportResult(scope, summary, rows, [
      chart('bar', 'Units moved by type (in - out)', [{ name: 'units', currency: null, data: rows.map((r) => ({ x: String(r.type), y: r.net_change })) }]),
      chart('line', 'Net change in units per day', [
        { name: 'units', currency: null, data: dailyPoints(scope, daily, (r) => n(r, 'qty_in') - n(r, 'qty_out')) },
      ]),
    ]);
  }

  async replenishment(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money, base, levels } = await this.inv.open(p, f);
    const candidates = [
      ...new Set(levels.filter((l) => l.isActive && reorderSuggestion(l.quantity, l.reorderLevel, l.reorderQuantity) !== null).map((l) => l.itemId)),
    ];
    const sold = candidates.length ? await this.inv.lines(scope, ['warehouse_id', 'item_id'], ['units'], candidates) : [];
    const soldOf = new Map(sold.map((r) => [`${r.warehouse_id}:${r.item_id}`, n(r, 'units')]));
    const rows = levels
      .filter((l) => l.isActive)
      .map((l) => ({ l, suggested: reorderSuggestion(l.quantity, l.reorderLevel, l.reorderQuantity) }))
      .filter((x): x is { l: StockSnapshotRow; suggested: number } => x.suggested !== null)
      .sort((a, b) => a.l.quantity - a.l.reorderLevel - (b.l.quantity - b.l.reorderLevel) || a.l.itemId - b.l.itemId || a.l.warehouseId - b.l.warehouseId)
      .map(({ l, suggested }) => {
        const unitsSold = soldOf.get(`${l.warehouseId}:${l.itemId}`) ?? 0;
        const perDay = unitsSold / scope.period.days;
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
    const costOf = new Map(levels.map((l) => [`${l.warehouseId}:${l.itemId}`, l.cost]));
    const estimated = rows.reduce((a, r) => a + r.suggested_order * (costOf.get(`${r.warehouse_id}:${r.item_id}`) ?? 0), 0);
    const summary = [
      figure('items_to_reorder', rows.length),
      figure(
        'units_suggested',
        rows.reduce((a, r) => a + r.suggested_order, 0),
      ),
      figure('estimated_cost', money.v(estimated, base), base),
    ];
    return reportResult(
      scope,
      summary,
      rows,
      [
        chart('bar', 'Suggested order quantities (top 10)', [
          {
            name: 'units',
            currency: null,
            data: [...rows]
              .sort((a, b) => b.suggested_order - a.suggested_order)
              .slice(0, 10)
              .map((r) => ({ x: `${r.sku} @ ${r.warehouse_name ?? r.warehouse_id}`, y: r.suggested_order })),
          },
        ]),
      ],
      'Levels as of generated_at; units sold over the period.',
    );
  }

  async turns(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money, base, levels } = await this.inv.open(p, f);
    const [cogsRows, during, after] = await Promise.all([
      this.inv.lines(scope, ['item_id'], ['cost', 'refund_cost']),
      this.inv.itemStock(scope, scope.period.from, scope.period.to, ['net_qty']),
      this.inv.itemStock(scope, scope.period.to + 1, Math.max(scope.today, scope.period.to), ['net_qty']),
    ]);
    const onHand = new Map<number, number>();
    const cost = new Map<number, number>();
    for (const l of levels) {
      onHand.set(l.itemId, (onHand.get(l.itemId) ?? 0) + l.quantity);
      cost.set(l.itemId, l.cost);
    }
    const info = await this.inv.kit.itemInfo([...new Set([...cogsRows.map((r) => n(r, 'item_id')), ...onHand.keys()])]);
    const change = (rows: Row[]) => new Map(rows.map((r) => [n(r, 'item_id'), n(r, 'net_qty')]));
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
    return reportResult(scope, summary, rows, [
      chart('bar', 'Fastest turning items (top 10)', [
        { name: 'turns', currency: null, data: rows.slice(0, 10).map((r) => ({ x: String(r.sku ?? r.item_id), y: r.turns })) },
      ]),
    ]);
  }

  async damageSpoilage(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money, base, levels } = await this.inv.open(p, f);
    const [perItem, daily, received] = await Promise.all([
      this.inv.kit.rollups.sum({
        table: WRITE_OFFS,
        from: scope.period.from,
        to: scope.period.to,
        where: { warehouse_id: scope.warehouseIds },
        groupBy: ['item_id'],
        measures: ['damaged_qty', 'spoiled_qty'],
      }),
      this.inv.kit.rollups.sum({
        table: STOCK_MOVES,
        from: scope.period.from,
        to: scope.period.to,
        daily: true,
        where: { warehouse_id: scope.warehouseIds, move_type: ['damage', 'spoilage'] },
        groupBy: ['day', 'move_type'],
        measures: ['qty_out'],
      }),
      this.inv.kit.rollups.sum({
        table: STOCK_MOVES,
        from: scope.period.from,
        to: scope.period.to,
        where: { warehouse_id: scope.warehouseIds, move_type: RECEIVED },
        groupBy: [],
        measures: ['qty_in'],
      }),
    ]);
    const hit = perItem.filter((r) => n(r, 'damaged_qty') !== 0 || n(r, 'spoiled_qty') !== 0);
    const info = await this.inv.kit.itemInfo(hit.map((r) => n(r, 'item_id')));
    const costOf = new Map(levels.map((l) => [l.itemId, l.cost]));
    const unitCost = (id: number) => costOf.get(id) ?? info.get(id)?.cost ?? 0;
    const rows = hit
      .map((r) => {
        const id = n(r, 'item_id');
        const loss = (n(r, 'damaged_qty') + n(r, 'spoiled_qty')) * unitCost(id);
        return {
          item_id: id,
          sku: info.get(id)?.sku ?? null,
          name: info.get(id)?.name ?? null,
          category: info.get(id)?.categoryName ?? null,
          damaged_units: n(r, 'damaged_qty'),
          spoiled_units: n(r, 'spoiled_qty'),
          currency: base,
          damaged_value: money.v(n(r, 'damaged_qty') * unitCost(id), base),
          spoiled_value: money.v(n(r, 'spoiled_qty') * unitCost(id), base),
          loss_value: money.v(loss, base),
          lossMinor: loss,
        };
      })
      .sort((a, b) => b.lossMinor - a.lossMinor || a.item_id - b.item_id);
    const damaged = rows.reduce((a, r) => a + r.damaged_units, 0);
    const spoiled = rows.reduce((a, r) => a + r.spoiled_units, 0);
    const unitsReceived = n(received[0], 'qty_in');
    const summary = [
      figure('damaged_units', damaged),
      figure('spoiled_units', spoiled),
      figure(
        'damaged_value',
        money.v(
          rows.reduce((a, r) => a + r.damaged_units * unitCost(r.item_id), 0),
          base,
        ),
        base,
      ),
      figure(
        'spoiled_value',
        money.v(
          rows.reduce((a, r) => a + r.spoiled_units * unitCost(r.item_id), 0),
          base,
        ),
        base,
      ),
      figure(
        'loss_value',
        money.v(
          rows.reduce((a, r) => a + r.lossMinor, 0),
          base,
        ),
        base,
      ),
      figure('written_off_per_received', percent(damaged + spoiled, unitsReceived)),
    ];
    const perType = (type: string) =>
      [
        ...groupRows(
          daily.filter((r) => r.move_type === type),
          'day',
        ),
      ].map(([day, list]) => ({ day: Number(day), qty_out: n(total(list, ['qty_out']), 'qty_out') }));
    return reportResult(
      scope,
      summary,
      rows.map(({ lossMinor: _, ...r }) => row(r)),
      [
        chart('bar', 'Units written off by type', [
          {
            name: 'units',
            currency: null,
            data: [
              { x: 'damage', y: damaged },
              { x: 'spoilage', y: spoiled },
            ],
          },
        ]),
        chart(
          'line',
          'Units written off per day',
          ['damage', 'spoilage'].map((type) => ({ name: type, currency: null, data: dailyPoints(scope, perType(type), (r) => n(r, 'qty_out')) })),
        ),
      ],
    );
  }
}
