import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Transactional } from '@nestjs-cls/transactional';
import { Clock, ConflictError, fromMinor, NotFoundError, Page, PageRequest, ValidationFailedError } from '@pos/kernel';
import { assertStoreAccess, canAccessStore, Principal } from '@pos/identity';
import { ChangeLog } from '@pos/platform';
import { adjustmentDelta, AdjustmentType, levelCrossing, stockStatus, StockStatus } from '../domain/stock-status';
import { ItemRecord, StockMovementRecord } from './catalog.records';
import { ItemRepository, StockRepository } from './catalog.ports';
import { StoreRepository, WarehouseRecord } from './store.ports';

export interface AdjustmentLineInput {
  itemId: number;
  quantity: number;
  unitCost?: number;
  serialNumbers?: string[];
  notes?: string;
}

export interface AdjustmentInput {
  type: AdjustmentType;
  warehouseId: number;
  toWarehouseId?: number;
  reference?: string;
  notes?: string;
  items: AdjustmentLineInput[];
}

export interface MovementView {
  id: number;
  item_id: number;
  warehouse_id: number;
  type: string;
  quantity: number;
  balance_after: number;
  unit_cost: number | null;
  reference_type: string | null;
  reference_id: string | null;
  user_id: number | null;
  notes: string | null;
  created_at: string;
}

export function movementView(m: StockMovementRecord): MovementView {
  return {
    id: m.id,
    item_id: m.itemId,
    warehouse_id: m.warehouseId,
    type: m.type,
    quantity: m.quantity,
    balance_after: m.balanceAfter,
    unit_cost: m.unitCost === null ? null : fromMinor(m.unitCost),
    reference_type: m.referenceType,
    reference_id: m.referenceId,
    user_id: m.userId,
    notes: m.notes,
    created_at: m.createdAt.toISOString(),
  };
}

/**
 * Stock per item and warehouse, changed only through the movement ledger: every change is a
 * row (type, signed quantity, balance after, reference, user, time) written in the same
 * transaction as the level. A level never goes below zero unless the warehouse's store allows
 * negative stock. Crossing the reorder level emits inventory.low_stock / inventory.out_of_stock.
 */
@Injectable()
export class InventoryService {
  constructor(
    private readonly items: ItemRepository,
    private readonly stock: StockRepository,
    private readonly stores: StoreRepository,
    private readonly changes: ChangeLog,
    private readonly clock: Clock,
  ) {}

  async list(principal: Principal, filter: { storeId?: number; warehouseId?: number; itemId?: number; status?: StockStatus }, page: PageRequest) {
    if (filter.storeId !== undefined) assertStoreAccess(principal, filter.storeId);
    if (filter.warehouseId !== undefined) await this.assertWarehouseAccess(principal, filter.warehouseId, 'forbidden');
    const result = await this.stock.inventory({ scope: principal.stores, ...filter }, page);
    return result.map((r) => ({
      item: { id: r.itemId, sku: r.sku, name: r.itemName },
      warehouse: { id: r.warehouseId, name: r.warehouseName, store_id: r.storeId },
      quantity: r.quantity,
      reorder_level: r.reorderLevel,
      stock_status: stockStatus(r.quantity, r.reorderLevel),
      updated_at: r.updatedAt.toISOString(),
    }));
  }

  async movements(
    principal: Principal,
    filter: { itemId?: number; warehouseId?: number; type?: string; from?: Date; to?: Date },
    page: PageRequest,
  ): Promise<Page<MovementView>> {
    if (filter.warehouseId !== undefined) await this.assertWarehouseAccess(principal, filter.warehouseId, 'forbidden');
    return (await this.stock.movements({ scope: principal.stores, ...filter }, page)).map(movementView);
  }

  async serials(principal: Principal, itemId: number, filter: { warehouseId?: number; status?: string }) {
    const item = await this.items.find(itemId, true);
    if (!item) throw new NotFoundError('Item');
    if (filter.warehouseId !== undefined) await this.assertWarehouseAccess(principal, filter.warehouseId, 'forbidden');
    const rows = await this.stock.serials(itemId, filter);
    const visible = await this.visibleWarehouses(principal, [...new Set(rows.map((r) => r.warehouseId).filter((w): w is number => w !== null))]);
    return rows
      .filter((s) => s.warehouseId === null || visible.has(s.warehouseId))
      .map((s) => ({ id: s.id, serial: s.serial, status: s.status, warehouse_id: s.warehouseId, sale_id: s.saleId }));
  }

