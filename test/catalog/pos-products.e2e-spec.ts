import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';
import { DemoIds, demoBarcode, demoIds, expectNo5xx, HOSTILE_IDS, LONG } from './catalog-helpers';

interface PosRow {
  id: number;
  sku: string;
  name: string;
  category_id: number | null;
  barcodes: string[];
  price: number;
  price_source: string;
  base_price: number;
  tax_class_id: number | null;
  is_serial_tracked: boolean;
  base_unit: string;
  units: { id: number; name: string; factor: number; price: number | null; barcode: string | null }[];
  stock: { warehouse_id: number | null; quantity: number; reorder_level: number; stock_status: string };
}

const CASE_BARCODE = '14006381333907';

/** POS product endpoints (contract 4.3): sellable items with live price and stock for a store and warehouse. */
describe('POS products', () => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let cashier: string;
  let ids: DemoIds;
  let promoId: number;
  let adapterId: number;

  const api = () => request(t.http);
  const products = (query: string, token = cashier) => api().get(`/api/v1/pos/products${query}`).set(bearer(token));
  const search = (query: string, token = cashier) => api().get(`/api/v1/pos/products/search${query}`).set(bearer(token));
  const skus = (res: request.Response) => (res.body.data as PosRow[]).map((r) => r.sku);

  beforeAll(async () => {
    t = await startTestApp();
    [admin, manager, cashier] = await Promise.all([login(t, DEMO.admin), login(t, DEMO.manager), login(t, DEMO.cashier)]);
    ids = await demoIds(t);
    // Decoys whose names start with another item's barcode or SKU: the exact match must still come first.
    const promo = await api()
      .post('/api/v1/items')
      .set(bearer(manager))
      .send({ sku: 'PROMO-1', name: `${demoBarcode(1)} Promo Pack`, base_price: 5 });
    const adapter = await api().post('/api/v1/items').set(bearer(manager)).send({ sku: 'ADP-1', name: 'ELC-001 Adapter', base_price: 7.5 });
    if (promo.status !== 201 || adapter.status !== 201) throw new Error(`decoys: ${promo.status} ${adapter.status}`);
    promoId = promo.body.data.id;
    adapterId = adapter.body.data.id;
  });
  afterAll(() => t.close());

  describe('GET /pos/products', () => {
    it("lists active items with price and stock of the token's store default warehouse", async () => {
      const res = await products('');
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      // 31 active demo items + the 2 created above; the inactive Gift Card Sleeve is not sellable.
      expect(res.body.meta).toEqual({ current_page: 1, last_page: 1, per_page: 50, total: 33 });
      expect(skus(res)).not.toContain('SNK-006');
      const water: PosRow = res.body.data.find((r: PosRow) => r.sku === 'BEV-001');
      expect(water).toEqual({
        id: ids.item['BEV-001'],
        sku: 'BEV-001',
        name: 'Still Water 500ml',
        category_id: ids.category.beverages,
        barcodes: [demoBarcode(0)],
        price: 1.29,
        price_source: 'base',
        base_price: 1.29,
        tax_class_id: expect.any(Number),
        is_serial_tracked: false,
        base_unit: 'each',
        units: [{ id: expect.any(Number), name: 'case', factor: 12, price: 13.99, barcode: CASE_BARCODE }],
        stock: { warehouse_id: ids.warehouse.DT, quantity: 50, reorder_level: 10, stock_status: 'in_stock' },
      });
      const earbuds: PosRow = res.body.data.find((r: PosRow) => r.sku === 'ELC-002');
      expect(earbuds).toMatchObject({
        is_serial_tracked: true,
        base_price: 49.99,
        stock: { warehouse_id: ids.warehouse.DT, quantity: 5, stock_status: 'low' },
      });
      const promo: PosRow = res.body.data.find((r: PosRow) => r.id === promoId);
      expect(promo.stock).toEqual({ warehouse_id: ids.warehouse.DT, quantity: 0, reorder_level: 0, stock_status: 'out' });
    });

    it('uses the named store and warehouse', async () => {
      const ap = await products(`?store_id=${ids.store.AP}&q=BEV-001`, manager);
      expect(ap.status).toBe(200);
      expect(ap.body.data[0]).toMatchObject({ sku: 'BEV-001', base_price: 1.29, stock: { warehouse_id: ids.warehouse.AP, quantity: 30 } });
      const central = await products(`?warehouse_id=${ids.warehouse.CENTRAL}&q=BEV-001`);
      expect(central.body.data[0].stock).toMatchObject({ warehouse_id: ids.warehouse.CENTRAL, quantity: 200, stock_status: 'in_stock' });
      const explicit = await products(`?store_id=${ids.store.DT}&warehouse_id=${ids.warehouse.DT}&q=BEV-001`);
      expect(explicit.body.data[0].stock.quantity).toBe(50);
    });

    it('filters by category and q (name, SKU prefix, exact barcode)', async () => {
      const coffee = await products(`?category_id=${ids.category.coffee}`);
      expect(skus(coffee).sort()).toEqual(['COF-001', 'COF-002', 'COF-003']);
      expect(skus(await products('?q=espresso'))).toEqual(['COF-001']);
      expect(skus(await products(`?q=${demoBarcode(4)}`))).toEqual(['BEV-005']);
      expect(skus(await products(`?q=${CASE_BARCODE}`))).toEqual(['BEV-001']);
      expect((await products('?q=SNK-006')).body.data).toEqual([]);
      expect((await products(`?q=${encodeURIComponent("1' OR '1'='1")}`)).body.data).toEqual([]);
      expect((await products('?q=%25')).body.data).toEqual([]);
    });

    it('paginates with per_page clamped to 100', async () => {
      const page = await products('?per_page=10&page=4');
      expect(page.body.meta).toEqual({ current_page: 4, last_page: 4, per_page: 10, total: 33 });
      expect(page.body.data).toHaveLength(3);
      expect((await products('?per_page=101')).body.meta.per_page).toBe(100);
      for (const bad of ['per_page=0', 'per_page=abc', 'page=0']) {
        const res = await products(`?${bad}`);
        expectErrorEnvelope(res, 422);
        expect(res.body.errors[bad.split('=')[0]]).toBeDefined();
      }
    });

    it('answers another store with 403, and a warehouse not serving the store or an unknown store with 422', async () => {
      expectErrorEnvelope(await products(`?store_id=${ids.store.AP}`), 403);
      expectErrorEnvelope(await products(`?store_id=${ids.store.AP}&warehouse_id=${ids.warehouse.AP}`), 403);
      const notServing = await products(`?warehouse_id=${ids.warehouse.AP}`);
      expectErrorEnvelope(notServing, 422, 'The given data was invalid.');
      expect(notServing.body.errors.warehouse_id).toBeDefined();
      const unknownWarehouse = await products('?warehouse_id=999999', admin);
      expect(unknownWarehouse.status).toBe(422);
      expect(unknownWarehouse.body.errors.warehouse_id).toBeDefined();
      const unknownStore = await products('?store_id=999999', admin);
      expectErrorEnvelope(unknownStore, 422);
      expect(unknownStore.body.errors.store_id).toBeDefined();
      for (const bad of ['store_id=abc', 'warehouse_id=-1', 'category_id=x', `q=${LONG}`, `store_id=${encodeURIComponent("1' OR '1'='1")}`]) {
        const res = await products(`?${bad}`);
        expectErrorEnvelope(res, 422);
        expect(Object.keys(res.body.errors)).toEqual([bad.split('=')[0]]);
      }
    });
  });

  describe('GET /pos/products/search', () => {
    it('requires q and store_id (422 naming each)', async () => {
      const none = await search('');
      expectErrorEnvelope(none, 422, 'The given data was invalid.');
      expect(none.body.errors.q).toEqual(['The q field is required.']);
      expect(none.body.errors.store_id).toEqual(['The store_id field is required.']);
      const noStore = await search('?q=cola');
      expect(noStore.status).toBe(422);
      expect(Object.keys(noStore.body.errors)).toEqual(['store_id']);
      const emptyQ = await search(`?q=&store_id=${ids.store.DT}`);
      expect(emptyQ.status).toBe(422);
      expect(Object.keys(emptyQ.body.errors)).toEqual(['q']);
    });

    it('treats a blank (whitespace-only) q as missing (422), not as "match everything"', async () => {
      const res = await search(`?q=${encodeURIComponent('   ')}&store_id=${ids.store.DT}`);
      expectErrorEnvelope(res, 422);
      expect(res.body.errors.q).toBeDefined();
    });

    it('finds an item by exact barcode, ranked before names that merely start with it', async () => {
      const res = await search(`?q=${demoBarcode(1)}&store_id=${ids.store.DT}`);
      expect(res.status).toBe(200);
      expect(res.body.meta).toBeUndefined();
      expect(res.body.data.map((r: PosRow) => r.id)).toEqual([ids.item['BEV-002'], promoId]);
      expect(res.body.data[0]).toMatchObject({
        sku: 'BEV-002',
        name: 'Sparkling Water 500ml',
        barcodes: [demoBarcode(1)],
        price: 1.49,
        base_price: 1.49,
        stock: { warehouse_id: ids.warehouse.DT, quantity: 50 },
      });
    });

    it('finds an item by exact SKU, ranked before names that start with it', async () => {
      const res = await search(`?q=ELC-001&store_id=${ids.store.DT}`);
      expect(res.status).toBe(200);
      expect(res.body.data.map((r: PosRow) => r.id)).toEqual([ids.item['ELC-001'], adapterId]);
      expect(res.body.data[0]).toMatchObject({ name: 'USB-C Cable 1m', price: 12.99 });
      const trimmed = await search(`?q=${encodeURIComponent(' ELC-001 ')}&store_id=${ids.store.DT}`);
      expect(trimmed.body.data[0].id).toBe(ids.item['ELC-001']);
    });

    it('finds the item of a case barcode, with its units', async () => {
      const res = await search(`?q=${CASE_BARCODE}&store_id=${ids.store.DT}`);
      expect(res.status).toBe(200);
      expect(res.body.data.map((r: PosRow) => r.sku)).toEqual(['BEV-001']);
      expect(res.body.data[0].units).toEqual([{ id: expect.any(Number), name: 'case', factor: 12, price: 13.99, barcode: CASE_BARCODE }]);
      expect(res.body.data[0].barcodes).toEqual([demoBarcode(0)]);
    });

    it('falls back to names with a word starting with q and SKUs starting with it, honouring category and limit', async () => {
      const water = await search(`?q=water&store_id=${ids.store.DT}`);
      expect(water.body.data.map((r: PosRow) => r.sku).sort()).toEqual(['BEV-001', 'BEV-002']);
      const prefix = await search(`?q=Still&store_id=${ids.store.DT}`);
      expect(prefix.body.data.map((r: PosRow) => r.sku)).toEqual(['BEV-001']);
      const skuPrefix = await search(`?q=BEV-00&store_id=${ids.store.DT}`);
      expect(skuPrefix.body.data.map((r: PosRow) => r.sku).sort()).toEqual(['BEV-001', 'BEV-002', 'BEV-003', 'BEV-004', 'BEV-005']);
      const limited = await search(`?q=BEV-00&store_id=${ids.store.DT}&limit=2`);
      expect(limited.body.data).toHaveLength(2);
      const inCategory = await search(`?q=tea&store_id=${ids.store.DT}&category_id=${ids.category.coffee}&limit=100`);
      expect(inCategory.body.data.map((r: PosRow) => r.sku)).toEqual(['COF-003']); // Green Tea; Iced Tea is a beverage
      const inside = await search(`?q=ater&store_id=${ids.store.DT}`);
      expect(inside.body.data).toEqual([]); // inside a word (wATER) is not a word's start
      const none = await search(`?q=zzzz-nothing&store_id=${ids.store.DT}`);
      expect(none.status).toBe(200);
      expect(none.body.data).toEqual([]);
    });

    it("reports stock of the named warehouse and the store's live price", async () => {
      const central = await search(`?q=BEV-003&store_id=${ids.store.DT}&warehouse_id=${ids.warehouse.CENTRAL}`);
      expect(central.body.data[0]).toMatchObject({ sku: 'BEV-003', stock: { warehouse_id: ids.warehouse.CENTRAL, quantity: 200 } });
      const airport = await search(`?q=BEV-003&store_id=${ids.store.AP}`, manager);
      expect(airport.status).toBe(200);
      expect(airport.body.data[0]).toMatchObject({ sku: 'BEV-003', base_price: 1.79, stock: { warehouse_id: ids.warehouse.AP, quantity: 30 } });
      expect(typeof airport.body.data[0].price).toBe('number');
    });

    it('never finds inactive or deleted items', async () => {
      for (const q of ['SNK-006', demoBarcode(31), 'Gift Card']) {
        const res = await search(`?q=${encodeURIComponent(q)}&store_id=${ids.store.DT}`);
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual([]);
      }
    });

    it('answers another store with 403 and bad parameters with 422, never a 5xx', async () => {
      expectErrorEnvelope(await search(`?q=cola&store_id=${ids.store.AP}`), 403);
      const notServing = await search(`?q=cola&store_id=${ids.store.DT}&warehouse_id=${ids.warehouse.AP}`);
      expectErrorEnvelope(notServing, 422);
      expect(notServing.body.errors.warehouse_id).toBeDefined();
      for (const bad of ['limit=0', 'limit=101', 'limit=abc', 'limit=-5', 'category_id=abc', 'warehouse_id=1.5', `q=${LONG}`, 'store_id=abc']) {
        const key = bad.split('=')[0];
        const base = key === 'q' ? `store_id=${ids.store.DT}` : key === 'store_id' ? 'q=cola' : `q=cola&store_id=${ids.store.DT}`;
        const res = await search(`?${base}&${bad}`);
        expectErrorEnvelope(res, 422, 'The given data was invalid.');
        expect(Object.keys(res.body.errors)).toEqual([key]);
      }
      for (const q of ["1' OR '1'='1", "'; DROP TABLE items; --", '%', '_', '\\', '"']) {
        const res = await search(`?q=${encodeURIComponent(q)}&store_id=${ids.store.DT}`);
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual([]);
      }
      for (const v of HOSTILE_IDS) {
        expectNo5xx(await search(`?q=cola&store_id=${encodeURIComponent(v)}`, admin), [422]);
        expectNo5xx(await search(`?q=cola&store_id=${ids.store.DT}&warehouse_id=${encodeURIComponent(v)}`, admin), [422]);
        expectNo5xx(await search(`?q=cola&store_id=${ids.store.DT}&limit=${encodeURIComponent(v)}`, admin), [200, 422]);
      }
      const [{ n }] = await t.db.query('SELECT COUNT(*) AS n FROM items');
      expect(Number(n)).toBe(34);
    });
  });

  describe('GET /pos/products/{item}', () => {
    it('returns one item with price and stock for the store and warehouse', async () => {
      const res = await api().get(`/api/v1/pos/products/${ids.item['BEV-001']}`).set(bearer(cashier));
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        id: ids.item['BEV-001'],
        sku: 'BEV-001',
        price: 1.29,
        price_source: 'base',
        stock: { warehouse_id: ids.warehouse.DT, quantity: 50, stock_status: 'in_stock' },
      });
      expect(res.body.data.units[0]).toMatchObject({ name: 'case', barcode: CASE_BARCODE });
      const ap = await api().get(`/api/v1/pos/products/${ids.item['BEV-001']}?store_id=${ids.store.AP}`).set(bearer(admin));
      expect(ap.body.data.stock).toMatchObject({ warehouse_id: ids.warehouse.AP, quantity: 30 });
      const central = await api().get(`/api/v1/pos/products/${ids.item['ELC-005']}?warehouse_id=${ids.warehouse.CENTRAL}`).set(bearer(cashier));
      expect(central.body.data).toMatchObject({
        is_serial_tracked: true,
        stock: { warehouse_id: ids.warehouse.CENTRAL, quantity: 5, reorder_level: 10, stock_status: 'low' },
      });
    });

    it('answers another store with 403 and a warehouse not serving it with 422', async () => {
      expectErrorEnvelope(await api().get(`/api/v1/pos/products/${ids.item['BEV-001']}?store_id=${ids.store.AP}`).set(bearer(cashier)), 403);
      const res = await api().get(`/api/v1/pos/products/${ids.item['BEV-001']}?warehouse_id=${ids.warehouse.AP}`).set(bearer(cashier));
      expectErrorEnvelope(res, 422);
      expect(res.body.errors.warehouse_id).toBeDefined();
      const bad = await api().get(`/api/v1/pos/products/${ids.item['BEV-001']}?store_id=abc`).set(bearer(cashier));
      expect(bad.status).toBe(422);
      expect(bad.body.errors.store_id).toBeDefined();
    });

    it('answers unknown and hostile ids with 404', async () => {
      expectErrorEnvelope(await api().get('/api/v1/pos/products/999999').set(bearer(cashier)), 404);
      for (const id of HOSTILE_IDS)
        expectErrorEnvelope(
          await api()
            .get(`/api/v1/pos/products/${encodeURIComponent(id)}`)
            .set(bearer(cashier)),
          404,
        );
    });
  });

  describe('limit', () => {
    // Last: the items it adds would change the counts above.
    it('answers 20 matches when no limit is given', async () => {
      const made = await Promise.all(
        Array.from({ length: 22 }, (_, k) =>
          api()
            .post('/api/v1/items')
            .set(bearer(manager))
            .send({ sku: `LIM-${k}`, name: `Sample Limit ${k}`, base_price: 1 }),
        ),
      );
      expect(made.map((r) => r.status)).toEqual(made.map(() => 201));
      const defaultLimit = await search(`?q=limit&store_id=${ids.store.DT}`);
      expect(defaultLimit.body.data).toHaveLength(20);
    });
  });

  describe('access', () => {
    it('needs a token (401) and pos.access (403)', async () => {
      for (const path of ['/pos/products', `/pos/products/search?q=cola&store_id=${ids.store.DT}`, `/pos/products/${ids.item['BEV-001']}`]) {
        expectErrorEnvelope(await api().get(`/api/v1${path}`), 401, 'Unauthorized.');
      }
      const app = await api()
        .post('/api/v1/api-applications')
        .set(bearer(admin))
        .send({ name: 'Catalog reader', permissions: ['items.view'] });
      const tok = await api()
        .post(`/api/v1/api-applications/${app.body.data.id}/tokens`)
        .set(bearer(admin))
        .send({ name: 'pos', abilities: ['pos'] });
      expect(tok.status).toBe(201);
      const reader = tok.body.data.token as string;
      expect((await api().get('/api/v1/items?per_page=1').set(bearer(reader))).status).toBe(200);
      for (const path of ['/pos/products', `/pos/products/search?q=cola&store_id=${ids.store.DT}`, `/pos/products/${ids.item['BEV-001']}`]) {
        expectErrorEnvelope(await api().get(`/api/v1${path}`).set(bearer(reader)), 403);
      }
    });
  });
});
