import { Clock, ConflictError, ValidationFailedError } from '@pos/kernel';
import type { ChangeLog, DomainEvents, EventDefinition } from '@pos/platform';
import { ItemRecord, SerialNumberRecord, StockLevelRecord } from './catalog.records';
import { ItemRepository, NewMovement, StockRepository } from './catalog.ports';
import { StockLedger, StockLine } from './stock-ledger';
import { StoreContext } from './store-context';

/** In-memory fakes of the ledger's ports: levels, movements and serials in maps. */
class FakeStock {
  levels = new Map<string, { quantity: number; reorderLevel: number | null }>();
  movements: (NewMovement & { id: number })[] = [];
  serials: SerialNumberRecord[] = [];
  order: string[] = [];

  port(): StockRepository {
    const self = this as FakeStock; // the fake's methods share its maps
    return {
      async levels(itemIds: number[], warehouseIds: number[]): Promise<StockLevelRecord[]> {
        return [...self.levels.entries()]
          .map(([k, v]) => ({ itemId: Number(k.split(':')[0]), warehouseId: Number(k.split(':')[1]), ...v }))
          .filter((l) => itemIds.includes(l.itemId) && warehouseIds.includes(l.warehouseId))
          .map((l) => ({ id: 0, updatedAt: new Date(), ...l }));
      },
      async move(m: NewMovement, floor: number | null) {
        const key = `${m.itemId}:${m.warehouseId}`;
        self.order.push(key);
        const level = self.levels.get(key) ?? { quantity: 0, reorderLevel: null };
        if (floor !== null && level.quantity + m.delta < floor) return null;
        const before = level.quantity;
        level.quantity += m.delta;
        self.levels.set(key, level);
        self.movements.push({ ...m, id: self.movements.length + 1 });
        return { before, after: level.quantity, movementId: self.movements.length, reorderLevel: level.reorderLevel };
      },
      async moveMany(ms: NewMovement[], floor: number | null) {
        // the real batch is undone by the caller's transaction; the fake restores its maps
        const saved = new Map([...self.levels].map(([k, v]) => [k, { ...v }]));
        const movements = self.movements.length;
        const moved = [];
        for (const [i, m] of ms.entries()) {
          const r = await (this as StockRepository).move(m, floor, new Date());
          if (!r) {
            self.levels = saved;
            self.movements.length = movements;
            return { refused: i };
          }
          moved.push(r);
        }
        return { moved };
      },
      async serials(itemId: number, f: { warehouseId?: number; status?: string; serials?: string[] }) {
        return self.serials.filter(
          (s) =>
            s.itemId === itemId &&
            (f.warehouseId === undefined || s.warehouseId === f.warehouseId) &&
            (!f.status || s.status === f.status) &&
            (!f.serials || f.serials.includes(s.serial)),
        );
      },
      async updateSerials(ids: number[], changes: Partial<SerialNumberRecord>) {
        for (const s of self.serials) if (ids.includes(s.id)) Object.assign(s, changes);
      },
    } as unknown as StockRepository;
  }
}

const item = (id: number, extra: Partial<ItemRecord> = {}): ItemRecord =>
  ({ id, sku: `SKU-${id}`, name: `Item ${id}`, reorderLevel: 2, isSerialTracked: false, cost: 100, ...extra }) as ItemRecord;

