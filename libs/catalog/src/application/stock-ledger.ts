import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock, ValidationFailedError } from '@pos/kernel';
import { Principal } from '@pos/identity';
import { ChangeLog, DomainEvents } from '@pos/platform';
import { adjustmentDelta, AdjustmentType, levelCrossing } from '../domain/stock-status';
import { StockErrors } from '../domain/stock.errors';
import { ItemRecord, StockLevelRecord, StockMovementRecord } from './catalog.records';
import { InventoryLowStock, InventoryOutOfStock, StockMovedFacts } from './catalog.events';
import { ItemRepository, NewMovement, StockRepository } from './catalog.ports';
import { StoreContext } from './store-context';
import { WarehouseRecord } from './store.ports';

/** One line of a stock change, in base units. */
export interface StockLine {
  /** Where the line's problems are reported (e.g. `items.2`): `${field}.serial_number`. */
  field: string;
  itemId: number;
  warehouseId: number;
  /** Base units, > 0. */
  quantity: number;
  serialNumber?: string | null;
  /** Cost of one base unit (minor units), recorded on the movement. */
  unitCost?: number | null;
  notes?: string | null;
}

/** What caused a change: every movement row points back at it. */
export interface StockReference {
  type: string;
  id: string;
  userId: number | null;
  /** Store the change happened in (events carry it); defaults to the warehouse's store. */
  storeId?: number | null;
  notes?: string | null;
}

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

export interface AdjustmentResult {
  adjustmentId: string;
  from: WarehouseRecord;
  to: WarehouseRecord | null;
  movements: StockMovementRecord[];
}

/**
 * Published by the catalog: the only way stock changes. Every change is a movement row (type,
 * signed quantity, balance after, reference, user, time) written with the level in the caller's
 * transaction; a level never goes below zero unless the caller allows it (a store allowing
 * negative stock, an offline sale whose goods already left); serial numbers follow their units;
 * a decrease that crosses the reorder level (or reaches zero) emits inventory.low_stock /
 * inventory.out_of_stock. Rows are locked in one fixed order (item, warehouse: the order of the
 * levels' unique index, in which a sale's one locking read takes them), so two
 * concurrent changes never wait on each other crosswise (no deadlock).
 */
@Injectable()
export class StockLedger {
  constructor(
    private readonly items: ItemRepository,
    private readonly stock: StockRepository,
    private readonly stores: StoreContext,
    private readonly changes: ChangeLog,
    private readonly clock: Clock,
    private readonly domainEvents: DomainEvents,
  ) {}

  /** Levels of items in warehouses (read only). */
  levels(itemIds: number[], warehouseIds: number[]): Promise<StockLevelRecord[]> {
    return this.stock.levels(itemIds, warehouseIds);
  }

  /**
   * Checks a sale without writing: serial numbers in stock in their warehouse (422 on the
   * line's serial_number) and, with `checkStock`, enough on hand (409). (When selling, the
   * ledger's conditional UPDATE is the real guard; this pre-check serves "validate" requests.)
   */
  async checkSale(lines: StockLine[], options: { checkStock: boolean; items?: ReadonlyMap<number, ItemRecord> }): Promise<void> {
    const items = await this.itemMap(lines, options.items);
    const errors: Record<string, string[]> = {};
    const seen = new Set<string>();
    for (const line of lines) {
      const item = items.get(line.itemId)!;
      if (!item.isSerialTracked || !line.serialNumber) continue;
      // One unit, one line: the same serial twice would sell one unit twice (the second line failed later, as a 422).
      const key = `${line.itemId}:${line.serialNumber}`;
      if (seen.has(key)) errors[`${line.field}.serial_number`] = ['The serial number is on another line of this sale.'];
      else if (!(await this.serialInStock(line.itemId, line.warehouseId, line.serialNumber)))
        errors[`${line.field}.serial_number`] = ['The serial number is not in stock in this warehouse.'];
      seen.add(key);
    }
    if (Object.keys(errors).length) throw new ValidationFailedError(errors);
    if (!options.checkStock) return;
    const need = new Map<string, { itemId: number; warehouseId: number; quantity: number }>();
    for (const l of lines) {
      const key = `${l.itemId}:${l.warehouseId}`;
      const row = need.get(key) ?? { itemId: l.itemId, warehouseId: l.warehouseId, quantity: 0 };
      row.quantity += l.quantity;
      need.set(key, row);
    }
    for (const n of need.values()) {
      const onHand = (await this.stock.levels([n.itemId], [n.warehouseId]))[0]?.quantity ?? 0;
      if (onHand < n.quantity) throw StockErrors.insufficient(`${items.get(n.itemId)!.sku}: ${onHand} on hand, ${n.quantity} needed`);
    }
  }

