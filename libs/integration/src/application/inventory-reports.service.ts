import { Injectable } from '@nestjs/common';
import { StockReadModel, StockSnapshotRow, stockStatus } from '@pos/catalog';
import { Principal } from '@pos/identity';
import { formatDay } from '../domain/calendar';
import { DEAD_STOCK_DAYS, inventoryTurns, isDeadStock, percent, ratio, reorderSuggestion } from '../domain/report-math';
import { Chart, ReportResult, ReportRow, SummaryFigure } from '../domain/report-payload';
import { ITEM_STOCK, ITEMS, ITEMS_ALL, STOCK_MOVES, WRITE_OFFS } from '../domain/rollup-tables';
import { chart, dailyPoints, figure, groupRows, Money, n, ReportKit, Row, total } from './report-kit';
import { ReportFilters, reportMeta, ReportScope, ReportScopeResolver } from './report-scope';

const STOCK_NOW = 'Stock as of generated_at (current levels); date filters do not apply to it.';

/**
 * Inventory reports. Current stock comes from the catalog's published StockReadModel (levels
 * with the item's cost, category and reorder settings); movement history from the rollups kept
 * from the catalog's StockMovedFacts; COGS from the sales rollups (unit cost snapshotted on each
 * line). Stock is valued at the item's current cost, in the base currency. The scope is the
 * warehouses of the stores in scope (their own and the standalone ones serving them) or the one
 * warehouse asked for.
 */
@Injectable()
export class InventoryReportsService {
  constructor(
    private readonly scopes: ReportScopeResolver,
    private readonly kit: ReportKit,
    private readonly stock: StockReadModel,
  ) {}

  private async open(p: Principal, f: ReportFilters): Promise<{ scope: ReportScope; money: Money; base: string; levels: StockSnapshotRow[] }> {
    const scope = await this.scopes.resolve(p, f);
    const base = await this.kit.baseCurrencyCode();
    const [money, levels] = await Promise.all([this.kit.money([base]), this.stock.snapshot(scope.warehouseIds)]);
    return { scope, money, base, levels };
  }

  private moves(scope: ReportScope, groupBy: string[], daily = false) {
    return this.kit.rollups.sum({
      table: STOCK_MOVES,
      from: scope.period.from,
      to: scope.period.to,
      daily,
      where: { warehouse_id: scope.warehouseIds },
      groupBy,
      measures: ['movements', 'qty_in', 'qty_out'],
    });
  }

  private itemStock(scope: ReportScope, from: number, to: number, measures: string[]) {
    if (from > to) return Promise.resolve([] as Row[]);
    return this.kit.rollups.sum({ table: ITEM_STOCK, from, to, where: { warehouse_id: scope.warehouseIds }, groupBy: ['item_id'], measures });
  }

  private value(l: StockSnapshotRow): number {
    return Math.max(l.quantity, 0) * l.cost;
  }

