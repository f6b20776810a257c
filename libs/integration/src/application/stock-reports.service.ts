import { Injectable } from '@nestjs/common';
import { StockSnapshotRow, stockStatus } from '@pos/catalog';
import { Principal } from '@pos/identity';
import { formatDay } from '../domain/calendar';
import { figure, row } from '../domain/report-figures';
import { DEAD_STOCK_DAYS, isDeadStock, percent } from '../domain/report-math';
import { ReportResult } from '../domain/report-payload';
import { chart, n, reportResult } from './report-kit';
import { ReportFilters } from './report-scope';
import { byCategory, InventoryKit, RECEIVED, STOCK_NOW, stockValue } from './inventory-kit';

/** Stock now (contract 4.10): inventory/overview, stock, valuation, dead-stock. Figures: metrics.ts. */
@Injectable()
export class StockReportsService {
  constructor(private readonly inv: InventoryKit) {}

  async overview(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money, base, levels } = await this.inv.open(p, f);
    const [moves, last, sold] = await Promise.all([
      this.inv.moves(scope, ['move_type']),
      this.inv.kit.rollups.lastSales(scope.warehouseIds),
      this.inv.lines(scope, [], ['units']),
    ]);
    const lastOf = new Map(last.map((l) => [`${l.warehouseId}:${l.itemId}`, l.day]));
    const active = levels.filter((l) => l.isActive);
    const status = (l: StockSnapshotRow) => stockStatus(l.quantity, l.reorderLevel);
    const dead = levels.filter((l) => isDeadStock(l.quantity, lastOf.get(`${l.warehouseId}:${l.itemId}`) ?? null, scope.today));
    const moved = (type: string, m: 'qty_in' | 'qty_out') =>
      n(
        moves.find((r) => r.move_type === type),
        m,
      );
    const summary = [
      figure('skus_in_stock', levels.filter((l) => l.quantity > 0).length),
      figure(
        'units_on_hand',
        levels.reduce((a, l) => a + Math.max(l.quantity, 0), 0),
      ),
      figure(
        'stock_value',
        money.v(
          levels.reduce((a, l) => a + stockValue(l), 0),
          base,
        ),
        base,
      ),
      figure('out_of_stock', active.filter((l) => status(l) === 'out').length),
      figure('low_stock', active.filter((l) => status(l) === 'low').length),
      figure('dead_stock', dead.length),
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
        units_on_hand: mine.reduce((a, l) => a + Math.max(l.quantity, 0), 0),
        stock_value: money.v(
          mine.reduce((a, l) => a + stockValue(l), 0),
          base,
        ),
        currency: base,
        out_of_stock: mine.filter((l) => l.isActive && status(l) === 'out').length,
        low_stock: mine.filter((l) => l.isActive && status(l) === 'low').length,
      });
    });
    return reportResult(
      scope,
      summary,
      rows,
      [
        chart('bar', 'Stock value by warehouse', [{ name: base, currency: base, data: rows.map((r) => ({ x: String(r.warehouse_name), y: r.stock_value })) }]),
        chart('pie', 'Stock value by category', [
          { name: base, currency: base, data: byCategory(levels, (l) => stockValue(l)).map(([x, v]) => ({ x, y: money.v(v, base) })) },
        ]),
      ],
      STOCK_NOW,
    );
  }

  async stockLevels(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money, base, levels } = await this.inv.open(p, f);
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
      figure(
        'units_on_hand',
        levels.reduce((a, l) => a + Math.max(l.quantity, 0), 0),
      ),
      figure(
        'stock_value',
        money.v(
          levels.reduce((a, l) => a + stockValue(l), 0),
          base,
        ),
        base,
      ),
    ];
    return reportResult(
      scope,
      summary,
      rows,
      [chart('pie', 'Levels by stock status', [{ name: 'levels', currency: null, data: ['in_stock', 'low', 'out'].map((s) => ({ x: s, y: count(s) })) }])],
      STOCK_NOW,
    );
  }

  async valuation(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money, base, levels } = await this.inv.open(p, f);
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
      y: money.v(
        levels.filter((l) => l.warehouseId === w).reduce((a, l) => a + stockValue(l), 0),
        base,
      ),
    }));
    return reportResult(
      scope,
      summary,
      rows,
      [
        chart('pie', 'Stock value by category', [
          { name: base, currency: base, data: byCategory(levels, (l) => stockValue(l)).map(([x, v]) => ({ x, y: money.v(v, base) })) },
        ]),
        chart('bar', 'Stock value by warehouse', [{ name: base, currency: base, data: byWarehouse }]),
      ],
      STOCK_NOW,
    );
  }

  async deadStock(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money, base, levels } = await this.inv.open(p, f);
    const last = await this.inv.kit.rollups.lastSales(scope.warehouseIds);
    const lastOf = new Map(last.map((l) => [`${l.warehouseId}:${l.itemId}`, l.day]));
    const rows = levels
      .map((l) => ({ l, last: lastOf.get(`${l.warehouseId}:${l.itemId}`) ?? null }))
      .filter((x) => isDeadStock(x.l.quantity, x.last, scope.today))
      .sort((a, b) => stockValue(b.l) - stockValue(a.l) || a.l.itemId - b.l.itemId)
      .map(({ l, last: day }) =>
        row({
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
        }),
      );
    const deadLevels = levels.filter((l) => isDeadStock(l.quantity, lastOf.get(`${l.warehouseId}:${l.itemId}`) ?? null, scope.today));
    const summary = [
      figure('dead_stock_items', rows.length),
      figure(
        'dead_stock_units',
        rows.reduce((a, r) => a + r.on_hand, 0),
      ),
      figure(
        'dead_stock_value',
        money.v(
          deadLevels.reduce((a, l) => a + stockValue(l), 0),
          base,
        ),
        base,
      ),
      figure(
        'share_of_stock_value',
        percent(
          deadLevels.reduce((a, l) => a + stockValue(l), 0),
          levels.reduce((a, l) => a + stockValue(l), 0),
        ),
      ),
    ];
    return reportResult(
      scope,
      summary,
      rows,
      [
        chart('pie', 'Dead stock value by category', [
          { name: base, currency: base, data: byCategory(deadLevels, (l) => stockValue(l)).map(([x, v]) => ({ x, y: money.v(v, base) })) },
        ]),
      ],
      `Stock as of generated_at; no sale in the ${DEAD_STOCK_DAYS} days up to today (${formatDay(scope.today)}).`,
    );
  }
}
