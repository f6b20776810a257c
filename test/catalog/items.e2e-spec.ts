import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';
import { DemoIds, demoBarcode, demoIds, expectNo5xx, HOSTILE_IDS, LONG } from './catalog-helpers';

interface ItemRow {
  id: number;
  sku: string;
  name: string;
  barcodes: string[];
  units: { id: number; name: string; factor: number; price: number | null; barcode: string | null }[];
}

const CASE_BARCODE = '14006381333907';

/** Items (contract 4.2 and 8): list/search/paginate, show, check-name, create, update, soft delete. */
describe('Catalog items', () => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let cashier: string;
  let ids: DemoIds;

  const api = () => request(t.http);
  const list = (query: string, token = cashier) => api().get(`/api/v1/items${query}`).set(bearer(token));
  const create = (body: Record<string, unknown>, token = manager) => api().post('/api/v1/items').set(bearer(token)).send(body);
  const update = (id: number | string, body: Record<string, unknown>, token = manager) => api().put(`/api/v1/items/${id}`).set(bearer(token)).send(body);
  const names = (res: request.Response) => (res.body.data as ItemRow[]).map((i) => i.name);
  const countSku = async (sku: string) => Number((await t.db.query('SELECT COUNT(*) AS n FROM items WHERE sku = ?', [sku]))[0].n);

  beforeAll(async () => {
    t = await startTestApp();
    [admin, manager, cashier] = await Promise.all([login(t, DEMO.admin), login(t, DEMO.manager), login(t, DEMO.cashier)]);
    ids = await demoIds(t);
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

  describe('POST /items', () => {
    it('creates an item (201) with barcodes, units, category, tax class and warehouse reorder levels', async () => {
      const [tax] = await t.db.query("SELECT id FROM tax_classes WHERE code = 'standard'");
      const res = await create({
        sku: ' NEW-001 ',
        name: ' Lemonade 330ml ',
        description: 'Fresh',
        category_id: ids.category.beverages,
        base_price: 2.49,
        cost: 0.29,
        tax_class_id: Number(tax.id),
        base_unit: 'can',
        reorder_level: 12,
        reorder_quantity: 48,
        barcodes: [' 5000000000011 ', '5000000000028'],
        units: [
          { name: ' six-pack ', factor: 6, price: 13.5, barcode: '5000000000035' },
          { name: 'tray', factor: 24 },
        ],
        warehouse_reorder_levels: [{ warehouse_id: ids.warehouse.DT, reorder_level: 3 }],
      });
      expect(res.status).toBe(201);
      expect(res.body.success).toBe(true);
      const d = res.body.data;
      expect(d).toMatchObject({
        sku: 'NEW-001',
        name: 'Lemonade 330ml',
        description: 'Fresh',
        category: { id: ids.category.beverages, name: 'Beverages' },
        base_price: 2.49,
        cost: 0.29,
        tax_class_id: Number(tax.id),
        tax_class: { code: 'standard' },
        base_unit: 'can',
        is_active: true,
        is_serial_tracked: false,
        reorder_level: 12,
        reorder_quantity: 48,
        barcodes: ['5000000000011', '5000000000028'],
        deleted_at: null,
      });
      expect(d.units).toEqual([
        { id: expect.any(Number), name: 'six-pack', factor: 6, price: 13.5, barcode: '5000000000035' },
        { id: expect.any(Number), name: 'tray', factor: 24, price: null, barcode: null },
      ]);
      expect(d.stock).toEqual([{ warehouse_id: ids.warehouse.DT, quantity: 0, reorder_level: 3, stock_status: 'out' }]);

      const [row] = await t.db.query('SELECT base_price, cost, deleted_at FROM items WHERE id = ?', [d.id]);
      expect(Number(row.base_price)).toBe(249);
      expect(Number(row.cost)).toBe(29);
      const codes = await t.db.query('SELECT barcode, item_unit_id FROM item_barcodes WHERE item_id = ? ORDER BY barcode', [d.id]);
      expect(codes.map((c: { barcode: string }) => c.barcode)).toEqual(['5000000000011', '5000000000028', '5000000000035']);
      expect(codes.filter((c: { item_unit_id: number | null }) => c.item_unit_id !== null)).toHaveLength(1);

      const found = await list('?q=5000000000035');
      expect(names(found)).toEqual(['Lemonade 330ml']);
      expect(names(await list('?q=NEW-0'))).toEqual(['Lemonade 330ml']);
    });

    it('creates a minimal item with defaults', async () => {
      const res = await create({ sku: 'MIN-001', name: 'Minimal', base_price: 0 }, admin);
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        sku: 'MIN-001',
        base_price: 0,
        cost: 0,
        base_unit: 'each',
        category: null,
        tax_class: null,
        is_active: true,
        reorder_level: 0,
        barcodes: [],
        units: [],
        stock: [],
      });
      const fromString = await create({ sku: 'MIN-002', name: 'Minimal string price', base_price: '12.5' });
      expect(fromString.status).toBe(201);
      expect(fromString.body.data.base_price).toBe(12.5);
    });

    it('refuses a SKU that is taken (also after trimming) with 422 errors.sku', async () => {
      for (const sku of ['BEV-001', '  BEV-001  ']) {
        const res = await create({ sku, name: 'Clone', base_price: 1 });
        expectErrorEnvelope(res, 422, 'The given data was invalid.');
        expect(res.body.errors.sku).toEqual(['The sku has already been taken.']);
      }
      expect(Number((await t.db.query("SELECT COUNT(*) AS n FROM items WHERE name = 'Clone'"))[0].n)).toBe(0);
    });

    it('refuses a barcode used by another item or unit, or listed twice, with 422 naming the entry', async () => {
      const base = await create({ sku: 'DUP-001', name: 'Dup 1', base_price: 1, barcodes: ['5999999999999', demoBarcode(0)] });
      expectErrorEnvelope(base, 422);
      expect(Object.keys(base.body.errors)).toEqual(['barcodes.1']);
      const caseCode = await create({ sku: 'DUP-001', name: 'Dup 1', base_price: 1, barcodes: [CASE_BARCODE] });
      expect(caseCode.body.errors['barcodes.0']).toBeDefined();
      const unit = await create({ sku: 'DUP-001', name: 'Dup 1', base_price: 1, units: [{ name: 'box', factor: 6, barcode: demoBarcode(5) }] });
      expectErrorEnvelope(unit, 422);
      expect(Object.keys(unit.body.errors)).toEqual(['units.0.barcode']);
      const twice = await create({ sku: 'DUP-001', name: 'Dup 1', base_price: 1, barcodes: ['5999999999998', '5999999999998'] });
      expect(twice.status).toBe(422);
      expect(twice.body.errors['barcodes.1']).toBeDefined();
      const unitTwice = await create({
        sku: 'DUP-001',
        name: 'Dup 1',
        base_price: 1,
        barcodes: ['5999999999997'],
        units: [{ name: 'box', factor: 6, barcode: '5999999999997' }],
      });
      expect(unitTwice.status).toBe(422);
      expect(unitTwice.body.errors['units.0.barcode']).toBeDefined();
      const unitNames = await create({
        sku: 'DUP-001',
        name: 'Dup 1',
        base_price: 1,
        units: [
          { name: 'Box', factor: 6 },
          { name: 'box', factor: 12 },
        ],
      });
      expect(unitNames.status).toBe(422);
      expect(unitNames.body.errors['units.1.name']).toBeDefined();
      expect(await countSku('DUP-001')).toBe(0);
      expect(Number((await t.db.query("SELECT COUNT(*) AS n FROM item_barcodes WHERE barcode LIKE '59999999999%'"))[0].n)).toBe(0);
    });

    it('validates required fields, types, lengths and ranges (422 naming each field)', async () => {
      const missing = await create({});
      expectErrorEnvelope(missing, 422, 'The given data was invalid.');
      expect(missing.body.errors).toMatchObject({
        sku: ['The sku field is required.'],
        name: ['The name field is required.'],
        base_price: ['The base_price field is required.'],
      });

      const wrong = await create({
        sku: 12,
        name: ['x'],
        base_price: 'abc',
        cost: -1,
        is_active: 'yes',
        category_id: 'abc',
        reorder_level: -1,
        barcodes: 'x',
        units: {},
      });
      expectErrorEnvelope(wrong, 422);
      expect(Object.keys(wrong.body.errors)).toEqual(
        expect.arrayContaining(['barcodes', 'base_price', 'category_id', 'cost', 'is_active', 'name', 'reorder_level', 'sku', 'units']),
      );

      const ranges = await create({
        sku: LONG,
        name: LONG,
        description: LONG,
        base_price: 1e12,
        cost: 1.234,
        base_unit: LONG,
        reorder_quantity: 10_000_001,
        barcodes: [LONG],
      });
      expect(ranges.status).toBe(422);
      expect(Object.keys(ranges.body.errors).sort()).toEqual(['barcodes', 'base_price', 'base_unit', 'cost', 'description', 'name', 'reorder_quantity', 'sku']);

      const negative = await create({ sku: 'NEG-1', name: 'Negative', base_price: -0.01 });
      expect(negative.status).toBe(422);
      expect(Object.keys(negative.body.errors)).toEqual(['base_price']);

      const units = await create({
        sku: 'UNIT-1',
        name: 'Units',
        base_price: 1,
        units: [{ name: 'single', factor: 1 }, { factor: 6 }, { name: 'big', factor: 'x', price: -2 }, null],
      });
      expect(units.status).toBe(422);
      expect(units.body.errors['units.0.factor']).toBeDefined();
      expect(units.body.errors['units.1.name']).toBeDefined();
      expect(units.body.errors['units.2.factor']).toBeDefined();
      expect(units.body.errors['units.2.price']).toBeDefined();
      expect(units.body.errors['units.3']).toBeDefined();

      const refs = await create({
        sku: 'REF-1',
        name: 'Refs',
        base_price: 1,
        category_id: 999999,
        tax_class_id: 999999,
        warehouse_reorder_levels: [{ warehouse_id: 999999, reorder_level: 2 }],
      });
      expect(refs.status).toBe(422);
      expect(refs.body.errors).toEqual({
        category_id: ['The selected category does not exist.'],
        tax_class_id: ['The selected tax class does not exist.'],
        'warehouse_reorder_levels.0.warehouse_id': ['The selected warehouse does not exist.'],
      });
      const sqlRef = await create({ sku: 'REF-1', name: 'Refs', base_price: 1, category_id: "1' OR '1'='1" });
      expect(sqlRef.status).toBe(422);
      expect(Object.keys(sqlRef.body.errors)).toEqual(['category_id']);
      for (const sku of ['NEG-1', 'UNIT-1', 'REF-1']) expect(await countSku(sku)).toBe(0);
    });

    it('refuses a blank (whitespace-only) SKU, name, barcode or unit name with 422', async () => {
      const blank = await create({ sku: '   ', name: '   ', base_price: 1 });
      expectErrorEnvelope(blank, 422);
      expect(blank.body.errors.sku).toBeDefined();
      expect(blank.body.errors.name).toBeDefined();
      const blankBarcode = await create({ sku: 'BLANK-1', name: 'Blank barcode', base_price: 1, barcodes: ['   '] });
      expectErrorEnvelope(blankBarcode, 422);
      expect(blankBarcode.body.errors['barcodes'] ?? blankBarcode.body.errors['barcodes.0']).toBeDefined(); // element rules of string arrays are keyed by the array
      const blankUnit = await create({ sku: 'BLANK-2', name: 'Blank unit', base_price: 1, units: [{ name: '  ', factor: 6 }] });
      expectErrorEnvelope(blankUnit, 422);
      expect(blankUnit.body.errors['units.0.name']).toBeDefined();
      expect(Number((await t.db.query("SELECT COUNT(*) AS n FROM items WHERE sku = '' OR name = ''"))[0].n)).toBe(0);
      expect(Number((await t.db.query("SELECT COUNT(*) AS n FROM item_barcodes WHERE barcode = ''"))[0].n)).toBe(0);
    });

    it('never answers a barcode that differs only in letter case with a 5xx', async () => {
      const first = await create({ sku: 'CASE-A', name: 'Case A', base_price: 1, barcodes: ['ABC-CASE-1'] });
      expect(first.status).toBe(201);
      const second = await create({ sku: 'CASE-B', name: 'Case B', base_price: 1, barcodes: ['abc-case-1'] });
      expectNo5xx(second, [201, 422]);
      if (second.status === 422) expect(second.body.errors['barcodes.0']).toBeDefined();
      const both = await create({ sku: 'CASE-C', name: 'Case C', base_price: 1, barcodes: ['xyz-case-2', 'XYZ-CASE-2'] });
      expectNo5xx(both, [201, 422]);
      if (both.status === 422) expect(both.body.errors['barcodes.1']).toBeDefined();
    });

    it('lets exactly one of several simultaneous creates with the same SKU win; the others get 422', async () => {
      const results = await Promise.all([1, 2, 3, 4].map((n) => create({ sku: 'RACE-001', name: `Race ${n}`, base_price: 1 })));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 422, 422, 422]);
      for (const r of results.filter((x) => x.status === 422)) expect(r.body.errors.sku).toBeDefined();
      expect(await countSku('RACE-001')).toBe(1);
    });

    it('needs catalog.manage (403 for a cashier) and writes nothing', async () => {
      const res = await create({ sku: 'CSH-001', name: 'Cashier item', base_price: 1 }, cashier);
      expectErrorEnvelope(res, 403);
      expect(await countSku('CSH-001')).toBe(0);
      expectErrorEnvelope(await api().post('/api/v1/items').send({ sku: 'ANON-1', name: 'Anon', base_price: 1 }), 401);
    });
  });

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
