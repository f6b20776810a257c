import request from 'supertest';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';
import { DemoIds, demoIds } from './catalog-helpers';

/**
 * Shared setup of the inventory suites (inventory-levels, inventory-adjustments,
 * inventory-adjustment-checks): stock per item and warehouse, the movement ledger, and adjustments
 * (count, receive, damage, spoilage, transfer). Every change is a stock_movements row in the same
 * transaction as the level, so the level always equals the sum of its movements; crossing the
 * reorder level writes an outbox event. Each suite boots its own app, so each starts from the seed.
 */
export interface InventoryRow {
  item: { id: number; sku: string; name: string };
  warehouse: { id: number; name: string; store_id: number | null };
  quantity: number;
  reorder_level: number;
  stock_status: 'out' | 'low' | 'in_stock';
  updated_at: string;
}

export interface Movement {
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

export interface InventorySuite {
  t: TestApp;
  admin: string;
  manager: string;
  cashier: string;
  ids: DemoIds;
  managerId: number;
}

/** Boots the app and signs in the three demo users (what every inventory suite's beforeAll does). */
export async function bootInventory(): Promise<InventorySuite> {
  const t = await startTestApp();
  const [admin, manager, cashier] = await Promise.all([login(t, DEMO.admin), login(t, DEMO.manager), login(t, DEMO.cashier)]);
  const ids = await demoIds(t);
  const managerId = Number((await t.db.query('SELECT id FROM users WHERE email = ?', [DEMO.manager]))[0].id);
  return { t, admin, manager, cashier, ids, managerId };
}

/**
 * Requests and ledger reads over the suite's app. `suite` is read at call time: the suite's
 * variables are set in its beforeAll, after these closures are made.
 */
export function inventoryTools(suite: () => Pick<InventorySuite, 't' | 'manager' | 'cashier' | 'ids'>) {
  const db = () => suite().t.db;
  const api = () => request(suite().t.http);
  const adjust = (body: Record<string, unknown>, token = suite().manager) => api().post('/api/v1/inventory/adjustments').set(bearer(token)).send(body);
  const inventory = (query: string, token = suite().cashier) => api().get(`/api/v1/inventory${query}`).set(bearer(token));
  const item = (sku: string) => suite().ids.item[sku];

  async function level(itemId: number, warehouseId: number): Promise<number | null> {
    const rows = await db().query('SELECT quantity FROM stock_levels WHERE item_id = ? AND warehouse_id = ?', [itemId, warehouseId]);
    return rows.length ? Number(rows[0].quantity) : null;
  }

  async function ledger(itemId: number, warehouseId: number): Promise<number> {
    const [row] = await db().query('SELECT COALESCE(SUM(quantity), 0) AS total FROM stock_movements WHERE item_id = ? AND warehouse_id = ?', [
      itemId,
      warehouseId,
    ]);
    return Number(row.total);
  }

  /** The stock level and the sum of its ledger rows are both `expected`. */
  async function expectStock(itemId: number, warehouseId: number, expected: number): Promise<void> {
    expect({ itemId, warehouseId, level: await level(itemId, warehouseId), ledger: await ledger(itemId, warehouseId) }).toEqual({
      itemId,
      warehouseId,
      level: expected,
      ledger: expected,
    });
  }

  async function movementCount(itemId: number, warehouseId?: number): Promise<number> {
    const rows =
      warehouseId === undefined
        ? await db().query('SELECT COUNT(*) AS n FROM stock_movements WHERE item_id = ?', [itemId])
        : await db().query('SELECT COUNT(*) AS n FROM stock_movements WHERE item_id = ? AND warehouse_id = ?', [itemId, warehouseId]);
    return Number(rows[0].n);
  }

  async function outbox(type: string, itemId: number): Promise<{ type: string; store_id: number | null; payload: Record<string, unknown> }[]> {
    const rows = await db().query('SELECT type, store_id, payload FROM outbox_events WHERE type = ? ORDER BY id', [type]);
    return rows
      .map((r: { type: string; store_id: number | null; payload: string }) => ({
        type: r.type,
        store_id: r.store_id === null ? null : Number(r.store_id),
        payload: JSON.parse(r.payload),
      }))
      .filter((e: { payload: { item_id: number } }) => e.payload.item_id === itemId);
  }

  async function serial(serialNo: string): Promise<{ status: string; warehouse_id: number | null } | undefined> {
    const [row] = await db().query('SELECT status, warehouse_id FROM serial_numbers WHERE serial = ?', [serialNo]);
    return row ? { status: row.status, warehouse_id: row.warehouse_id === null ? null : Number(row.warehouse_id) } : undefined;
  }

  return { api, adjust, inventory, item, level, ledger, expectStock, movementCount, outbox, serial };
}
