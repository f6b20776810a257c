import { dt, RowWriter } from './row-writer';
import { Counts } from './types';

/** Stock: a running balance per item x warehouse, from what is there now; every movement written. */
export class StockLedger {
  private readonly balance = new Map<string, number>();
  private hadLevel = new Set<string>();

  constructor(
    private readonly db: RowWriter,
    private readonly counts: Counts,
  ) {}

  async load(): Promise<void> {
    for (const r of (await this.db.qr.query('SELECT item_id, warehouse_id, quantity FROM stock_levels')) as Record<string, unknown>[])
      this.balance.set(`${r.item_id}:${r.warehouse_id}`, Number(r.quantity));
    this.hadLevel = new Set(this.balance.keys());
  }

  /** What an item x warehouse holds now. */
  level(itemId: number, warehouseId: number): number {
    return this.balance.get(`${itemId}:${warehouseId}`) ?? 0;
  }

  /** A movement: added to the balance and written with the balance after it. */
  readonly move = (itemId: number, warehouseId: number, type: string, qty: number, at: Date, refType: string, refId: string, cost: number | null): void => {
    const key = `${itemId}:${warehouseId}`;
    const after = (this.balance.get(key) ?? 0) + qty;
    this.balance.set(key, after);
    this.db.push('stock_movements', {
      item_id: itemId,
      warehouse_id: warehouseId,
      type,
      quantity: qty,
      balance_after: after,
      unit_cost: cost,
      reference_type: refType,
      reference_id: refId,
      user_id: null,
      notes: null,
      created_at: dt(at),
    });
    this.counts.stock_movements = (this.counts.stock_movements ?? 0) + 1;
  };

  /** Stock levels = the sum of their movements (updated where there was a level, inserted elsewhere). */
  async writeLevels(now: Date): Promise<void> {
    for (const [key, qty] of this.balance) {
      const [itemId, warehouseId] = key.split(':').map(Number);
      if (this.hadLevel.has(key))
        await this.db.qr.query('UPDATE stock_levels SET quantity = ? WHERE item_id = ? AND warehouse_id = ?', [qty, itemId, warehouseId]);
      else this.db.push('stock_levels', { item_id: itemId, warehouse_id: warehouseId, quantity: qty, reorder_level: null, updated_at: dt(now) });
    }
    await this.db.flushAll();
  }
}