  /** Goods leave with a sale: 409 when a warehouse has too few (unless allowed), serials become sold. */
  async sell(ref: StockReference, lines: StockLine[], options: { allowNegative: boolean; items?: ReadonlyMap<number, ItemRecord> }): Promise<void> {
    const items = await this.itemMap(lines, options.items);
    const now = this.clock.now();
    const ordered = lockOrder(lines);
    const movements = ordered.map((line) => this.newMovement(ref, line, 'sale', -line.quantity));
    const result = await this.stock.moveMany(movements, options.allowNegative ? null : 0, now);
    if ('refused' in result) {
      const line = ordered[result.refused];
      const item = items.get(line.itemId)!;
      throw StockErrors.insufficient(`${item.sku} (${item.name}) for ${line.field}`);
    }
    const moves: StockMovementRecord[] = [];
    for (const [i, line] of ordered.entries()) {
      const item = items.get(line.itemId)!;
      const moved = result.moved[i];
      moves.push({ ...movements[i], id: moved.movementId, quantity: movements[i].delta, balanceAfter: moved.after, createdAt: now });
      if (item.isSerialTracked && line.serialNumber) {
        const [row] = await this.stock.serials(item.id, { warehouseId: line.warehouseId, status: 'in_stock', serials: [line.serialNumber] });
        if (!row) throw StockErrors.serialNotInStock(line.field);
        await this.stock.updateSerials([row.id], { status: 'sold', saleId: Number(ref.id) || null }, now);
      }
      await this.emitCrossing(ref, item, line.warehouseId, moved);
    }
    await this.published(moves);
  }

  /** Goods come back into sellable stock (a void, a return): serial numbers are in stock again there. */
  async restock(ref: StockReference, lines: StockLine[], type: 'void' | 'return'): Promise<void> {
    const now = this.clock.now();
    const moves: StockMovementRecord[] = [];
    for (const line of lockOrder(lines)) {
      await this.serialsBack(line, 'in_stock', now); // first: a serial not out with a sale stops the line before it moves
      moves.push((await this.move(ref, line, type, line.quantity, null, now))!.record);
    }
    await this.published(moves);
  }

  /**
   * Goods come back but cannot be sold (a damaged return): a `return` movement in and a
   * `damage` / `spoilage` movement out, so the ledger shows both and the level is unchanged.
   */
  async writeOffReturned(ref: StockReference, lines: StockLine[], type: 'damage' | 'spoilage'): Promise<void> {
    const now = this.clock.now();
    const moves: StockMovementRecord[] = [];
    for (const line of lockOrder(lines)) {
      await this.serialsBack(line, type === 'damage' ? 'damaged' : 'spoiled', now);
      moves.push((await this.move(ref, line, 'return', line.quantity, null, now))!.record);
      moves.push((await this.move(ref, line, type, -line.quantity, null, now))!.record);
    }
    await this.published(moves);
  }

  /** Back-office adjustments: count, receive, damage, spoilage, transfer (one reference for the lot). */
  async adjust(principal: Principal, input: AdjustmentInput): Promise<AdjustmentResult> {
    const from = await this.stores.requireWarehouse(principal, input.warehouseId, 'forbidden');
    let to: WarehouseRecord | null = null;
    if (input.type === 'transfer') {
      if (input.toWarehouseId === undefined) throw ValidationFailedError.field('to_warehouse_id', 'The to_warehouse_id field is required for a transfer.');
      if (input.toWarehouseId === input.warehouseId) throw ValidationFailedError.field('to_warehouse_id', 'A transfer needs two different warehouses.');
      to = await this.stores.requireWarehouse(principal, input.toWarehouseId, 'forbidden', 'to_warehouse_id');
    }
    const items = new Map((await this.items.findByIds([...new Set(input.items.map((l) => l.itemId))])).map((i) => [i.id, i]));
    validateAdjustment(input, items);

    const adjustmentId = randomUUID();
    const now = this.clock.now();
    const allowNegative = from.storeId !== null && ((await this.stores.store(from.storeId))?.allowNegativeStock ?? false);
    const ref: StockReference = { type: 'adjustment', id: adjustmentId, userId: principal.userId, storeId: from.storeId };
    const movements: StockMovementRecord[] = [];
    for (const [index, line] of input.items.entries()) {
      const item = items.get(line.itemId)!;
      const onHand = (await this.stock.levels([item.id], [from.id]))[0]?.quantity ?? 0;
      const delta = adjustmentDelta(input.type, line.quantity, onHand);
      const stockLine: StockLine = {
        field: `items.${index}`,
        itemId: item.id,
        warehouseId: from.id,
        quantity: line.quantity,
        unitCost: line.unitCost ?? null,
        notes: line.notes ?? input.notes ?? null,
      };
      if (delta !== 0 || input.type === 'count') {
        const type = input.type === 'transfer' ? 'transfer_out' : input.type;
        const moved = await this.move(ref, stockLine, type, delta, allowNegative || delta >= 0 ? null : 0, now);
        if (!moved) throw StockErrors.insufficient(`${item.sku} in ${from.name} (items.${index}.quantity: ${line.quantity}, on hand ${onHand})`);
        movements.push(moved.record);
        await this.emitCrossing(ref, item, from.id, moved);
      }
      if (to) movements.push((await this.move(ref, { ...stockLine, warehouseId: to.id }, 'transfer_in', line.quantity, null, now))!.record);
      await this.adjustSerials(input, index, item, from.id, to?.id, now);
    }
    await this.published(movements);
    return { adjustmentId, from, to, movements };
  }

