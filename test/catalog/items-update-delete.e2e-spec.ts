import { bearer, expectErrorEnvelope, TestApp } from '../support/test-app';
import { DemoIds, demoBarcode, HOSTILE_IDS, LONG } from './catalog-helpers';
import { bootItems, CASE_BARCODE, ItemRow, itemsTools } from './items-helpers';

/** Items: update and soft delete. Setup and the helpers are in items-helpers.ts. */
describe('Catalog items', () => {
  let t: TestApp;
  let manager: string;
  let cashier: string;
  let ids: DemoIds;

  const { api, list, create, update, names } = itemsTools(() => ({ t, manager, cashier }));

  beforeAll(async () => {
    ({ t, manager, cashier, ids } = await bootItems());
  });
  afterAll(() => t.close());

  describe('PUT /items/{item}', () => {
    let item: ItemRow;

    beforeAll(async () => {
      const res = await create({
        sku: 'UPD-001',
        name: 'Update Me',
        base_price: 3,
        category_id: ids.category.snacks,
        barcodes: ['6000000000017'],
        units: [{ name: 'box', factor: 10, barcode: '6000000000024' }],
      });
      expect(res.status).toBe(201);
      item = res.body.data;
    });

    it('changes only the fields given; barcodes and units stay unless given', async () => {
      const res = await update(item.id, { name: 'Updated Name', base_price: 3.5, description: 'now with more' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        id: item.id,
        sku: 'UPD-001',
        name: 'Updated Name',
        base_price: 3.5,
        description: 'now with more',
        category_id: ids.category.snacks,
        barcodes: ['6000000000017'],
      });
      expect(res.body.data.units.map((u: { name: string; barcode: string }) => [u.name, u.barcode])).toEqual([['box', '6000000000024']]);
      const shown = await api().get(`/api/v1/items/${item.id}`).set(bearer(cashier));
      expect(shown.body.data).toMatchObject({ name: 'Updated Name', base_price: 3.5 });
    });

    it('replaces barcodes and units when given, and frees the old codes', async () => {
      const res = await update(item.id, { barcodes: ['6000000000031'], units: [{ name: 'crate', factor: 20, price: 55, barcode: '6000000000048' }] });
      expect(res.status).toBe(200);
      expect(res.body.data.barcodes).toEqual(['6000000000031']);
      expect(res.body.data.units).toEqual([{ id: expect.any(Number), name: 'crate', factor: 20, price: 55, barcode: '6000000000048' }]);
      expect((await list('?q=6000000000017')).body.data).toEqual([]);
      expect(names(await list('?q=6000000000048'))).toEqual(['Updated Name']);
      // The freed code can go to another item now.
      const other = await create({ sku: 'UPD-002', name: 'Reuses old code', base_price: 1, barcodes: ['6000000000017'] });
      expect(other.status).toBe(201);
      const cleared = await update(item.id, { barcodes: [], units: [], category_id: null });
      expect(cleared.status).toBe(200);
      expect(cleared.body.data).toMatchObject({ barcodes: [], units: [], category_id: null, category: null });
      expect(Number((await t.db.query('SELECT COUNT(*) AS n FROM item_units WHERE item_id = ?', [item.id]))[0].n)).toBe(0);
    });

    it("keeps its own SKU and barcodes without a clash, but refuses another item's (422)", async () => {
      const own = await update(ids.item['BEV-002'], { sku: 'BEV-002', barcodes: [demoBarcode(1)] });
      expect(own.status).toBe(200);
      const sku = await update(item.id, { sku: 'BEV-001' });
      expectErrorEnvelope(sku, 422);
      expect(sku.body.errors.sku).toEqual(['The sku has already been taken.']);
      const code = await update(item.id, { barcodes: [demoBarcode(3)] });
      expectErrorEnvelope(code, 422);
      expect(code.body.errors['barcodes.0']).toBeDefined();
      const unitCode = await update(item.id, { units: [{ name: 'case', factor: 12, barcode: CASE_BARCODE }] });
      expect(unitCode.status).toBe(422);
      expect(unitCode.body.errors['units.0.barcode']).toBeDefined();
      const [row] = await t.db.query('SELECT sku FROM items WHERE id = ?', [item.id]);
      expect(row.sku).toBe('UPD-001');
    });

    it('validates types and ranges (422), with nothing changed', async () => {
      const res = await update(item.id, { name: LONG, base_price: -5, is_active: 'nope', reorder_level: 'ten', category_id: 999999 });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors).sort()).toEqual(['base_price', 'is_active', 'name', 'reorder_level']);
      const ref = await update(item.id, { category_id: 999999 });
      expect(ref.status).toBe(422);
      expect(ref.body.errors.category_id).toBeDefined();
      const [row] = await t.db.query('SELECT name, base_price FROM items WHERE id = ?', [item.id]);
      expect(row.name).toBe('Updated Name');
      expect(Number(row.base_price)).toBe(350);
    });

    it('changes serial tracking only while the item has no stock (409 otherwise, nothing changed)', async () => {
      const receive = (body: Record<string, unknown>) =>
        api()
          .post('/api/v1/inventory/adjustments')
          .set(bearer(manager))
          .send({ type: 'receive', warehouse_id: 1, items: [body] });
      // units without serials: tracking them by serial would leave them unsellable
      expect((await receive({ item_id: item.id, quantity: 3 })).status).toBe(201);
      const on = await update(item.id, { is_serial_tracked: true });
      expectErrorEnvelope(on, 409);
      expect(on.body.code).toBe('item_has_stock');
      expect((await api().get(`/api/v1/items/${item.id}`).set(bearer(manager))).body.data.is_serial_tracked).toBe(false);
      // counted to zero: tracked from now on, then serials in stock: no way back until they are gone
      const zero = await api()
        .post('/api/v1/inventory/adjustments')
        .set(bearer(manager))
        .send({ type: 'count', warehouse_id: 1, items: [{ item_id: item.id, quantity: 0 }] });
      expect(zero.status).toBe(201);
      expect((await update(item.id, { is_serial_tracked: true })).status).toBe(200);
      expect((await receive({ item_id: item.id, quantity: 1, serial_numbers: ['UPD-SN-1'] })).status).toBe(201);
      expectErrorEnvelope(await update(item.id, { is_serial_tracked: false }), 409);
      expect((await update(item.id, { is_serial_tracked: true })).status).toBe(200); // unchanged flag: no check
      const written = await api()
        .post('/api/v1/inventory/adjustments')
        .set(bearer(manager))
        .send({ type: 'damage', warehouse_id: 1, items: [{ item_id: item.id, quantity: 1, serial_numbers: ['UPD-SN-1'] }] });
      expect(written.status).toBe(201);
      expect((await update(item.id, { is_serial_tracked: false })).status).toBe(200);
    });

    it('answers unknown and hostile ids with 404 and a cashier with 403', async () => {
      expectErrorEnvelope(await update(999999, { name: 'Ghost' }), 404);
      for (const id of ["1' OR '1'='1", 'abc', '-1', '0', LONG]) expectErrorEnvelope(await update(encodeURIComponent(id), { name: 'Ghost' }), 404);
      expectErrorEnvelope(await update(item.id, { name: 'By cashier' }, cashier), 403);
      const [row] = await t.db.query('SELECT name FROM items WHERE id = ?', [item.id]);
      expect(row.name).toBe('Updated Name');
    });
  });

  describe('DELETE /items/{item}', () => {
    let gone: ItemRow;

    beforeAll(async () => {
      const res = await create({
        sku: 'DEL-001',
        name: 'Doomed Widget',
        base_price: 4,
        category_id: ids.category.household,
        barcodes: ['7000000000016'],
        units: [{ name: 'pack', factor: 3, barcode: '7000000000023' }],
      });
      expect(res.status).toBe(201);
      gone = res.body.data;
    });

    it('needs catalog.manage (403 for a cashier)', async () => {
      expectErrorEnvelope(await api().delete(`/api/v1/items/${gone.id}`).set(bearer(cashier)), 403);
      expect((await api().get(`/api/v1/items/${gone.id}`).set(bearer(cashier))).body.data.deleted_at).toBeNull();
    });

    it('soft-deletes: still readable by id with deleted_at, gone from lists and POS search, tombstoned', async () => {
      const del = await api().delete(`/api/v1/items/${gone.id}`).set(bearer(manager));
      expect(del.status).toBe(200);
      expect(del.body).toEqual({ success: true, message: 'Item deleted.' });

      const shown = await api().get(`/api/v1/items/${gone.id}`).set(bearer(cashier));
      expect(shown.status).toBe(200);
      expect(shown.body.data).toMatchObject({ id: gone.id, sku: 'DEL-001', name: 'Doomed Widget', barcodes: ['7000000000016'] });
      expect(typeof shown.body.data.deleted_at).toBe('string');
      expect(Number.isNaN(Date.parse(shown.body.data.deleted_at))).toBe(false);

      for (const q of ['Doomed', 'DEL-001', '7000000000016', '7000000000023']) {
        expect((await list(`?q=${q}`)).body.data).toEqual([]);
        const pos = await api().get(`/api/v1/pos/products/search?q=${q}&store_id=${ids.store.DT}`).set(bearer(cashier));
        expect(pos.status).toBe(200);
        expect(pos.body.data).toEqual([]);
      }
      expect((await list('?per_page=100')).body.data.map((i: ItemRow) => i.id)).not.toContain(gone.id);
      expectErrorEnvelope(await api().get(`/api/v1/pos/products/${gone.id}`).set(bearer(cashier)), 404);

      const tomb = await t.db.query("SELECT entity, entity_id FROM tombstones WHERE entity = 'item' AND entity_id = ?", [gone.id]);
      expect(tomb).toHaveLength(1);
      const [row] = await t.db.query('SELECT deleted_at FROM items WHERE id = ?', [gone.id]);
      expect(row.deleted_at).not.toBeNull();
    });

    it("keeps the deleted item's SKU and barcodes reserved, but frees its name", async () => {
      const sku = await create({ sku: 'DEL-001', name: 'Reborn', base_price: 1 });
      expect(sku.status).toBe(422);
      expect(sku.body.errors.sku).toBeDefined();
      const code = await create({ sku: 'DEL-002', name: 'Reborn', base_price: 1, barcodes: ['7000000000016'] });
      expect(code.status).toBe(422);
      expect(code.body.errors['barcodes.0']).toBeDefined();
      const name = await api().get('/api/v1/items/check-name?name=Doomed%20Widget').set(bearer(cashier));
      expect(name.body.data).toEqual({ name: 'Doomed Widget', available: true, existing_id: null });
    });

    it('answers a second delete, an update of the deleted item, unknown and hostile ids with 404', async () => {
      expectErrorEnvelope(await api().delete(`/api/v1/items/${gone.id}`).set(bearer(manager)), 404);
      expectErrorEnvelope(await update(gone.id, { name: 'Zombie' }), 404);
      expect(Number((await t.db.query("SELECT COUNT(*) AS n FROM tombstones WHERE entity = 'item' AND entity_id = ?", [gone.id]))[0].n)).toBe(1);
      expectErrorEnvelope(await api().delete('/api/v1/items/999999').set(bearer(manager)), 404);
      for (const id of HOSTILE_IDS)
        expectErrorEnvelope(
          await api()
            .delete(`/api/v1/items/${encodeURIComponent(id)}`)
            .set(bearer(manager)),
          404,
        );
      expect(Number((await t.db.query('SELECT COUNT(*) AS n FROM items WHERE deleted_at IS NOT NULL'))[0].n)).toBe(1);
    });
  });
});