  @Transactional()
  async adjust(principal: Principal, input: AdjustmentInput) {
    const from = await this.assertWarehouseAccess(principal, input.warehouseId, 'forbidden');
    let to: WarehouseRecord | undefined;
    if (input.type === 'transfer') {
      if (input.toWarehouseId === undefined) throw ValidationFailedError.field('to_warehouse_id', 'The to_warehouse_id field is required for a transfer.');
      if (input.toWarehouseId === input.warehouseId) throw ValidationFailedError.field('to_warehouse_id', 'A transfer needs two different warehouses.');
      to = await this.assertWarehouseAccess(principal, input.toWarehouseId, 'forbidden', 'to_warehouse_id');
    }
    const items = await this.items.findByIds([...new Set(input.items.map((l) => l.itemId))]);
    const byId = new Map(items.map((i) => [i.id, i]));
    this.validateLines(input, byId);

    const adjustmentId = randomUUID();
    const now = this.clock.now();
    const allowNegative = await this.allowsNegative(from);
    const movements: MovementView[] = [];
    for (const [index, line] of input.items.entries()) {
      const item = byId.get(line.itemId)!;
      const onHand = (await this.stock.levels([item.id], [from.id]))[0]?.quantity ?? 0;
      const delta = adjustmentDelta(input.type, line.quantity, onHand);
      const base = {
        itemId: item.id,
        unitCost: line.unitCost ?? null,
        referenceType: 'adjustment',
        referenceId: adjustmentId,
        userId: principal.userId,
        notes: line.notes ?? input.notes ?? null,
      };
      const type = input.type === 'transfer' ? 'transfer_out' : input.type;
      if (delta !== 0 || input.type === 'count') {
        const movement = { ...base, warehouseId: from.id, type, delta };
        const moved = await this.stock.move(movement, allowNegative || delta >= 0 ? null : 0, now);
        if (!moved)
          throw new ConflictError(
            'insufficient_stock',
            `Not enough stock of ${item.sku} in ${from.name} (items.${index}.quantity: ${line.quantity}, on hand ${onHand}).`,
          );
        movements.push(movementView({ ...movement, id: moved.movementId, quantity: delta, balanceAfter: moved.after, createdAt: now }));
        await this.emitLevelEvents(item, from, moved.before, moved.after);
      }
      if (to) {
        const movement = { ...base, warehouseId: to.id, type: 'transfer_in', delta: line.quantity };
        const moved = (await this.stock.move(movement, null, now))!;
        movements.push(movementView({ ...movement, id: moved.movementId, quantity: line.quantity, balanceAfter: moved.after, createdAt: now }));
      }
      await this.moveSerials(input, item, from.id, to?.id, line, now);
    }
    return {
      adjustment_id: adjustmentId,
      type: input.type,
      warehouse_id: from.id,
      to_warehouse_id: to?.id ?? null,
      reference: input.reference ?? null,
      movements,
    };
  }

  private validateLines(input: AdjustmentInput, items: Map<number, ItemRecord>): void {
    const errors: Record<string, string[]> = {};
    const add = (f: string, m: string) => (errors[f] ??= []).push(m);
    input.items.forEach((line, i) => {
      const item = items.get(line.itemId);
      if (!item) return add(`items.${i}.item_id`, 'The selected item does not exist.');
      if (input.type !== 'count' && line.quantity <= 0) add(`items.${i}.quantity`, 'The quantity must be at least 1.');
      if (item.isSerialTracked) {
        if (input.type === 'count') return add(`items.${i}.item_id`, 'Serial-tracked items are counted by receiving or writing off serial numbers.');
        const serials = line.serialNumbers ?? [];
        if (serials.length !== line.quantity)
          add(`items.${i}.serial_numbers`, `Exactly ${line.quantity} serial number(s) are required for a serial-tracked item.`);
        if (new Set(serials).size !== serials.length) add(`items.${i}.serial_numbers`, 'The serial numbers must be distinct.');
      } else if (line.serialNumbers?.length) {
        add(`items.${i}.serial_numbers`, 'The item is not serial-tracked.');
      }
    });
    const lineKeys = input.items.map((l) => l.itemId);
    lineKeys.forEach((id, i) => lineKeys.indexOf(id) !== i && add(`items.${i}.item_id`, 'The item is listed twice.'));
    if (Object.keys(errors).length) throw new ValidationFailedError(errors);
  }