  async overview(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money, base, levels } = await this.open(p, f);
    const [moves, last] = await Promise.all([this.moves(scope, ['move_type']), this.kit.rollups.lastSales(scope.warehouseIds)]);
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
      figure('skus_in_stock', 'Items with stock on hand (item x warehouse)', levels.filter((l) => l.quantity > 0).length, 'count'),
      figure(
        'units_on_hand',
        'Units on hand',
        levels.reduce((a, l) => a + Math.max(l.quantity, 0), 0),
        'quantity',
      ),
      figure(
        'stock_value',
        'Stock value at current cost',
        money.v(
          levels.reduce((a, l) => a + this.value(l), 0),
          base,
        ),
        'money',
        base,
      ),
      figure('out_of_stock', 'Active items out of stock (item x warehouse)', active.filter((l) => status(l) === 'out').length, 'count'),
      figure('low_stock', 'Active items at or below the reorder level', active.filter((l) => status(l) === 'low').length, 'count'),
      figure('dead_stock', `Items on hand with no sale in ${DEAD_STOCK_DAYS} days`, dead.length, 'count'),
      figure('units_sold', 'Units sold in the period', moved('sale', 'qty_out'), 'quantity'),
      figure('units_received', 'Units received in the period', moved('receive', 'qty_in') + moved('transfer_in', 'qty_in'), 'quantity'),
      figure('units_written_off', 'Units damaged or spoiled in the period', moved('damage', 'qty_out') + moved('spoilage', 'qty_out'), 'quantity'),
    ];
    const rows = scope.warehouseIds.map((w) => {
      const mine = levels.filter((l) => l.warehouseId === w);
      return {
        warehouse_id: w,
        warehouse_name: scope.warehouseNames.get(w) ?? null,
        items_in_stock: mine.filter((l) => l.quantity > 0).length,
        units_on_hand: mine.reduce((a, l) => a + Math.max(l.quantity, 0), 0),
        stock_value: money.v(
          mine.reduce((a, l) => a + this.value(l), 0),
          base,
        ),
        currency: base,
        out_of_stock: mine.filter((l) => l.isActive && status(l) === 'out').length,
        low_stock: mine.filter((l) => l.isActive && status(l) === 'low').length,
      };
    });
    return this.result(
      scope,
      summary,
      rows,
      [
        chart('bar', 'Stock value by warehouse', [{ name: base, currency: base, data: rows.map((r) => ({ x: String(r.warehouse_name), y: r.stock_value })) }]),
        chart('pie', 'Stock value by category', [
          { name: base, currency: base, data: this.byCategory(levels, (l) => this.value(l)).map(([x, v]) => ({ x, y: money.v(v, base) })) },
        ]),
      ],
      STOCK_NOW,
    );
  }

  async stockLevels(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money, base, levels } = await this.open(p, f);
    const rows = levels.map((l) => ({
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
      value: money.v(this.value(l), base),
    }));
    const count = (s: string) => rows.filter((r) => r.stock_status === s).length;
    const summary = [
      figure('levels', 'Item x warehouse levels', rows.length, 'count'),
      figure('in_stock', 'In stock (above the reorder level)', count('in_stock'), 'count'),
      figure('low', 'Low (at or below the reorder level)', count('low'), 'count'),
      figure('out', 'Out of stock (0 or less)', count('out'), 'count'),
      figure(
        'units_on_hand',
        'Units on hand',
        levels.reduce((a, l) => a + Math.max(l.quantity, 0), 0),
        'quantity',
      ),
      figure(
        'stock_value',
        'Stock value at current cost',
        money.v(
          levels.reduce((a, l) => a + this.value(l), 0),
          base,
        ),
        'money',
        base,
      ),
    ];
    return this.result(
      scope,
      summary,
      rows,
      [chart('pie', 'Levels by stock status', [{ name: 'levels', currency: null, data: ['in_stock', 'low', 'out'].map((s) => ({ x: s, y: count(s) })) }])],
      STOCK_NOW,
    );
  }

  async movement(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope } = await this.open(p, f);
    const [byType, daily] = await Promise.all([this.moves(scope, ['move_type']), this.moves(scope, ['day'], true)]);
    const t = total(byType, ['movements', 'qty_in', 'qty_out']);
    const summary = [
      figure('movements', 'Stock movements', n(t, 'movements'), 'count'),
      figure('units_in', 'Units in', n(t, 'qty_in'), 'quantity'),
      figure('units_out', 'Units out', n(t, 'qty_out'), 'quantity'),
      figure('net_change', 'Net change in units', n(t, 'qty_in') - n(t, 'qty_out'), 'quantity'),
    ];
    const rows = byType
      .sort((a, b) => String(a.move_type).localeCompare(String(b.move_type)))
      .map((r) => ({
        type: r.move_type,
        movements: n(r, 'movements'),
        units_in: n(r, 'qty_in'),
        units_out: n(r, 'qty_out'),
        net_change: n(r, 'qty_in') - n(r, 'qty_out'),
      }));
    return this.result(scope, summary, rows, [
      chart('bar', 'Units moved by type (in - out)', [{ name: 'units', currency: null, data: rows.map((r) => ({ x: String(r.type), y: r.net_change })) }]),
      chart('line', 'Net change in units per day', [
        { name: 'units', currency: null, data: dailyPoints(scope, daily, (r) => n(r, 'qty_in') - n(r, 'qty_out')) },
      ]),
    ]);
  }

  async valuation(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money, base, levels } = await this.open(p, f);
    const perItem = new Map<number, { l: StockSnapshotRow; units: number; value: number }>();
    for (const l of levels) {
      const e = perItem.get(l.itemId) ?? { l, units: 0, value: 0 };
      e.units += Math.max(l.quantity, 0);
      e.value += this.value(l);
      perItem.set(l.itemId, e);
    }
    const all = [...perItem.values()].reduce((a, e) => a + e.value, 0);
    const rows = [...perItem.values()]
      .filter((e) => e.units > 0)
      .sort((a, b) => b.value - a.value || a.l.itemId - b.l.itemId)
      .map((e) => ({
        item_id: e.l.itemId,
        sku: e.l.sku,
        name: e.l.name,
        category: e.l.categoryName,
        on_hand: e.units,
        currency: base,
        unit_cost: money.v(e.l.cost, base),
        value: money.v(e.value, base),
        share_percent: percent(e.value, all),
      }));
    const units = rows.reduce((a, r) => a + r.on_hand, 0);
    const summary = [
      figure('stock_value', 'Stock value at current cost', money.v(all, base), 'money', base),
      figure('units_on_hand', 'Units on hand', units, 'quantity'),
      figure('items_in_stock', 'Items in stock', rows.length, 'count'),
      figure('average_unit_cost', 'Average cost per unit on hand', units ? money.v(Math.round(all / units), base) : null, 'money', base),
    ];
    const byWarehouse = scope.warehouseIds.map((w) => ({
      x: scope.warehouseNames.get(w) ?? String(w),
      y: money.v(
        levels.filter((l) => l.warehouseId === w).reduce((a, l) => a + this.value(l), 0),
        base,
      ),
    }));
    return this.result(
      scope,
      summary,
      rows,
      [
        chart('pie', 'Stock value by category', [
          { name: base, currency: base, data: this.byCategory(levels, (l) => this.value(l)).map(([x, v]) => ({ x, y: money.v(v, base) })) },
        ]),
        chart('bar', 'Stock value by warehouse', [{ name: base, currency: base, data: byWarehouse }]),
      ],
      STOCK_NOW,
    );
  }

  async replenishment(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money, base, levels } = await this.open(p, f);
    const candidates = [
      ...new Set(levels.filter((l) => l.isActive && reorderSuggestion(l.quantity, l.reorderLevel, l.reorderQuantity) !== null).map((l) => l.itemId)),
    ];
    const sold = candidates.length
      ? await this.kit.rollups.sum({
          table: ITEM_STOCK,
          from: scope.period.from,
          to: scope.period.to,
          where: { warehouse_id: scope.warehouseIds, item_id: candidates },
          groupBy: ['warehouse_id', 'item_id'],
          measures: ['sold_qty'],
        })
      : [];
    const soldOf = new Map(sold.map((r) => [`${r.warehouse_id}:${r.item_id}`, n(r, 'sold_qty')]));
    const rows = levels
      .filter((l) => l.isActive)
      .map((l) => ({ l, suggested: reorderSuggestion(l.quantity, l.reorderLevel, l.reorderQuantity) }))
      .filter((x): x is { l: StockSnapshotRow; suggested: number } => x.suggested !== null)
      .sort((a, b) => a.l.quantity - a.l.reorderLevel - (b.l.quantity - b.l.reorderLevel) || a.l.itemId - b.l.itemId || a.l.warehouseId - b.l.warehouseId)
      .map(({ l, suggested }) => {
        const unitsSold = soldOf.get(`${l.warehouseId}:${l.itemId}`) ?? 0;
        const perDay = unitsSold / scope.period.days;
        return {
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
        };
      });
    const costOf = new Map(levels.map((l) => [`${l.warehouseId}:${l.itemId}`, l.cost]));
    const estimated = rows.reduce((a, r) => a + r.suggested_order * (costOf.get(`${r.warehouse_id}:${r.item_id}`) ?? 0), 0);
    const summary = [
      figure('items_to_reorder', 'Item x warehouse at or below the reorder level', rows.length, 'count'),
      figure(
        'units_suggested',
        'Units suggested',
        rows.reduce((a, r) => a + r.suggested_order, 0),
        'quantity',
      ),
      figure('estimated_cost', 'Estimated cost of the suggested orders (current cost)', money.v(estimated, base), 'money', base),
    ];
    return this.result(
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
    const { scope, money, base, levels } = await this.open(p, f);
    const [cogsRows, during, after] = await Promise.all([
      scope.unrestricted
        ? this.kit.rollups.sum({
            table: ITEMS_ALL,
            from: scope.period.from,
            to: scope.period.to,
            groupBy: ['item_id'],
            measures: ['cost', 'refund_cost', 'units'],
          })
        : this.kit.rollups.sum({
            table: ITEMS,
            from: scope.period.from,
            to: scope.period.to,
            where: { warehouse_id: scope.warehouseIds },
            groupBy: ['item_id'],
            measures: ['cost', 'refund_cost', 'units'],
          }),
      this.itemStock(scope, scope.period.from, scope.period.to, ['net_qty']),
      this.itemStock(scope, scope.period.to + 1, Math.max(scope.today, scope.period.to), ['net_qty']),
    ]);
    const onHand = new Map<number, number>();
    const cost = new Map<number, number>();
    for (const l of levels) {
      onHand.set(l.itemId, (onHand.get(l.itemId) ?? 0) + l.quantity);
      cost.set(l.itemId, l.cost);
    }
    const info = await this.kit.itemInfo([...new Set([...cogsRows.map((r) => n(r, 'item_id')), ...onHand.keys()])]);
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
        const avgValue = Math.round(((Math.max(opening, 0) + Math.max(closing, 0)) * unitCost) / 2);
        const cogs = cogsOf.get(id) ?? 0;
        cogsTotal += cogs;
        avgTotal += avgValue;
        const t = inventoryTurns(cogs, avgValue);
        return {
          item_id: id,
          sku: info.get(id)?.sku ?? null,
          name: info.get(id)?.name ?? null,
          currency: base,
          cogs: money.v(cogs, base),
          opening_units: opening,
          closing_units: closing,
          average_inventory_value: money.v(avgValue, base),
          turns: t,
          days_of_inventory: t ? Math.round((scope.period.days / t) * 10) / 10 : null,
        };
      })
      .filter((r) => r.cogs !== 0 || r.opening_units !== 0 || r.closing_units !== 0)
      .sort((a, b) => (b.turns ?? -1) - (a.turns ?? -1) || a.item_id - b.item_id);
    const turns = inventoryTurns(cogsTotal, avgTotal);
    const summary = [
      figure('cogs', 'COGS in the period (net of returns)', money.v(cogsTotal, base), 'money', base),
      figure('average_inventory_value', 'Average inventory value ((opening + closing) / 2 at current cost)', money.v(avgTotal, base), 'money', base),
      figure('turns', 'Inventory turns (COGS / average inventory value)', turns, 'ratio'),
      figure('days_of_inventory', 'Days of inventory (days / turns)', turns ? ratio(scope.period.days, turns) : null, 'days'),
    ];
    return this.result(scope, summary, rows, [
      chart('bar', 'Fastest turning items (top 10)', [
        { name: 'turns', currency: null, data: rows.slice(0, 10).map((r) => ({ x: String(r.sku ?? r.item_id), y: r.turns })) },
      ]),
    ]);
  }

  async deadStock(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money, base, levels } = await this.open(p, f);
    const last = await this.kit.rollups.lastSales(scope.warehouseIds);
    const lastOf = new Map(last.map((l) => [`${l.warehouseId}:${l.itemId}`, l.day]));
    const rows = levels
      .map((l) => ({ l, last: lastOf.get(`${l.warehouseId}:${l.itemId}`) ?? null }))
      .filter((x) => isDeadStock(x.l.quantity, x.last, scope.today))
      .sort((a, b) => this.value(b.l) - this.value(a.l) || a.l.itemId - b.l.itemId)
      .map(({ l, last: day }) => ({
        item_id: l.itemId,
        sku: l.sku,
        name: l.name,
        category: l.categoryName,
        warehouse_id: l.warehouseId,
        warehouse_name: scope.warehouseNames.get(l.warehouseId) ?? null,
        on_hand: l.quantity,
        currency: base,
        value: money.v(this.value(l), base),
        last_sold: day === null ? null : formatDay(day),
        days_since_last_sale: day === null ? null : scope.today - day,
      }));
    const deadLevels = levels.filter((l) => isDeadStock(l.quantity, lastOf.get(`${l.warehouseId}:${l.itemId}`) ?? null, scope.today));
    const summary = [
      figure('dead_stock_items', `Item x warehouse on hand with no sale in ${DEAD_STOCK_DAYS} days`, rows.length, 'count'),
      figure(
        'dead_stock_units',
        'Units',
        rows.reduce((a, r) => a + r.on_hand, 0),
        'quantity',
      ),
      figure(
        'dead_stock_value',
        'Value at current cost',
        money.v(
          deadLevels.reduce((a, l) => a + this.value(l), 0),
          base,
        ),
        'money',
        base,
      ),
      figure(
        'share_of_stock_value',
        'Share of stock value',
        percent(
          deadLevels.reduce((a, l) => a + this.value(l), 0),
          levels.reduce((a, l) => a + this.value(l), 0),
        ),
        'percent',
      ),
    ];
    return this.result(
      scope,
      summary,
      rows,
      [
        chart('pie', 'Dead stock value by category', [
          { name: base, currency: base, data: this.byCategory(deadLevels, (l) => this.value(l)).map(([x, v]) => ({ x, y: money.v(v, base) })) },
        ]),
      ],
      `Stock as of generated_at; no sale in the ${DEAD_STOCK_DAYS} days up to today (${formatDay(scope.today)}).`,
    );
  }

  async damageSpoilage(p: Principal, f: ReportFilters): Promise<ReportResult> {
    const { scope, money, base, levels } = await this.open(p, f);
    const [perItem, daily, received] = await Promise.all([
      this.kit.rollups.sum({
        table: WRITE_OFFS,
        from: scope.period.from,
        to: scope.period.to,
        where: { warehouse_id: scope.warehouseIds },
        groupBy: ['item_id'],
        measures: ['damaged_qty', 'spoiled_qty'],
      }),
      this.kit.rollups.sum({
        table: STOCK_MOVES,
        from: scope.period.from,
        to: scope.period.to,
        daily: true,
        where: { warehouse_id: scope.warehouseIds, move_type: ['damage', 'spoilage'] },
        groupBy: ['day', 'move_type'],
        measures: ['qty_out'],
      }),
      this.kit.rollups.sum({
        table: STOCK_MOVES,
        from: scope.period.from,
        to: scope.period.to,
        where: { warehouse_id: scope.warehouseIds, move_type: ['receive', 'transfer_in'] },
        groupBy: [],
        measures: ['qty_in'],
      }),
    ]);
    const hit = perItem.filter((r) => n(r, 'damaged_qty') !== 0 || n(r, 'spoiled_qty') !== 0);
    const info = await this.kit.itemInfo(hit.map((r) => n(r, 'item_id')));
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
      figure('damaged_units', 'Units damaged', damaged, 'quantity'),
      figure('spoiled_units', 'Units spoiled', spoiled, 'quantity'),
      figure(
        'damaged_value',
        'Damaged at current cost',
        money.v(
          rows.reduce((a, r) => a + r.damaged_units * unitCost(r.item_id), 0),
          base,
        ),
        'money',
        base,
      ),
      figure(
        'spoiled_value',
        'Spoiled at current cost',
        money.v(
          rows.reduce((a, r) => a + r.spoiled_units * unitCost(r.item_id), 0),
          base,
        ),
        'money',
        base,
      ),
      figure(
        'loss_value',
        'Total loss at current cost',
        money.v(
          rows.reduce((a, r) => a + r.lossMinor, 0),
          base,
        ),
        'money',
        base,
      ),
      figure('written_off_per_received', 'Units written off / units received', percent(damaged + spoiled, unitsReceived), 'percent'),
    ];
    const perType = (type: string) =>
      [
        ...groupRows(
          daily.filter((r) => r.move_type === type),
          'day',
        ),
      ].map(([day, list]) => ({ day: Number(day), qty_out: n(total(list, ['qty_out']), 'qty_out') }));
    return this.result(
      scope,
      summary,
      rows.map(({ lossMinor: _, ...r }) => r),
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

  private byCategory(levels: StockSnapshotRow[], value: (l: StockSnapshotRow) => number): [string, number][] {
    const out = new Map<string, number>();
    for (const l of levels) out.set(l.categoryName ?? 'Uncategorised', (out.get(l.categoryName ?? 'Uncategorised') ?? 0) + value(l));
    return [...out].filter(([, v]) => v !== 0).sort((a, b) => b[1] - a[1]);
  }

  private result(scope: ReportScope, summary: SummaryFigure[], rows: ReportRow[], charts: Chart[], note?: string): ReportResult {
    return { data: { summary, rows, charts }, meta: reportMeta(scope, note) };
  }
}