  /** One StockMovedFacts per ledger operation, after every row it locks (subscribers then lock theirs in one order). */
  private async published(movements: StockMovementRecord[]): Promise<void> {
    if (movements.length) await this.domainEvents.publish(StockMovedFacts, { movements });
  }

  private newMovement(ref: StockReference, line: StockLine, type: string, delta: number): NewMovement {
    return {
      itemId: line.itemId,
      warehouseId: line.warehouseId,
      type,
      delta,
      unitCost: line.unitCost ?? null,
      referenceType: ref.type,
      referenceId: ref.id,
      userId: ref.userId,
      notes: line.notes ?? ref.notes ?? null,
    };
  }

  private async move(ref: StockReference, line: StockLine, type: string, delta: number, floor: number | null, now: Date) {
    const movement = this.newMovement(ref, line, type, delta);
    const moved = await this.stock.move(movement, floor, now);
    if (!moved) return null;
    const record: StockMovementRecord = { ...movement, id: moved.movementId, quantity: delta, balanceAfter: moved.after, createdAt: now };
    return { ...moved, record };
  }

  private async emitCrossing(
    ref: StockReference,
    item: ItemRecord,
    warehouseId: number,
    moved: { before: number; after: number; reorderLevel: number | null },
  ) {
    const level = moved.reorderLevel ?? item.reorderLevel;
    const crossing = levelCrossing(moved.before, moved.after, level);
    if (!crossing) return;
    const storeId = ref.storeId ?? (await this.stores.warehouse(warehouseId))?.storeId ?? null;
    const payload = { item_id: item.id, sku: item.sku, name: item.name, warehouse_id: warehouseId, quantity: moved.after, reorder_level: level };
    await this.changes.event(crossing === 'out_of_stock' ? InventoryOutOfStock : InventoryLowStock, payload, storeId);
  }

  private async serialInStock(itemId: number, warehouseId: number, serial: string): Promise<boolean> {
    return (await this.stock.serials(itemId, { warehouseId, status: 'in_stock', serials: [serial] })).length > 0;
  }

  private async serialsBack(line: StockLine, status: 'in_stock' | 'damaged' | 'spoiled', now: Date): Promise<void> {
    if (!line.serialNumber) return;
    const [serial] = await this.stock.serials(line.itemId, { serials: [line.serialNumber] });
    if (serial && serial.status !== 'sold') throw StockErrors.serialNotSold(serial.serial, serial.status);
    if (serial) await this.stock.updateSerials([serial.id], { status, saleId: null, warehouseId: line.warehouseId }, now);
  }

  /** The lines' items: the records the caller already holds (a checkout priced them), else read once. */
  private async itemMap(lines: StockLine[], known?: ReadonlyMap<number, ItemRecord>): Promise<ReadonlyMap<number, ItemRecord>> {
    const ids = [...new Set(lines.map((l) => l.itemId))];
    if (known && ids.every((id) => known.has(id))) return known;
    const items = await this.items.findByIds(ids, true);
    return new Map(items.map((i) => [i.id, i]));
  }

  private async adjustSerials(input: AdjustmentInput, index: number, item: ItemRecord, fromId: number, toId: number | undefined, now: Date): Promise<void> {
    const line = input.items[index];
    if (!item.isSerialTracked || !line.serialNumbers?.length) return;
    const existing = await this.stock.serials(item.id, { serials: line.serialNumbers });
    if (input.type === 'receive') {
      const clash = existing.filter((s) => s.status === 'in_stock');
      if (clash.length) throw ValidationFailedError.field(`items.${index}.serial_numbers`, `Already in stock: ${clash.map((s) => s.serial).join(', ')}.`);
      // A sold unit is the customer's: it comes back through a return (or void) of its sale, never a receive.
      const sold = existing.filter((s) => s.status === 'sold');
      if (sold.length)
        throw ValidationFailedError.field(
          `items.${index}.serial_numbers`,
          `Sold: ${sold.map((s) => s.serial).join(', ')}. A sold unit comes back through a return of its sale.`,
        );
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
}

/** Lines in lock order: by warehouse, then item (then their own order). */
function lockOrder(lines: StockLine[]): StockLine[] {
  return lines
    .map((line, i) => ({ line, i }))
    .sort((a, b) => a.line.itemId - b.line.itemId || a.line.warehouseId - b.line.warehouseId || a.i - b.i)
    .map((x) => x.line);
}

function validateAdjustment(input: AdjustmentInput, items: Map<number, ItemRecord>): void {
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