describe('StockLedger (with fakes of its ports)', () => {
  let stock: FakeStock;
  let events: { type: string; payload: unknown }[];
  let ledger: StockLedger;
  const ref = { type: 'sale', id: '42', userId: 7, storeId: 1 };
  const line = (itemId: number, warehouseId: number, quantity: number, extra: Partial<StockLine> = {}): StockLine => ({
    field: `items.${itemId}`,
    itemId,
    warehouseId,
    quantity,
    ...extra,
  });

  beforeEach(() => {
    stock = new FakeStock();
    events = [];
    const items = new Map([1, 2, 3].map((id) => [id, item(id, id === 3 ? { isSerialTracked: true } : {})]));
    const itemRepo = { findByIds: async (ids: number[]) => ids.map((i) => items.get(i)!).filter(Boolean) } as unknown as ItemRepository;
    const changes = { event: async (def: EventDefinition<object>, payload: unknown) => void events.push({ type: def.type, payload }) } as unknown as ChangeLog;
    const stores = { warehouse: async () => ({ storeId: 1 }) } as unknown as StoreContext;
    ledger = new StockLedger(
      itemRepo,
      stock.port(),
      stores,
      changes,
      { now: () => new Date('2026-01-01T00:00:00Z') } as Clock,
      {
        publish: async () => undefined,
      } as unknown as DomainEvents,
    );
  });

  it('sells in lock order (item, warehouse: the levels index order), refusing to go below zero with insufficient_stock', async () => {
    stock.levels.set('2:1', { quantity: 5, reorderLevel: null });
    stock.levels.set('1:2', { quantity: 5, reorderLevel: null });
    stock.levels.set('1:1', { quantity: 1, reorderLevel: null });
    await ledger.sell(ref, [line(2, 1, 1), line(1, 2, 1), line(1, 1, 1)], { allowNegative: false });
    expect(stock.order).toEqual(['1:1', '1:2', '2:1']);
    const error = await ledger.sell(ref, [line(1, 1, 1)], { allowNegative: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).code).toBe('insufficient_stock');
    await ledger.sell(ref, [line(1, 1, 3)], { allowNegative: true });
    expect(stock.levels.get('1:1')!.quantity).toBe(-3);
  });

  it('emits out_of_stock when a decrease reaches zero and low_stock when it crosses the reorder level', async () => {
    stock.levels.set('1:1', { quantity: 4, reorderLevel: null });
    await ledger.sell(ref, [line(1, 1, 1)], { allowNegative: false });
    expect(events).toEqual([]);
    await ledger.sell(ref, [line(1, 1, 1)], { allowNegative: false });
    expect(events.map((e) => e.type)).toEqual(['inventory.low_stock']);
    await ledger.sell(ref, [line(1, 1, 2)], { allowNegative: false });
    expect(events.map((e) => e.type)).toEqual(['inventory.low_stock', 'inventory.out_of_stock']);
    expect(events[1].payload).toMatchObject({ item_id: 1, warehouse_id: 1, quantity: 0, reorder_level: 2 });
  });

  it('sells a serial only from stock in that warehouse, and a restock puts it back', async () => {
    stock.levels.set('3:1', { quantity: 1, reorderLevel: 0 });
    stock.serials.push({ id: 1, itemId: 3, warehouseId: 1, serial: 'SN-1', status: 'in_stock', saleId: null });
    const missing = await ledger.sell(ref, [line(3, 1, 1, { serialNumber: 'SN-2' })], { allowNegative: true }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ValidationFailedError);
    expect((missing as ValidationFailedError).fields).toHaveProperty(['items.3.serial_number']);
    stock.levels.set('3:1', { quantity: 1, reorderLevel: 0 });
    await ledger.sell(ref, [line(3, 1, 1, { serialNumber: 'SN-1' })], { allowNegative: false });
    expect(stock.serials[0]).toMatchObject({ status: 'sold', saleId: 42 });
    await ledger.restock({ ...ref, type: 'sale_void' }, [line(3, 1, 1, { serialNumber: 'SN-1' })], 'void');
    expect(stock.serials[0]).toMatchObject({ status: 'in_stock', saleId: null, warehouseId: 1 });
    expect(stock.levels.get('3:1')!.quantity).toBe(1);
  });

  it('refuses to bring back a serial that is not out with a sale (it would be counted twice), before moving anything', async () => {
    stock.levels.set('3:1', { quantity: 1, reorderLevel: 0 });
    stock.serials.push({ id: 1, itemId: 3, warehouseId: 1, serial: 'SN-1', status: 'in_stock', saleId: null });
    const twice = await ledger.restock({ ...ref, type: 'sale_void' }, [line(3, 1, 1, { serialNumber: 'SN-1' })], 'void').catch((e: unknown) => e);
    expect(twice).toMatchObject({ code: 'serial_not_sold' });
    expect(stock.serials[0]).toMatchObject({ status: 'in_stock' });
    expect(stock.levels.get('3:1')!.quantity).toBe(1);
  });

  it('writes returned damaged goods off: a return movement in and a damage movement out, level unchanged', async () => {
    stock.levels.set('1:1', { quantity: 3, reorderLevel: null });
    await ledger.writeOffReturned({ type: 'return', id: '9', userId: 7 }, [line(1, 1, 2)], 'damage');
    expect(stock.movements.map((m) => [m.type, m.delta])).toEqual([
      ['return', 2],
      ['damage', -2],
    ]);
    expect(stock.levels.get('1:1')!.quantity).toBe(3);
  });

  it('checks a sale without writing: missing serials are 422, short stock 409 only when asked', async () => {
    stock.levels.set('1:1', { quantity: 1, reorderLevel: null });
    await expect(ledger.checkSale([line(1, 1, 1), line(1, 1, 1)], { checkStock: false })).resolves.toBeUndefined();
    await expect(ledger.checkSale([line(1, 1, 1), line(1, 1, 1)], { checkStock: true })).rejects.toBeInstanceOf(ConflictError);
    await expect(ledger.checkSale([line(3, 1, 1, { serialNumber: 'NOPE' })], { checkStock: false })).rejects.toBeInstanceOf(ValidationFailedError);
    expect(stock.movements).toEqual([]);
  });
});
