import { StoreContext } from '@pos/catalog';
import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';
import { DemoIds, demoIds, expectNo5xx, HOSTILE_IDS, LONG } from './catalog-helpers';

interface InventoryRow {
  item: { id: number; sku: string; name: string };
  warehouse: { id: number; name: string; store_id: number | null };
  quantity: number;
  reorder_level: number;
  stock_status: 'out' | 'low' | 'in_stock';
  updated_at: string;
}

interface Movement {
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

/**
 * Inventory: stock per item and warehouse, the movement ledger, and adjustments (count, receive,
 * damage, spoilage, transfer). Every change is a stock_movements row in the same transaction as
 * the level, so the level always equals the sum of its movements; crossing the reorder level
 * writes an outbox event.
 */
describe('Inventory', () => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let cashier: string;
  let ids: DemoIds;
  let managerId: number;

  const api = () => request(t.http);
  const adjust = (body: Record<string, unknown>, token = manager) => api().post('/api/v1/inventory/adjustments').set(bearer(token)).send(body);
  const inventory = (query: string, token = cashier) => api().get(`/api/v1/inventory${query}`).set(bearer(token));
  const item = (sku: string) => ids.item[sku];

  async function level(itemId: number, warehouseId: number): Promise<number | null> {
    const rows = await t.db.query('SELECT quantity FROM stock_levels WHERE item_id = ? AND warehouse_id = ?', [itemId, warehouseId]);
    return rows.length ? Number(rows[0].quantity) : null;
  }

  async function ledger(itemId: number, warehouseId: number): Promise<number> {
    const [row] = await t.db.query('SELECT COALESCE(SUM(quantity), 0) AS total FROM stock_movements WHERE item_id = ? AND warehouse_id = ?', [
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
        ? await t.db.query('SELECT COUNT(*) AS n FROM stock_movements WHERE item_id = ?', [itemId])
        : await t.db.query('SELECT COUNT(*) AS n FROM stock_movements WHERE item_id = ? AND warehouse_id = ?', [itemId, warehouseId]);
    return Number(rows[0].n);
  }

  async function outbox(type: string, itemId: number): Promise<{ type: string; store_id: number | null; payload: Record<string, unknown> }[]> {
    const rows = await t.db.query('SELECT type, store_id, payload FROM outbox_events WHERE type = ? ORDER BY id', [type]);
    return rows
      .map((r: { type: string; store_id: number | null; payload: string }) => ({
        type: r.type,
        store_id: r.store_id === null ? null : Number(r.store_id),
        payload: JSON.parse(r.payload),
      }))
      .filter((e: { payload: { item_id: number } }) => e.payload.item_id === itemId);
  }

  async function serial(serialNo: string): Promise<{ status: string; warehouse_id: number | null } | undefined> {
    const [row] = await t.db.query('SELECT status, warehouse_id FROM serial_numbers WHERE serial = ?', [serialNo]);
    return row ? { status: row.status, warehouse_id: row.warehouse_id === null ? null : Number(row.warehouse_id) } : undefined;
  }

  beforeAll(async () => {
    t = await startTestApp();
    [admin, manager, cashier] = await Promise.all([login(t, DEMO.admin), login(t, DEMO.manager), login(t, DEMO.cashier)]);
    ids = await demoIds(t);
    managerId = Number((await t.db.query('SELECT id FROM users WHERE email = ?', [DEMO.manager]))[0].id);
  });
  afterAll(() => t.close());

  describe('GET /inventory', () => {
    it("lists stock per item and warehouse in the user's stores, with status against the reorder level", async () => {
      const res = await inventory('');
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      // The cashier (Downtown) sees DT-MAIN and the standalone CENTRAL that serves Downtown: 32 items x 2.
      expect(res.body.meta).toEqual({ current_page: 1, last_page: 2, per_page: 50, total: 64 });
      const first: InventoryRow = res.body.data[0];
      expect(first).toMatchObject({
        item: { id: item('BEV-001'), sku: 'BEV-001', name: 'Still Water 500ml' },
        warehouse: { id: ids.warehouse.DT, name: 'Downtown Floor', store_id: ids.store.DT },
        quantity: 50,
        reorder_level: 10,
        stock_status: 'in_stock',
      });
      expect(Number.isNaN(Date.parse(first.updated_at))).toBe(false);
      expect(res.body.data[1]).toMatchObject({ item: { id: item('BEV-001') }, warehouse: { id: ids.warehouse.CENTRAL, store_id: null }, quantity: 200 });
      const all = await inventory('?per_page=200');
      expect(all.body.data).toHaveLength(64);
      expect(new Set(all.body.data.map((r: InventoryRow) => r.warehouse.id))).toEqual(new Set([ids.warehouse.DT, ids.warehouse.CENTRAL]));

      const asAdmin = await inventory('?per_page=200', admin);
      expect(asAdmin.body.meta.total).toBe(96);
    });

    it('filters by item, warehouse and store', async () => {
      const byItem = await inventory(`?item_id=${item('BEV-003')}`, admin);
      expect(byItem.body.data.map((r: InventoryRow) => [r.warehouse.id, r.quantity])).toEqual([
        [ids.warehouse.DT, 50],
        [ids.warehouse.AP, 30],
        [ids.warehouse.CENTRAL, 200],
      ]);
      const byWarehouse = await inventory(`?warehouse_id=${ids.warehouse.CENTRAL}&per_page=100`);
      expect(byWarehouse.body.meta.total).toBe(32);
      expect(byWarehouse.body.data.every((r: InventoryRow) => r.warehouse.id === ids.warehouse.CENTRAL)).toBe(true);
      const byStore = await inventory(`?store_id=${ids.store.AP}&item_id=${item('BEV-003')}`, manager);
      expect(byStore.body.data.map((r: InventoryRow) => r.warehouse.id)).toEqual([ids.warehouse.AP, ids.warehouse.CENTRAL]);
      const own = await inventory(`?store_id=${ids.store.DT}&item_id=${item('BEV-003')}`);
      expect(own.body.data.map((r: InventoryRow) => r.warehouse.id)).toEqual([ids.warehouse.DT, ids.warehouse.CENTRAL]);
      const none = await inventory('?item_id=999999');
      expect(none.status).toBe(200);
      expect(none.body.data).toEqual([]);
    });

    it('filters by stock_status (out, low, in_stock)', async () => {
      // Serial-tracked items hold 5 per warehouse against a reorder level of 10: low.
      const low = await inventory('?stock_status=low');
      expect(low.body.meta.total).toBe(6);
      expect([...new Set(low.body.data.map((r: InventoryRow) => r.item.sku))].sort()).toEqual(['ELC-002', 'ELC-003', 'ELC-005']);
      expect(low.body.data.every((r: InventoryRow) => r.stock_status === 'low' && r.quantity === 5)).toBe(true);
      const inStock = await inventory('?stock_status=in_stock&per_page=200');
      expect(inStock.body.meta.total).toBe(58);
      expect(inStock.body.data.every((r: InventoryRow) => r.stock_status === 'in_stock' && r.quantity > r.reorder_level)).toBe(true);
      const out = await inventory('?stock_status=out');
      expect(out.status).toBe(200);
      expect(out.body.meta.total).toBe(0);
    });

    it('paginates with per_page clamped to 200', async () => {
      const p = await inventory('?per_page=10&page=7');
      expect(p.body.meta).toEqual({ current_page: 7, last_page: 7, per_page: 10, total: 64 });
      expect(p.body.data).toHaveLength(4);
      expect((await inventory('?per_page=100000', admin)).body.meta.per_page).toBe(200);
    });

    it('answers a filter naming another store or its warehouse with 403', async () => {
      expectErrorEnvelope(await inventory(`?store_id=${ids.store.AP}`), 403);
      expectErrorEnvelope(await inventory(`?warehouse_id=${ids.warehouse.AP}`), 403);
      expectErrorEnvelope(await api().get(`/api/v1/inventory/movements?warehouse_id=${ids.warehouse.AP}`).set(bearer(cashier)), 403);
    });

    it('rejects bad filters with 422 naming them, never a 5xx', async () => {
      for (const bad of [
        'stock_status=empty',
        'stock_status=',
        'store_id=abc',
        'warehouse_id=-1',
        'item_id=1.5',
        `item_id=${encodeURIComponent("1' OR '1'='1")}`,
        'per_page=0',
        'per_page=abc',
        'page=-2',
        `stock_status=${LONG}`,
      ]) {
        const res = await inventory(`?${bad}`);
        expectErrorEnvelope(res, 422, 'The given data was invalid.');
        expect(Object.keys(res.body.errors)).toEqual([bad.split('=')[0]]);
      }
      const unknownWarehouse = await inventory('?warehouse_id=999999');
      expectErrorEnvelope(unknownWarehouse, 422);
      expect(unknownWarehouse.body.errors.warehouse_id).toBeDefined();
      for (const v of HOSTILE_IDS) {
        for (const p of ['store_id', 'warehouse_id', 'item_id', 'page']) expectNo5xx(await inventory(`?${p}=${encodeURIComponent(v)}`, admin), [200, 403, 422]);
      }
    });

    it('needs inventory.view (401 without a token)', async () => {
      expectErrorEnvelope(await api().get('/api/v1/inventory'), 401);
      expectErrorEnvelope(await api().get('/api/v1/inventory/movements'), 401);
    });
  });

  describe('POST /inventory/adjustments', () => {
    it('receive adds stock and writes one ledger row per line', async () => {
      const res = await adjust({
        type: 'receive',
        warehouse_id: ids.warehouse.DT,
        reference: 'PO-1001',
        notes: 'Weekly delivery',
        items: [
          { item_id: item('SNK-001'), quantity: 25, unit_cost: 0.9 },
          { item_id: item('SNK-005'), quantity: 5, notes: 'short shipped' },
        ],
      });
      expect(res.status).toBe(201);
      expect(res.body.success).toBe(true);
      const d = res.body.data;
      expect(d).toMatchObject({ type: 'receive', warehouse_id: ids.warehouse.DT, to_warehouse_id: null, reference: 'PO-1001' });
      expect(d.adjustment_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(d.movements).toHaveLength(2);
      expect(d.movements[0]).toMatchObject({
        item_id: item('SNK-001'),
        warehouse_id: ids.warehouse.DT,
        type: 'receive',
        quantity: 25,
        balance_after: 75,
        unit_cost: 0.9,
        reference_type: 'adjustment',
        reference_id: d.adjustment_id,
        user_id: managerId,
        notes: 'Weekly delivery',
      });
      expect(d.movements[1]).toMatchObject({ item_id: item('SNK-005'), quantity: 5, balance_after: 55, unit_cost: null, notes: 'short shipped' });

      await expectStock(item('SNK-001'), ids.warehouse.DT, 75);
      await expectStock(item('SNK-005'), ids.warehouse.DT, 55);
      const rows = await t.db.query(
        'SELECT item_id, type, quantity, balance_after, unit_cost, user_id FROM stock_movements WHERE reference_type = ? AND reference_id = ? ORDER BY id',
        ['adjustment', d.adjustment_id],
      );
      expect(rows).toHaveLength(2);
      expect(
        rows.map((r: Record<string, unknown>) => [
          Number(r.item_id),
          r.type,
          Number(r.quantity),
          Number(r.balance_after),
          r.unit_cost === null ? null : Number(r.unit_cost),
          Number(r.user_id),
        ]),
      ).toEqual([
        [item('SNK-001'), 'receive', 25, 75, 90, managerId],
        [item('SNK-005'), 'receive', 5, 55, null, managerId],
      ]);
      // Other warehouses are untouched.
      await expectStock(item('SNK-001'), ids.warehouse.CENTRAL, 200);
      const shown = await api()
        .get(`/api/v1/inventory?item_id=${item('SNK-001')}&warehouse_id=${ids.warehouse.DT}`)
        .set(bearer(cashier));
      expect(shown.body.data[0]).toMatchObject({ quantity: 75, stock_status: 'in_stock' });
    });

    it('count sets the counted quantity (the movement is the difference)', async () => {
      const down = await adjust({ type: 'count', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('GRO-001'), quantity: 42 }] });
      expect(down.status).toBe(201);
      expect(down.body.data.movements).toEqual([expect.objectContaining({ type: 'count', quantity: -8, balance_after: 42 })]);
      await expectStock(item('GRO-001'), ids.warehouse.DT, 42);
      const up = await adjust({ type: 'count', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('GRO-001'), quantity: 60 }] });
      expect(up.body.data.movements[0]).toMatchObject({ quantity: 18, balance_after: 60 });
      await expectStock(item('GRO-001'), ids.warehouse.DT, 60);
      const same = await adjust({ type: 'count', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('GRO-001'), quantity: 60 }] });
      expect(same.status).toBe(201);
      await expectStock(item('GRO-001'), ids.warehouse.DT, 60);
      const zero = await adjust({ type: 'count', warehouse_id: ids.warehouse.CENTRAL, items: [{ item_id: item('GRO-001'), quantity: 0 }] });
      expect(zero.status).toBe(201);
      expect(zero.body.data.movements[0]).toMatchObject({ quantity: -200, balance_after: 0 });
      await expectStock(item('GRO-001'), ids.warehouse.CENTRAL, 0);
      const events = await outbox('inventory.out_of_stock', item('GRO-001'));
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        store_id: null,
        payload: { item_id: item('GRO-001'), sku: 'GRO-001', warehouse_id: ids.warehouse.CENTRAL, quantity: 0 },
      });
    });

    it('damage and spoilage remove stock', async () => {
      const damage = await adjust({ type: 'damage', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('SNK-002'), quantity: 3 }] });
      expect(damage.status).toBe(201);
      expect(damage.body.data.movements[0]).toMatchObject({ type: 'damage', quantity: -3, balance_after: 47 });
      await expectStock(item('SNK-002'), ids.warehouse.DT, 47);
      const spoil = await adjust({ type: 'spoilage', warehouse_id: ids.warehouse.AP, items: [{ item_id: item('GRO-002'), quantity: 2 }] });
      expect(spoil.status).toBe(201);
      expect(spoil.body.data.movements[0]).toMatchObject({ type: 'spoilage', quantity: -2, balance_after: 28, warehouse_id: ids.warehouse.AP });
      await expectStock(item('GRO-002'), ids.warehouse.AP, 28);
      // All of it may go.
      const all = await adjust({ type: 'spoilage', warehouse_id: ids.warehouse.AP, items: [{ item_id: item('GRO-002'), quantity: 28 }] });
      expect(all.status).toBe(201);
      await expectStock(item('GRO-002'), ids.warehouse.AP, 0);
    });

    it('transfer moves stock from one warehouse to another with a pair of ledger rows', async () => {
      const res = await adjust({
        type: 'transfer',
        warehouse_id: ids.warehouse.CENTRAL,
        to_warehouse_id: ids.warehouse.AP,
        reference: 'TR-1',
        items: [
          { item_id: item('GRO-003'), quantity: 20 },
          { item_id: item('GRO-004'), quantity: 1 },
        ],
      });
      expect(res.status).toBe(201);
      const d = res.body.data;
      expect(d).toMatchObject({ type: 'transfer', warehouse_id: ids.warehouse.CENTRAL, to_warehouse_id: ids.warehouse.AP, reference: 'TR-1' });
      expect(d.movements.map((m: Movement) => [m.item_id, m.warehouse_id, m.type, m.quantity, m.balance_after])).toEqual([
        [item('GRO-003'), ids.warehouse.CENTRAL, 'transfer_out', -20, 180],
        [item('GRO-003'), ids.warehouse.AP, 'transfer_in', 20, 50],
        [item('GRO-004'), ids.warehouse.CENTRAL, 'transfer_out', -1, 199],
        [item('GRO-004'), ids.warehouse.AP, 'transfer_in', 1, 31],
      ]);
      expect(d.movements.every((m: Movement) => m.reference_id === d.adjustment_id)).toBe(true);
      await expectStock(item('GRO-003'), ids.warehouse.CENTRAL, 180);
      await expectStock(item('GRO-003'), ids.warehouse.AP, 50);
      await expectStock(item('GRO-004'), ids.warehouse.CENTRAL, 199);
      await expectStock(item('GRO-004'), ids.warehouse.AP, 31);
      await expectStock(item('GRO-003'), ids.warehouse.DT, 50);
    });

    it('refuses (409) to remove more than is on hand and changes nothing, even for the valid lines', async () => {
      const before = await movementCount(item('HSE-001'));
      const single = await adjust({ type: 'spoilage', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('HSE-001'), quantity: 51 }] });
      expectErrorEnvelope(single, 409);
      expect(single.body.message).toMatch(/HSE-001/);
      await expectStock(item('HSE-001'), ids.warehouse.DT, 50);

      const multi = await adjust({
        type: 'damage',
        warehouse_id: ids.warehouse.DT,
        items: [
          { item_id: item('HSE-001'), quantity: 5 },
          { item_id: item('HSE-002'), quantity: 1_000_000 },
        ],
      });
      expectErrorEnvelope(multi, 409);
      await expectStock(item('HSE-001'), ids.warehouse.DT, 50);
      await expectStock(item('HSE-002'), ids.warehouse.DT, 50);
      expect(await movementCount(item('HSE-001'))).toBe(before);
      expect(await outbox('inventory.low_stock', item('HSE-001'))).toEqual([]);
    });

    it('moves a transfer all-or-nothing: one short line leaves both warehouses as they were', async () => {
      const res = await adjust({
        type: 'transfer',
        warehouse_id: ids.warehouse.DT,
        to_warehouse_id: ids.warehouse.CENTRAL,
        items: [
          { item_id: item('HSE-003'), quantity: 10 },
          { item_id: item('HSE-004'), quantity: 51 },
        ],
      });
      expectErrorEnvelope(res, 409);
      for (const sku of ['HSE-003', 'HSE-004']) {
        await expectStock(item(sku), ids.warehouse.DT, 50);
        await expectStock(item(sku), ids.warehouse.CENTRAL, 200);
      }
      const [{ n }] = await t.db.query("SELECT COUNT(*) AS n FROM stock_movements WHERE type IN ('transfer_out', 'transfer_in') AND item_id IN (?, ?)", [
        item('HSE-003'),
        item('HSE-004'),
      ]);
      expect(Number(n)).toBe(0);
    });

    it('keeps stock exact when the last units are removed by simultaneous requests', async () => {
      const results = await Promise.all(
        [1, 2, 3, 4, 5].map(() => adjust({ type: 'damage', warehouse_id: ids.warehouse.AP, items: [{ item_id: item('HSE-005'), quantity: 10 }] })),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 201, 201, 409, 409]);
      await expectStock(item('HSE-005'), ids.warehouse.AP, 0);
    });

    it('validates transfers: a destination is required, must differ and must exist', async () => {
      const missing = await adjust({ type: 'transfer', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('HSE-003'), quantity: 1 }] });
      expectErrorEnvelope(missing, 422, 'The given data was invalid.');
      expect(Object.keys(missing.body.errors)).toEqual(['to_warehouse_id']);
      const same = await adjust({
        type: 'transfer',
        warehouse_id: ids.warehouse.DT,
        to_warehouse_id: ids.warehouse.DT,
        items: [{ item_id: item('HSE-003'), quantity: 1 }],
      });
      expect(same.status).toBe(422);
      expect(same.body.errors.to_warehouse_id).toBeDefined();
      const unknown = await adjust({
        type: 'transfer',
        warehouse_id: ids.warehouse.DT,
        to_warehouse_id: 999999,
        items: [{ item_id: item('HSE-003'), quantity: 1 }],
      });
      expect(unknown.status).toBe(422);
      expect(unknown.body.errors.to_warehouse_id).toBeDefined();
      await expectStock(item('HSE-003'), ids.warehouse.DT, 50);
    });

    it('validates the body (422 with dotted keys) and writes nothing', async () => {
      const before = Number((await t.db.query('SELECT COUNT(*) AS n FROM stock_movements'))[0].n);
      const cases: [Record<string, unknown>, string[]][] = [
        [{}, ['items', 'type', 'warehouse_id']],
        [{ type: 'steal', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-002'), quantity: 1 }] }, ['type']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: [] }, ['items']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: 'all of them' }, ['items']],
        [{ type: 'receive', warehouse_id: 'DT', items: [{ item_id: item('BEV-002'), quantity: 1 }] }, ['warehouse_id']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-002'), quantity: -1 }] }, ['items.0.quantity']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-002'), quantity: 'ten' }] }, ['items.0.quantity']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-002'), quantity: 1.5 }] }, ['items.0.quantity']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-002'), quantity: 1_000_001 }] }, ['items.0.quantity']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-002'), quantity: 1e308 }] }, ['items.0.quantity']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-002') }] }, ['items.0.quantity']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-002'), quantity: 1 }, { quantity: 1 }] }, ['items.1.item_id']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-002'), quantity: 0 }] }, ['items.0.quantity']],
        [{ type: 'damage', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-002'), quantity: 0 }] }, ['items.0.quantity']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-002'), quantity: 1, unit_cost: -1 }] }, ['items.0.unit_cost']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-002'), quantity: 1, unit_cost: 0.001 }] }, ['items.0.unit_cost']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-002'), quantity: 1, notes: LONG }] }, ['items.0.notes']],
        [
          { type: 'receive', warehouse_id: ids.warehouse.DT, reference: LONG, notes: LONG, items: [{ item_id: item('BEV-002'), quantity: 1 }] },
          ['notes', 'reference'],
        ],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: 999999, quantity: 1 }] }, ['items.0.item_id']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: "1' OR '1'='1", quantity: 1 }] }, ['items.0.item_id']],
        [
          {
            type: 'receive',
            warehouse_id: ids.warehouse.DT,
            items: [
              { item_id: item('BEV-002'), quantity: 1 },
              { item_id: item('BEV-002'), quantity: 2 },
            ],
          },
          ['items.1.item_id'],
        ],
        [
          { type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-002'), quantity: 1, serial_numbers: ['X-1'] }] },
          ['items.0.serial_numbers'],
        ],
        [{ type: 'receive', warehouse_id: 999999, items: [{ item_id: item('BEV-002'), quantity: 1 }] }, ['warehouse_id']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: Array.from({ length: 501 }, () => ({ item_id: item('BEV-002'), quantity: 1 })) }, ['items']],
      ];
      for (const [body, keys] of cases) {
        const res = await adjust(body);
        expectErrorEnvelope(res, 422, 'The given data was invalid.');
        expect({ body: JSON.stringify(body).slice(0, 120), keys: Object.keys(res.body.errors).sort() }).toEqual({
          body: JSON.stringify(body).slice(0, 120),
          keys,
        });
      }
      expect(Number((await t.db.query('SELECT COUNT(*) AS n FROM stock_movements'))[0].n)).toBe(before);
      await expectStock(item('BEV-002'), ids.warehouse.DT, 50);
    });

    it('needs inventory.adjust (403 for a cashier), with nothing changed', async () => {
      const res = await adjust({ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-004'), quantity: 5 }] }, cashier);
      expectErrorEnvelope(res, 403);
      await expectStock(item('BEV-004'), ids.warehouse.DT, 50);
      expectErrorEnvelope(
        await api()
          .post('/api/v1/inventory/adjustments')
          .send({ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-004'), quantity: 5 }] }),
        401,
      );
    });

    it('answers a warehouse of another store (source or destination) with 403', async () => {
      const app = await api()
        .post('/api/v1/api-applications')
        .set(bearer(admin))
        .send({ name: 'Downtown stock app', permissions: ['inventory.adjust', 'inventory.view'], store_ids: [ids.store.DT] });
      expect(app.status).toBe(201);
      const tok = await api()
        .post(`/api/v1/api-applications/${app.body.data.id}/tokens`)
        .set(bearer(admin))
        .send({ name: 'stock', abilities: ['pos'] });
      expect(tok.status).toBe(201);
      const dtOnly = tok.body.data.token as string;

      expectErrorEnvelope(await adjust({ type: 'receive', warehouse_id: ids.warehouse.AP, items: [{ item_id: item('BEV-004'), quantity: 5 }] }, dtOnly), 403);
      expectErrorEnvelope(
        await adjust(
          { type: 'transfer', warehouse_id: ids.warehouse.DT, to_warehouse_id: ids.warehouse.AP, items: [{ item_id: item('BEV-004'), quantity: 5 }] },
          dtOnly,
        ),
        403,
      );
      await expectStock(item('BEV-004'), ids.warehouse.AP, 30);
      await expectStock(item('BEV-004'), ids.warehouse.DT, 50);
      // Its own store and the standalone warehouse serving it are fine.
      const ok = await adjust(
        { type: 'transfer', warehouse_id: ids.warehouse.DT, to_warehouse_id: ids.warehouse.CENTRAL, items: [{ item_id: item('BEV-004'), quantity: 5 }] },
        dtOnly,
      );
      expect(ok.status).toBe(201);
      await expectStock(item('BEV-004'), ids.warehouse.DT, 45);
      await expectStock(item('BEV-004'), ids.warehouse.CENTRAL, 205);
    });

    it('lets stock go negative only where the store allows it (never in a standalone warehouse)', async () => {
      await t.db.query('UPDATE stores SET allow_negative_stock = ? WHERE id = ?', [1, ids.store.AP]);
      t.app.get(StoreContext).invalidate(); // edited behind the API's back: forget the cached store
      try {
        const res = await adjust({ type: 'damage', warehouse_id: ids.warehouse.AP, items: [{ item_id: item('BEV-005'), quantity: 40 }] });
        expect(res.status).toBe(201);
        expect(res.body.data.movements[0]).toMatchObject({ quantity: -40, balance_after: -10 });
        await expectStock(item('BEV-005'), ids.warehouse.AP, -10);
        const row = await inventory(`?item_id=${item('BEV-005')}&stock_status=out`, manager);
        expect(row.body.data.map((r: InventoryRow) => [r.warehouse.id, r.quantity])).toEqual([[ids.warehouse.AP, -10]]);
        const central = await adjust({ type: 'damage', warehouse_id: ids.warehouse.CENTRAL, items: [{ item_id: item('BEV-005'), quantity: 201 }] });
        expectErrorEnvelope(central, 409);
        await expectStock(item('BEV-005'), ids.warehouse.CENTRAL, 200);
      } finally {
        await t.db.query('UPDATE stores SET allow_negative_stock = ? WHERE id = ?', [0, ids.store.AP]);
        t.app.get(StoreContext).invalidate();
      }
      expectErrorEnvelope(await adjust({ type: 'damage', warehouse_id: ids.warehouse.AP, items: [{ item_id: item('BEV-005'), quantity: 1 }] }), 409);
      await expectStock(item('BEV-005'), ids.warehouse.AP, -10);
    });

    it('never answers hostile values with a 5xx', async () => {
      const bodies: unknown[] = [
        { type: 'receive', warehouse_id: "1' OR '1'='1", items: [{ item_id: 1, quantity: 1 }] },
        { type: LONG, warehouse_id: 1, items: [{ item_id: 1, quantity: 1 }] },
        { type: 'receive', warehouse_id: 1e20, items: [{ item_id: 1e20, quantity: 1 }] },
        { type: 'receive', warehouse_id: -1, items: [{ item_id: -1, quantity: -1e20 }] },
        { type: 'receive', warehouse_id: 1, items: [null, 'x', 3] },
        { type: 'receive', warehouse_id: 1, items: [{ item_id: 1, quantity: 1, serial_numbers: [LONG, '', 5] }] },
        { type: ['receive'], warehouse_id: [1], items: [[{ item_id: 1 }]] },
        { type: 'receive', warehouse_id: { $gt: 0 }, items: [{ item_id: { $ne: null }, quantity: 1 }] },
      ];
      for (const body of bodies)
        expectNo5xx(
          await api()
            .post('/api/v1/inventory/adjustments')
            .set(bearer(manager))
            .send(body as object),
          [422],
        );
      expectNo5xx(
        await api()
          .post('/api/v1/inventory/adjustments')
          .set(bearer(manager))
          .send([{ type: 'receive' }]),
        [400, 422],
      );
      await expectStock(item('BEV-001'), ids.warehouse.DT, 50);
    });
  });

  describe('serial-tracked items', () => {
    const dtSerial = (sku: string, n: number) => `${sku}-${ids.warehouse.DT}-000${n}`;

    it('receive needs one new serial number per unit and adds them in stock', async () => {
      const res = await adjust({
        type: 'receive',
        warehouse_id: ids.warehouse.DT,
        items: [{ item_id: item('ELC-002'), quantity: 2, serial_numbers: [' SN-NEW-1 ', 'SN-NEW-2'] }],
      });
      expect(res.status).toBe(201);
      expect(res.body.data.movements[0]).toMatchObject({ quantity: 2, balance_after: 7 });
      await expectStock(item('ELC-002'), ids.warehouse.DT, 7);
      expect(await serial('SN-NEW-1')).toEqual({ status: 'in_stock', warehouse_id: ids.warehouse.DT });
      expect(await serial('SN-NEW-2')).toEqual({ status: 'in_stock', warehouse_id: ids.warehouse.DT });
      const listed = await api()
        .get(`/api/v1/items/${item('ELC-002')}/serial-numbers?warehouse_id=${ids.warehouse.DT}&status=in_stock`)
        .set(bearer(cashier));
      expect(listed.body.data.map((s: { serial: string }) => s.serial)).toEqual(expect.arrayContaining(['SN-NEW-1', 'SN-NEW-2']));
      expect(listed.body.data).toHaveLength(7);
    });

    it('refuses missing, miscounted, repeated or already-in-stock serials (422) and changes nothing', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ item_id: item('ELC-002'), quantity: 1 }, 'items.0.serial_numbers'],
        [{ item_id: item('ELC-002'), quantity: 2, serial_numbers: ['SN-X-1'] }, 'items.0.serial_numbers'],
        [{ item_id: item('ELC-002'), quantity: 2, serial_numbers: ['SN-X-1', 'SN-X-1'] }, 'items.0.serial_numbers'],
        [{ item_id: item('ELC-002'), quantity: 1, serial_numbers: [dtSerial('ELC-002', 1)] }, 'items.0.serial_numbers'],
        [{ item_id: item('ELC-002'), quantity: 1, serial_numbers: ['SN-NEW-1'] }, 'items.0.serial_numbers'],
        [{ item_id: item('ELC-002'), quantity: 1, serial_numbers: [''] }, 'items.0.serial_numbers'],
      ];
      for (const [line, key] of cases) {
        const res = await adjust({ type: 'receive', warehouse_id: ids.warehouse.DT, items: [line] });
        expectErrorEnvelope(res, 422, 'The given data was invalid.');
        expect(res.body.errors[key]).toBeDefined();
      }
      await expectStock(item('ELC-002'), ids.warehouse.DT, 7);
      expect(await serial('SN-X-1')).toBeUndefined();
      const count = await adjust({ type: 'count', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('ELC-002'), quantity: 9 }] });
      expect(count.status).toBe(422);
      expect(count.body.errors['items.0.item_id']).toBeDefined();
      await expectStock(item('ELC-002'), ids.warehouse.DT, 7);
    });

    it('damage and spoilage write off the named serials', async () => {
      const damage = await adjust({
        type: 'damage',
        warehouse_id: ids.warehouse.DT,
        items: [{ item_id: item('ELC-003'), quantity: 1, serial_numbers: [dtSerial('ELC-003', 1)] }],
      });
      expect(damage.status).toBe(201);
      await expectStock(item('ELC-003'), ids.warehouse.DT, 4);
      expect(await serial(dtSerial('ELC-003', 1))).toMatchObject({ status: 'damaged' });
      const spoil = await adjust({
        type: 'spoilage',
        warehouse_id: ids.warehouse.DT,
        items: [{ item_id: item('ELC-003'), quantity: 1, serial_numbers: [dtSerial('ELC-003', 2)] }],
      });
      expect(spoil.status).toBe(201);
      expect(await serial(dtSerial('ELC-003', 2))).toMatchObject({ status: 'spoiled' });
      await expectStock(item('ELC-003'), ids.warehouse.DT, 3);
      const damaged = await api()
        .get(`/api/v1/items/${item('ELC-003')}/serial-numbers?status=damaged`)
        .set(bearer(cashier));
      expect(damaged.body.data.map((s: { serial: string }) => s.serial)).toEqual([dtSerial('ELC-003', 1)]);
    });

    it('refuses unknown serials, serials in another warehouse or no longer in stock (422), changing nothing', async () => {
      for (const serialNo of ['NO-SUCH-SERIAL', `ELC-003-${ids.warehouse.CENTRAL}-0001`, dtSerial('ELC-003', 1), dtSerial('ELC-002', 1)]) {
        const res = await adjust({
          type: 'damage',
          warehouse_id: ids.warehouse.DT,
          items: [{ item_id: item('ELC-003'), quantity: 1, serial_numbers: [serialNo] }],
        });
        expectErrorEnvelope(res, 422);
        expect(res.body.errors['items.0.serial_numbers']).toBeDefined();
      }
      await expectStock(item('ELC-003'), ids.warehouse.DT, 3);
      expect(await serial(`ELC-003-${ids.warehouse.CENTRAL}-0001`)).toEqual({ status: 'in_stock', warehouse_id: ids.warehouse.CENTRAL });
      expect(await serial(dtSerial('ELC-003', 3))).toEqual({ status: 'in_stock', warehouse_id: ids.warehouse.DT });
    });

    it('transfer moves the named serials with the stock', async () => {
      const res = await adjust({
        type: 'transfer',
        warehouse_id: ids.warehouse.DT,
        to_warehouse_id: ids.warehouse.CENTRAL,
        items: [{ item_id: item('ELC-005'), quantity: 2, serial_numbers: [dtSerial('ELC-005', 1), dtSerial('ELC-005', 2)] }],
      });
      expect(res.status).toBe(201);
      await expectStock(item('ELC-005'), ids.warehouse.DT, 3);
      await expectStock(item('ELC-005'), ids.warehouse.CENTRAL, 7);
      expect(await serial(dtSerial('ELC-005', 1))).toEqual({ status: 'in_stock', warehouse_id: ids.warehouse.CENTRAL });
      const bad = await adjust({
        type: 'transfer',
        warehouse_id: ids.warehouse.DT,
        to_warehouse_id: ids.warehouse.CENTRAL,
        items: [{ item_id: item('ELC-005'), quantity: 1, serial_numbers: [dtSerial('ELC-005', 1)] }],
      });
      expect(bad.status).toBe(422);
      await expectStock(item('ELC-005'), ids.warehouse.DT, 3);
      await expectStock(item('ELC-005'), ids.warehouse.CENTRAL, 7);
    });

    it('a written-off serial can be received again and is back in stock', async () => {
      const res = await adjust({
        type: 'receive',
        warehouse_id: ids.warehouse.DT,
        items: [{ item_id: item('ELC-003'), quantity: 1, serial_numbers: [dtSerial('ELC-003', 1)] }],
      });
      expect(res.status).toBe(201);
      expect(await serial(dtSerial('ELC-003', 1))).toEqual({ status: 'in_stock', warehouse_id: ids.warehouse.DT });
      await expectStock(item('ELC-003'), ids.warehouse.DT, 4);
    });
  });

  describe('reorder level events', () => {
    it('writes inventory.low_stock when stock falls to the reorder level, then inventory.out_of_stock at zero', async () => {
      const id = item('SNK-004');
      const above = await adjust({ type: 'damage', warehouse_id: ids.warehouse.DT, items: [{ item_id: id, quantity: 30 }] });
      expect(above.status).toBe(201);
      expect(await outbox('inventory.low_stock', id)).toEqual([]);

      const low = await adjust({ type: 'damage', warehouse_id: ids.warehouse.DT, items: [{ item_id: id, quantity: 10 }] });
      expect(low.status).toBe(201);
      await expectStock(id, ids.warehouse.DT, 10);
      const lowEvents = await outbox('inventory.low_stock', id);
      expect(lowEvents).toHaveLength(1);
      expect(lowEvents[0]).toEqual({
        type: 'inventory.low_stock',
        store_id: ids.store.DT,
        payload: { item_id: id, sku: 'SNK-004', name: 'Granola Bar', warehouse_id: ids.warehouse.DT, quantity: 10, reorder_level: 10 },
      });

      // Still below the level: no second low_stock event.
      expect((await adjust({ type: 'damage', warehouse_id: ids.warehouse.DT, items: [{ item_id: id, quantity: 4 }] })).status).toBe(201);
      expect(await outbox('inventory.low_stock', id)).toHaveLength(1);
      expect(await outbox('inventory.out_of_stock', id)).toEqual([]);

      const out = await adjust({ type: 'spoilage', warehouse_id: ids.warehouse.DT, items: [{ item_id: id, quantity: 6 }] });
      expect(out.status).toBe(201);
      await expectStock(id, ids.warehouse.DT, 0);
      const outEvents = await outbox('inventory.out_of_stock', id);
      expect(outEvents).toHaveLength(1);
      expect(outEvents[0]).toMatchObject({ store_id: ids.store.DT, payload: { item_id: id, warehouse_id: ids.warehouse.DT, quantity: 0 } });

      const filtered = await inventory(`?stock_status=out&warehouse_id=${ids.warehouse.DT}`);
      expect(filtered.body.data.map((r: InventoryRow) => r.item.sku)).toContain('SNK-004');
      expect(filtered.body.data.every((r: InventoryRow) => r.stock_status === 'out' && r.quantity <= 0)).toBe(true);
      // Receiving emits nothing and brings the item back.
      const eventsBefore = Number((await t.db.query('SELECT COUNT(*) AS n FROM outbox_events'))[0].n);
      expect((await adjust({ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: id, quantity: 8 }] })).status).toBe(201);
      expect(Number((await t.db.query('SELECT COUNT(*) AS n FROM outbox_events'))[0].n)).toBe(eventsBefore);
      const lowNow = await inventory(`?stock_status=low&item_id=${id}`);
      expect(lowNow.body.data).toEqual([
        expect.objectContaining({ quantity: 8, stock_status: 'low', warehouse: expect.objectContaining({ id: ids.warehouse.DT }) }),
      ]);
    });

    it("uses a warehouse's own reorder level over the item's", async () => {
      const id = item('COF-003');
      const set = await api()
        .put(`/api/v1/items/${id}`)
        .set(bearer(manager))
        .send({ warehouse_reorder_levels: [{ warehouse_id: ids.warehouse.DT, reorder_level: 45 }] });
      expect(set.status).toBe(200);
      const before = await inventory(`?item_id=${id}&warehouse_id=${ids.warehouse.DT}`);
      expect(before.body.data[0]).toMatchObject({ quantity: 50, reorder_level: 45, stock_status: 'in_stock' });
      expect((await adjust({ type: 'damage', warehouse_id: ids.warehouse.DT, items: [{ item_id: id, quantity: 5 }] })).status).toBe(201);
      const events = await outbox('inventory.low_stock', id);
      expect(events).toHaveLength(1);
      expect(events[0].payload).toMatchObject({ quantity: 45, reorder_level: 45, warehouse_id: ids.warehouse.DT });
      const after = await inventory(`?item_id=${id}&stock_status=low`);
      expect(after.body.data.map((r: InventoryRow) => [r.warehouse.id, r.quantity, r.reorder_level])).toEqual([[ids.warehouse.DT, 45, 45]]);
      // The other warehouses keep the item's level.
      const central = await inventory(`?item_id=${id}&warehouse_id=${ids.warehouse.CENTRAL}`);
      expect(central.body.data[0]).toMatchObject({ reorder_level: 10, stock_status: 'in_stock' });
    });
  });

  describe('GET /inventory/movements', () => {
    it('lists the ledger newest first, filtered by item, warehouse, type and dates', async () => {
      const res = await api()
        .get(`/api/v1/inventory/movements?item_id=${item('GRO-001')}&warehouse_id=${ids.warehouse.DT}`)
        .set(bearer(cashier));
      expect(res.status).toBe(200);
      const rows: Movement[] = res.body.data;
      expect(rows.map((m) => [m.type, m.quantity, m.balance_after])).toEqual([
        ['count', 0, 60],
        ['count', 18, 60],
        ['count', -8, 42],
        ['receive', 50, 50],
      ]);
      expect(rows[0]).toMatchObject({ item_id: item('GRO-001'), warehouse_id: ids.warehouse.DT, reference_type: 'adjustment', user_id: managerId });
      expect(rows[3]).toMatchObject({ reference_type: 'seed', user_id: null });
      expect(res.body.meta.total).toBe(4);

      const byType = await api().get(`/api/v1/inventory/movements?type=transfer_in&per_page=100`).set(bearer(admin));
      expect(byType.body.data.length).toBeGreaterThanOrEqual(3);
      expect(byType.body.data.every((m: Movement) => m.type === 'transfer_in')).toBe(true);
      const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
      // GRO-001: DT seed + 3 counts, AP seed, CENTRAL seed + 1 count.
      const dated = await api()
        .get(`/api/v1/inventory/movements?item_id=${item('GRO-001')}&date_from=${day(-1)}&date_to=${day(1)}`)
        .set(bearer(admin));
      expect(dated.body.meta.total).toBe(7);
      const old = await api()
        .get(`/api/v1/inventory/movements?item_id=${item('GRO-001')}&date_to=2000-01-01`)
        .set(bearer(admin));
      expect(old.body.data).toEqual([]);
      const future = await api().get(`/api/v1/inventory/movements?date_from=2999-01-01`).set(bearer(admin));
      expect(future.body.meta.total).toBe(0);
    });

    it('shows a store user only the movements of warehouses serving their stores', async () => {
      const res = await api()
        .get(`/api/v1/inventory/movements?item_id=${item('GRO-003')}`)
        .set(bearer(cashier));
      expect(res.status).toBe(200);
      expect(new Set(res.body.data.map((m: Movement) => m.warehouse_id))).toEqual(new Set([ids.warehouse.DT, ids.warehouse.CENTRAL]));
      const asManager = await api()
        .get(`/api/v1/inventory/movements?item_id=${item('GRO-003')}`)
        .set(bearer(manager));
      expect(asManager.body.data.some((m: Movement) => m.warehouse_id === ids.warehouse.AP)).toBe(true);
    });

    it('paginates (max 200) and validates its filters (422)', async () => {
      const p = await api().get('/api/v1/inventory/movements?per_page=5000').set(bearer(admin));
      expect(p.body.meta.per_page).toBe(200);
      const p2 = await api().get('/api/v1/inventory/movements?per_page=2&page=2').set(bearer(admin));
      expect(p2.body.meta).toMatchObject({ current_page: 2, per_page: 2 });
      expect(p2.body.data).toHaveLength(2);
      for (const bad of [
        'date_from=yesterday',
        'date_to=2024-13-45',
        'item_id=abc',
        'warehouse_id=0',
        `type=${LONG}`,
        'per_page=0',
        `item_id=${encodeURIComponent("1' OR '1'='1")}`,
      ]) {
        const res = await api().get(`/api/v1/inventory/movements?${bad}`).set(bearer(admin));
        expectErrorEnvelope(res, 422);
        expect(Object.keys(res.body.errors)).toEqual([bad.split('=')[0]]);
      }
      const sqlType = await api()
        .get(`/api/v1/inventory/movements?type=${encodeURIComponent("x' OR '1'='1")}`)
        .set(bearer(admin));
      expect(sqlType.status).toBe(200);
      expect(sqlType.body.data).toEqual([]);
    });
  });

  describe('ledger invariant', () => {
    it('keeps every stock level equal to the sum of its movements', async () => {
      const rows = await t.db.query(
        'SELECT s.item_id, s.warehouse_id, s.quantity, (SELECT COALESCE(SUM(m.quantity), 0) FROM stock_movements m WHERE m.item_id = s.item_id AND m.warehouse_id = s.warehouse_id) AS ledger FROM stock_levels s',
      );
      expect(rows.length).toBeGreaterThanOrEqual(96);
      const mismatched = rows.filter((r: { quantity: unknown; ledger: unknown }) => Number(r.quantity) !== Number(r.ledger));
      expect(mismatched).toEqual([]);
      const balances = await t.db.query(
        'SELECT m.item_id, m.warehouse_id, m.balance_after, s.quantity FROM stock_movements m JOIN stock_levels s ON s.item_id = m.item_id AND s.warehouse_id = m.warehouse_id WHERE m.id = (SELECT MAX(m2.id) FROM stock_movements m2 WHERE m2.item_id = m.item_id AND m2.warehouse_id = m.warehouse_id)',
      );
      expect(balances.filter((r: { balance_after: unknown; quantity: unknown }) => Number(r.balance_after) !== Number(r.quantity))).toEqual([]);
    });
  });
});
