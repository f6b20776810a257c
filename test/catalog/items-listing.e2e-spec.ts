import { bearer, expectErrorEnvelope, TestApp } from '../support/test-app';
import { DemoIds, demoBarcode, expectNo5xx, HOSTILE_IDS, LONG } from './catalog-helpers';
import { bootItems, CASE_BARCODE, ItemRow, itemsTools } from './items-helpers';

/**
 * Items: list, search and paginate, show one, its serial numbers, check a name; on the seed as it is.
 * Setup and the helpers are in items-helpers.ts.
 */
describe('Catalog items', () => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let cashier: string;
  let ids: DemoIds;

  const { api, list, names } = itemsTools(() => ({ t, manager, cashier }));

  beforeAll(async () => {
    ({ t, admin, manager, cashier, ids } = await bootItems());
  });
  afterAll(() => t.close());

  describe('GET /items', () => {
    it('lists every non-deleted item by name with details, 50 per page by default', async () => {
      const res = await list('');
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(res.body.meta).toEqual({ current_page: 1, last_page: 1, per_page: 50, total: 32 });
      expect(res.body.data).toHaveLength(32);
      const sorted = [...names(res)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      expect(names(res)).toEqual(sorted);
      const water = res.body.data.find((i: ItemRow) => i.sku === 'BEV-001');
      expect(water).toMatchObject({
        id: ids.item['BEV-001'],
        name: 'Still Water 500ml',
        category_id: ids.category.beverages,
        category: { id: ids.category.beverages, name: 'Beverages' },
        base_price: 1.29,
        cost: 0.4,
        base_unit: 'each',
        is_active: true,
        is_serial_tracked: false,
        reorder_level: 10,
        reorder_quantity: 40,
        barcodes: [demoBarcode(0)],
        deleted_at: null,
      });
      expect(water.units).toEqual([{ id: expect.any(Number), name: 'case', factor: 12, price: 13.99, barcode: CASE_BARCODE }]);
      expect(res.body.data.find((i: ItemRow) => i.sku === 'ELC-002')).toMatchObject({ is_serial_tracked: true, base_price: 49.99 });
    });

    it('filters by is_active and category_id', async () => {
      const active = await list('?is_active=true');
      expect(active.body.meta.total).toBe(31);
      expect(names(active)).not.toContain('Gift Card Sleeve');
      const inactive = await list('?is_active=false');
      expect(names(inactive)).toEqual(['Gift Card Sleeve']);
      expect(inactive.body.data[0]).toMatchObject({ sku: 'SNK-006', is_active: false, base_price: 0 });
      const coffee = await list(`?category_id=${ids.category.coffee}`);
      expect(names(coffee)).toEqual(['Espresso Beans 250g', 'Green Tea 20 bags', 'Ground Coffee 500g']);
      const none = await list('?category_id=999999');
      expect(none.status).toBe(200);
      expect(none.body.data).toEqual([]);
      expect(none.body.meta).toMatchObject({ total: 0, current_page: 1 });
    });

    it('paginates and clamps per_page at 100', async () => {
      const p4 = await list('?per_page=10&page=4');
      expect(p4.body.meta).toEqual({ current_page: 4, last_page: 4, per_page: 10, total: 32 });
      expect(p4.body.data).toHaveLength(2);
      const p1 = await list('?per_page=10&page=1');
      const p2 = await list('?per_page=10&page=2');
      const seen = new Set([...p1.body.data, ...p2.body.data, ...p4.body.data].map((i: ItemRow) => i.id));
      expect(seen.size).toBe(22);
      for (const per of ['101', '500', '1000000']) {
        const res = await list(`?per_page=${per}`);
        expect(res.status).toBe(200);
        expect(res.body.meta.per_page).toBe(100);
        expect(res.body.data).toHaveLength(32);
      }
      const exact = await list('?per_page=100');
      expect(exact.body.meta.per_page).toBe(100);
      const far = await list('?page=99');
      expect(far.status).toBe(200);
      expect(far.body.data).toEqual([]);
      expect(far.body.meta).toEqual({ current_page: 99, last_page: 1, per_page: 50, total: 32 });
    });

    it('rejects a bad per_page, page or filter with 422 naming it', async () => {
      for (const bad of [
        'per_page=0',
        'per_page=abc',
        'per_page=-1',
        'per_page=1.5',
        'page=0',
        'page=x',
        'is_active=maybe',
        'category_id=abc',
        'category_id=0',
        `category_id=${encodeURIComponent("1' OR '1'='1")}`,
        `q=${LONG}`,
        `search=${LONG}`,
      ]) {
        const res = await list(`?${bad}`);
        expectErrorEnvelope(res, 422, 'The given data was invalid.');
        expect(Object.keys(res.body.errors)).toEqual([bad.split('=')[0]]);
      }
    });

    it('searches name (a word starting with q, any case), SKU (prefix) and barcode (exact) with q', async () => {
      // The name index matches words and their prefixes (issue 12): choCOLAte has it inside a word, not at a word's start.
      expect(names(await list('?q=cola'))).toEqual(['Cola 330ml']);
      expect(names(await list('?q=choc'))).toEqual(['Chocolate Bar 100g']);
      expect(names(await list('?q=ater'))).toEqual([]);
      expect(names(await list(`?q=${encodeURIComponent('bar 1')}`))).toEqual(['Chocolate Bar 100g']); // across words
      expect(names(await list('?q=330'))).toEqual(['Cola 330ml']);
      expect(names(await list('?q=WATER'))).toEqual(['Sparkling Water 500ml', 'Still Water 500ml']);
      expect(names(await list(`?q=${encodeURIComponent('  Cola 330  ')}`))).toEqual(['Cola 330ml']);
      const skuPrefix = await list('?q=BEV-00');
      expect(skuPrefix.body.meta.total).toBe(5);
      expect((skuPrefix.body.data as ItemRow[]).map((i) => i.sku).sort()).toEqual(['BEV-001', 'BEV-002', 'BEV-003', 'BEV-004', 'BEV-005']);
      expect(names(await list('?q=ELC-003'))).toEqual(['Power Bank 10000mAh']);
      expect((await list('?q=EV-001')).body.data).toEqual([]); // SKU matches by prefix only
      expect(names(await list(`?q=${demoBarcode(2)}`))).toEqual(['Cola 330ml']);
      expect(names(await list(`?q=${demoBarcode(31)}`))).toEqual(['Gift Card Sleeve']);
      expect(names(await list(`?q=${CASE_BARCODE}`))).toEqual(['Still Water 500ml']);
      expect((await list(`?q=${demoBarcode(2).slice(0, 10)}`)).body.data).toEqual([]); // barcodes match exactly
      const combined = await list(`?q=water&is_active=true&category_id=${ids.category.beverages}&per_page=1`);
      expect(combined.body.meta).toEqual({ current_page: 1, last_page: 2, per_page: 1, total: 2 });
    });

    it('accepts the legacy search parameter (q wins when both are given)', async () => {
      expect(names(await list('?search=cola%20330'))).toEqual(['Cola 330ml']);
      expect(names(await list(`?search=${demoBarcode(0)}`))).toEqual(['Still Water 500ml']);
      expect(names(await list('?search=SNK-00&is_active=false'))).toEqual(['Gift Card Sleeve']);
      expect(names(await list('?q=cola%20330&search=pasta'))).toEqual(['Cola 330ml']);
      expect((await list('?search=')).body.meta.total).toBe(32);
    });

    it('takes LIKE wildcards and SQL-looking text literally, never a 5xx', async () => {
      for (const q of ['%', '_', '%%', '\\', "1' OR '1'='1", "'; DROP TABLE items; --", '"', '🍺']) {
        const res = await list(`?q=${encodeURIComponent(q)}`);
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual([]);
      }
      expectNo5xx(await list('?q=%00'), [200, 422]);
      const [{ n }] = await t.db.query('SELECT COUNT(*) AS n FROM items');
      expect(Number(n)).toBe(32);
      expect(names(await list(`?q=${encodeURIComponent('Free Range')}`))).toEqual(['Free Range Eggs x12']);
    });

    it('needs items.view (401 without a token)', async () => {
      expectErrorEnvelope(await api().get('/api/v1/items'), 401, 'Unauthorized.');
    });
  });

  describe('GET /items/{item}', () => {
    it("returns the item with barcodes, units, tax class and stock in the user's warehouses only", async () => {
      const res = await api().get(`/api/v1/items/${ids.item['BEV-001']}`).set(bearer(cashier));
      expect(res.status).toBe(200);
      const d = res.body.data;
      expect(d).toMatchObject({
        id: ids.item['BEV-001'],
        sku: 'BEV-001',
        name: 'Still Water 500ml',
        base_price: 1.29,
        barcodes: [demoBarcode(0)],
        deleted_at: null,
      });
      expect(d.units).toEqual([{ id: expect.any(Number), name: 'case', factor: 12, price: 13.99, barcode: CASE_BARCODE }]);
      expect(d.tax_class).toMatchObject({ code: 'reduced', name: 'Reduced rate (food)' });
      expect(d.stock).toEqual([
        { warehouse_id: ids.warehouse.DT, quantity: 50, reorder_level: 10, stock_status: 'in_stock' },
        { warehouse_id: ids.warehouse.CENTRAL, quantity: 200, reorder_level: 10, stock_status: 'in_stock' },
      ]);
      const asAdmin = await api().get(`/api/v1/items/${ids.item['BEV-001']}`).set(bearer(admin));
      expect(asAdmin.body.data.stock.map((s: { warehouse_id: number; quantity: number }) => [s.warehouse_id, s.quantity])).toEqual([
        [ids.warehouse.DT, 50],
        [ids.warehouse.AP, 30],
        [ids.warehouse.CENTRAL, 200],
      ]);
      const serial = await api().get(`/api/v1/items/${ids.item['ELC-005']}`).set(bearer(cashier));
      expect(serial.body.data).toMatchObject({ is_serial_tracked: true, tax_class: { code: 'standard' } });
      expect(serial.body.data.stock.every((s: { quantity: number; stock_status: string }) => s.quantity === 5 && s.stock_status === 'low')).toBe(true);
      const inactive = await api().get(`/api/v1/items/${ids.item['SNK-006']}`).set(bearer(cashier));
      expect(inactive.status).toBe(200);
      expect(inactive.body.data.is_active).toBe(false);
    });

    it('answers unknown and hostile ids with 404', async () => {
      expectErrorEnvelope(await api().get('/api/v1/items/999999').set(bearer(cashier)), 404);
      for (const id of HOSTILE_IDS)
        expectErrorEnvelope(
          await api()
            .get(`/api/v1/items/${encodeURIComponent(id)}`)
            .set(bearer(cashier)),
          404,
        );
    });
  });

  describe('GET /items/{item}/serial-numbers', () => {
    it('lists the serial numbers of a serial-tracked item, filtered by warehouse and status', async () => {
      const res = await api().get(`/api/v1/items/${ids.item['ELC-002']}/serial-numbers?warehouse_id=${ids.warehouse.DT}`).set(bearer(cashier));
      expect(res.status).toBe(200);
      expect(res.body.data.map((s: { serial: string }) => s.serial)).toEqual([1, 2, 3, 4, 5].map((n) => `ELC-002-${ids.warehouse.DT}-000${n}`));
      expect(res.body.data[0]).toMatchObject({ id: expect.any(Number), status: 'in_stock', warehouse_id: ids.warehouse.DT, sale_id: null });
      const inStock = await api()
        .get(`/api/v1/items/${ids.item['ELC-002']}/serial-numbers?status=in_stock&warehouse_id=${ids.warehouse.CENTRAL}`)
        .set(bearer(cashier));
      expect(inStock.body.data).toHaveLength(5);
      const sold = await api().get(`/api/v1/items/${ids.item['ELC-002']}/serial-numbers?status=sold`).set(bearer(cashier));
      expect(sold.body.data).toEqual([]);
      const all = await api().get(`/api/v1/items/${ids.item['ELC-003']}/serial-numbers`).set(bearer(admin));
      expect(all.body.data).toHaveLength(15);
      const plain = await api().get(`/api/v1/items/${ids.item['BEV-001']}/serial-numbers`).set(bearer(cashier));
      expect(plain.status).toBe(200);
      expect(plain.body.data).toEqual([]);
    });

    it("shows a store user only the serials in their stores' warehouses", async () => {
      // The cashier works in Downtown: DT-MAIN and CENTRAL serve it, AP-MAIN does not.
      const res = await api().get(`/api/v1/items/${ids.item['ELC-003']}/serial-numbers`).set(bearer(cashier));
      expect(res.status).toBe(200);
      const warehouses = new Set(res.body.data.map((s: { warehouse_id: number }) => s.warehouse_id));
      expect([...warehouses].sort()).toEqual([ids.warehouse.DT, ids.warehouse.CENTRAL].sort());
      expect(res.body.data).toHaveLength(10);
    });

    it("answers another store's warehouse with 403, bad filters with 422, unknown items with 404", async () => {
      expectErrorEnvelope(await api().get(`/api/v1/items/${ids.item['ELC-002']}/serial-numbers?warehouse_id=${ids.warehouse.AP}`).set(bearer(cashier)), 403);
      for (const bad of ['status=lost', 'warehouse_id=abc', `warehouse_id=${encodeURIComponent("1' OR '1'='1")}`, `status=${LONG}`]) {
        const res = await api().get(`/api/v1/items/${ids.item['ELC-002']}/serial-numbers?${bad}`).set(bearer(cashier));
        expectErrorEnvelope(res, 422);
        expect(res.body.errors[bad.split('=')[0]]).toBeDefined();
      }
      const unknownWarehouse = await api().get(`/api/v1/items/${ids.item['ELC-002']}/serial-numbers?warehouse_id=999999`).set(bearer(cashier));
      expectErrorEnvelope(unknownWarehouse, 422);
      expect(unknownWarehouse.body.errors.warehouse_id).toBeDefined();
      expectErrorEnvelope(await api().get('/api/v1/items/999999/serial-numbers').set(bearer(cashier)), 404);
      for (const id of ["1' OR '1'='1", 'abc', '-1'])
        expectErrorEnvelope(
          await api()
            .get(`/api/v1/items/${encodeURIComponent(id)}/serial-numbers`)
            .set(bearer(cashier)),
          404,
        );
    });
  });

  describe('GET /items/check-name', () => {
    it('tells whether a name is free (case-insensitive), ignoring exclude_id', async () => {
      const taken = await api().get('/api/v1/items/check-name?name=Cola%20330ml').set(bearer(cashier));
      expect(taken.status).toBe(200);
      expect(taken.body.data).toEqual({ name: 'Cola 330ml', available: false, existing_id: ids.item['BEV-003'] });
      const upper = await api()
        .get(`/api/v1/items/check-name?name=${encodeURIComponent('  COLA 330ML ')}`)
        .set(bearer(cashier));
      expect(upper.body.data).toMatchObject({ available: false, existing_id: ids.item['BEV-003'] });
      const self = await api().get(`/api/v1/items/check-name?name=Cola%20330ml&exclude_id=${ids.item['BEV-003']}`).set(bearer(cashier));
      expect(self.body.data).toEqual({ name: 'Cola 330ml', available: true, existing_id: null });
      const other = await api().get(`/api/v1/items/check-name?name=Cola%20330ml&exclude_id=${ids.item['BEV-001']}`).set(bearer(cashier));
      expect(other.body.data.available).toBe(false);
      const free = await api().get('/api/v1/items/check-name?name=Brand%20New%20Thing').set(bearer(cashier));
      expect(free.body.data).toEqual({ name: 'Brand New Thing', available: true, existing_id: null });
      const wildcard = await api()
        .get(`/api/v1/items/check-name?name=${encodeURIComponent('%')}`)
        .set(bearer(cashier));
      expect(wildcard.body.data.available).toBe(true);
      const sql = await api()
        .get(`/api/v1/items/check-name?name=${encodeURIComponent("x' OR '1'='1")}`)
        .set(bearer(cashier));
      expect(sql.body.data.available).toBe(true);
    });

    it('validates name and exclude_id (422)', async () => {
      const missing = await api().get('/api/v1/items/check-name').set(bearer(cashier));
      expectErrorEnvelope(missing, 422, 'The given data was invalid.');
      expect(missing.body.errors.name).toEqual(['The name field is required.']);
      for (const bad of [`name=${LONG}`, 'name=Cola&exclude_id=abc', `name=Cola&exclude_id=${encodeURIComponent("1' OR '1'='1")}`, 'name=Cola&exclude_id=-4']) {
        const res = await api().get(`/api/v1/items/check-name?${bad}`).set(bearer(cashier));
        expectErrorEnvelope(res, 422);
        expect(Object.keys(res.body.errors)).toHaveLength(1);
      }
    });
  });
});
