import { bearer, expectErrorEnvelope, TestApp } from '../support/test-app';
import { DemoIds, expectNo5xx, HOSTILE_IDS, LONG } from './catalog-helpers';
import { bootInventory, InventoryRow, inventoryTools } from './inventory-helpers';

/**
 * Inventory (stock levels: the listing, its filters, and the reorder level events; runs on the seed as
 * it is). Setup and the helpers are in inventory-helpers.ts.
 */
describe('Inventory', () => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let cashier: string;
  let ids: DemoIds;

  const { api, adjust, inventory, item, expectStock, outbox } = inventoryTools(() => ({ t, manager, cashier, ids }));

  beforeAll(async () => {
    ({ t, admin, manager, cashier, ids } = await bootInventory());
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
});