  private async moveSerials(
    input: AdjustmentInput,
    item: ItemRecord,
    fromId: number,
    toId: number | undefined,
    line: AdjustmentLineInput,
    now: Date,
  ): Promise<void> {
    if (!item.isSerialTracked || !line.serialNumbers?.length) return;
    const index = input.items.indexOf(line);
    const existing = await this.stock.serials(item.id, { serials: line.serialNumbers });
    if (input.type === 'receive') {
      const clash = existing.filter((s) => s.status === 'in_stock');
      if (clash.length) throw ValidationFailedError.field(`items.${index}.serial_numbers`, `Already in stock: ${clash.map((s) => s.serial).join(', ')}.`);
      const returning = existing.filter((s) => s.status !== 'in_stock');
      if (returning.length)
        await this.stock.updateSerials(
          returning.map((s) => s.id),
          { warehouseId: fromId, status: 'in_stock', saleId: null },
          now,
        );
      await this.stock.addSerials(
        item.id,
        fromId,
        line.serialNumbers.filter((n) => !existing.some((s) => s.serial === n)),
        now,
      );
      return;
    }
    const here = existing.filter((s) => s.status === 'in_stock' && s.warehouseId === fromId);
    if (here.length !== line.serialNumbers.length) {
      const missing = line.serialNumbers.filter((n) => !here.some((s) => s.serial === n));
      throw ValidationFailedError.field(`items.${index}.serial_numbers`, `Not in stock in this warehouse: ${missing.join(', ')}.`);
    }
    const ids = here.map((s) => s.id);
    if (input.type === 'transfer') await this.stock.updateSerials(ids, { warehouseId: toId! }, now);
    else await this.stock.updateSerials(ids, { status: input.type === 'damage' ? 'damaged' : 'spoiled' }, now);
  }

  private async emitLevelEvents(item: ItemRecord, warehouse: WarehouseRecord, before: number, after: number): Promise<void> {
    if (after >= before) return;
    const level = (await this.stock.levels([item.id], [warehouse.id]))[0]?.reorderLevel ?? item.reorderLevel;
    const crossing = levelCrossing(before, after, level);
    if (crossing)
      await this.changes.event(
        `inventory.${crossing}`,
        { item_id: item.id, sku: item.sku, name: item.name, warehouse_id: warehouse.id, quantity: after, reorder_level: level },
        warehouse.storeId,
      );
  }

  private async allowsNegative(warehouse: WarehouseRecord): Promise<boolean> {
    if (warehouse.storeId === null) return false;
    return (await this.stores.findStore(warehouse.storeId))?.allowNegativeStock ?? false;
  }

  private async visibleWarehouses(principal: Principal, warehouseIds: number[]): Promise<Set<number>> {
    const out = new Set<number>();
    for (const id of warehouseIds) {
      if (principal.stores === 'all' || (await this.stores.storesOfWarehouse(id)).some((s) => canAccessStore(principal, s))) out.add(id);
    }
    return out;
  }

  /** A warehouse the caller may use: its store, or one of the stores it serves, is theirs. */
  async assertWarehouseAccess(principal: Principal, warehouseId: number, onOther: 'forbidden' | 'not_found', field = 'warehouse_id'): Promise<WarehouseRecord> {
    const w = await this.stores.findWarehouse(warehouseId);
    if (!w || !w.isActive) throw ValidationFailedError.field(field, 'The selected warehouse does not exist.');
    const stores = await this.stores.storesOfWarehouse(warehouseId);
    if (principal.stores !== 'all' && !stores.some((s) => canAccessStore(principal, s))) {
      if (onOther === 'not_found') throw new NotFoundError('Warehouse');
      assertStoreAccess(principal, stores[0] ?? -1);
    }
    return w;
  }
}
