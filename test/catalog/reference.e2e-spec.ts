import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';
import { DemoIds, demoIds, expectNo5xx, HOSTILE_IDS, LONG } from './catalog-helpers';

/**
 * Reference data of contract part 4.2: stores, store warehouses, warehouses (incl. standalone),
 * payment methods, currencies (by id or code) and price books, with store scoping
 * (another store's record by id: 404; another store as a filter: 403).
 */
describe('Catalog reference data (stores, warehouses, payment methods, currencies, price books)', () => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let cashier: string;
  let ids: DemoIds;

  const get = (path: string, token: string) => request(t.http).get(`/api/v1${path}`).set(bearer(token));

  beforeAll(async () => {
    t = await startTestApp();
    [admin, manager, cashier] = await Promise.all([login(t, DEMO.admin), login(t, DEMO.manager), login(t, DEMO.cashier)]);
    ids = await demoIds(t);
  });
  afterAll(() => t.close());

  describe('GET /stores', () => {
    it('lists only the stores the user is assigned, with the fields a till relies on', async () => {
      const res = await get('/stores', cashier);
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(res.body.meta).toEqual({ current_page: 1, last_page: 1, per_page: 50, total: 1 });
      expect(res.body.data).toHaveLength(1);
      expect(res.body.data[0]).toMatchObject({
        id: ids.store.DT,
        name: 'Downtown Store',
        code: 'DT',
        currency_code: 'USD',
        timezone: 'America/New_York',
        prices_include_tax: false,
        allow_negative_stock: false,
        default_warehouse_id: ids.warehouse.DT,
        is_active: true,
      });
      expect(res.body.data[0].warehouses).toBeUndefined();
      expect(res.body.data[0].payment_methods).toBeUndefined();

      for (const token of [admin, manager]) {
        const all = await get('/stores', token);
        expect(all.status).toBe(200);
        expect(all.body.meta.total).toBe(2);
        expect(all.body.data.map((s: { code: string }) => s.code)).toEqual(['DT', 'AP']);
        expect(all.body.data[1]).toMatchObject({ id: ids.store.AP, prices_include_tax: true, default_warehouse_id: ids.warehouse.AP });
      }
    });

    it('adds warehouses (optionally the standalone ones serving it) and payment methods on request', async () => {
      const res = await get('/stores?with_warehouses=true&with_payment_methods=1', admin);
      expect(res.status).toBe(200);
      const [dt, ap] = res.body.data;
      expect(dt.warehouses.map((w: { code: string }) => w.code)).toEqual(['DT-MAIN']);
      expect(ap.warehouses.map((w: { code: string }) => w.code)).toEqual(['AP-MAIN']);
      expect(dt.warehouses[0]).toMatchObject({ id: ids.warehouse.DT, store_id: ids.store.DT, is_standalone: false, is_active: true });
      expect(dt.payment_methods.map((p: { code: string }) => p.code)).toEqual(['cash', 'card', 'on_account']);
      expect(dt.payment_methods[0]).toMatchObject({ name: 'Cash', type: 'cash', is_active: true });

      const withStandalone = await get('/stores?with_warehouses=true&include_standalone=true', admin);
      expect(withStandalone.body.data[0].warehouses.map((w: { code: string }) => w.code)).toEqual(['DT-MAIN', 'CENTRAL']);
      expect(withStandalone.body.data[1].warehouses.map((w: { code: string }) => w.code)).toEqual(['AP-MAIN', 'CENTRAL']);
      expect(withStandalone.body.data[0].warehouses[1]).toMatchObject({ id: ids.warehouse.CENTRAL, store_id: null, is_standalone: true });
      expect(withStandalone.body.data[0].payment_methods).toBeUndefined();
    });

    it('paginates and clamps per_page, and rejects bad page parameters with 422', async () => {
      const p2 = await get('/stores?per_page=1&page=2', admin);
      expect(p2.body.meta).toEqual({ current_page: 2, last_page: 2, per_page: 1, total: 2 });
      expect(p2.body.data.map((s: { code: string }) => s.code)).toEqual(['AP']);
      const beyond = await get('/stores?page=5', admin);
      expect(beyond.status).toBe(200);
      expect(beyond.body.data).toEqual([]);
      expect(beyond.body.meta.total).toBe(2);
      const clamped = await get('/stores?per_page=100000', admin);
      expect(clamped.body.meta.per_page).toBe(100);
      for (const bad of [
        'per_page=0',
        'per_page=abc',
        'per_page=-1',
        'page=0',
        'page=abc',
        'with_warehouses=maybe',
        `per_page=${encodeURIComponent("1' OR '1'='1")}`,
      ]) {
        const res = await get(`/stores?${bad}`, admin);
        expectErrorEnvelope(res, 422, 'The given data was invalid.');
        expect(Object.keys(res.body.errors)).toEqual([bad.split('=')[0]]);
      }
    });
  });

  describe('GET /stores/{store}', () => {
    it('returns one store with its warehouses (standalone included) and payment methods', async () => {
      const res = await get(`/stores/${ids.store.DT}`, cashier);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: ids.store.DT, code: 'DT', name: 'Downtown Store', default_warehouse_id: ids.warehouse.DT });
      expect(res.body.data.warehouses.map((w: { id: number }) => w.id)).toEqual([ids.warehouse.DT, ids.warehouse.CENTRAL]);
      expect(res.body.data.payment_methods.map((p: { code: string }) => p.code)).toEqual(['cash', 'card', 'on_account']);
      expect(res.body.meta).toBeUndefined();
    });

    it('answers another store (404 for the cashier, 200 for its manager), an unknown id and hostile ids with 404', async () => {
      expectErrorEnvelope(await get(`/stores/${ids.store.AP}`, cashier), 404);
      expect((await get(`/stores/${ids.store.AP}`, manager)).body.data.code).toBe('AP');
      expectErrorEnvelope(await get('/stores/999999', admin), 404);
      for (const id of HOSTILE_IDS) {
        const res = await get(`/stores/${encodeURIComponent(id)}`, admin);
        expectErrorEnvelope(res, 404);
      }
    });
  });

  describe('GET /stores/{store}/warehouses', () => {
    it("returns the store's active warehouses, and the standalone ones with include_standalone", async () => {
      const own = await get(`/stores/${ids.store.DT}/warehouses`, cashier);
      expect(own.status).toBe(200);
      expect(own.body.data.map((w: { code: string }) => w.code)).toEqual(['DT-MAIN']);
      expect(own.body.data[0]).toMatchObject({ id: ids.warehouse.DT, name: 'Downtown Floor', store_id: ids.store.DT, is_standalone: false, is_active: true });
      const withStandalone = await get(`/stores/${ids.store.DT}/warehouses?include_standalone=true`, cashier);
      expect(withStandalone.body.data.map((w: { code: string }) => w.code)).toEqual(['DT-MAIN', 'CENTRAL']);
      const ap = await get(`/stores/${ids.store.AP}/warehouses?include_standalone=1`, manager);
      expect(ap.body.data.map((w: { code: string }) => w.code)).toEqual(['AP-MAIN', 'CENTRAL']);
    });

    it('answers another store, unknown and hostile ids with 404 and a bad flag with 422', async () => {
      expectErrorEnvelope(await get(`/stores/${ids.store.AP}/warehouses`, cashier), 404);
      expectErrorEnvelope(await get('/stores/424242/warehouses', admin), 404);
      for (const id of ["1' OR '1'='1", 'abc', '-1']) expectErrorEnvelope(await get(`/stores/${encodeURIComponent(id)}/warehouses`, admin), 404);
      const bad = await get(`/stores/${ids.store.DT}/warehouses?include_standalone=${LONG}`, admin);
      expectErrorEnvelope(bad, 422);
      expect(bad.body.errors.include_standalone).toBeDefined();
    });
  });

  describe('GET /warehouses and /warehouses/standalone', () => {
    it("lists the warehouses of the user's stores (their own and the standalone ones serving them)", async () => {
      const mine = await get('/warehouses', cashier);
      expect(mine.status).toBe(200);
      expect(mine.body.data.map((w: { code: string }) => w.code)).toEqual(['DT-MAIN', 'CENTRAL']);
      expect(mine.body.meta).toEqual({ current_page: 1, last_page: 1, per_page: 50, total: 2 });
      const all = await get('/warehouses', admin);
      expect(all.body.data.map((w: { code: string }) => w.code)).toEqual(['DT-MAIN', 'AP-MAIN', 'CENTRAL']);
      const central = all.body.data[2];
      expect(central).toMatchObject({
        id: ids.warehouse.CENTRAL,
        name: 'Central Warehouse',
        store_id: null,
        is_standalone: true,
        address: '99 Depot Road',
        is_active: true,
      });
      expect(typeof central.updated_at).toBe('string');
    });

    it('filters by store (with or without the standalone ones) and by standalone_only', async () => {
      const store = await get(`/warehouses?store_id=${ids.store.AP}`, manager);
      expect(store.body.data.map((w: { code: string }) => w.code)).toEqual(['AP-MAIN']);
      const serving = await get(`/warehouses?store_id=${ids.store.AP}&include_standalone=true`, manager);
      expect(serving.body.data.map((w: { code: string }) => w.code)).toEqual(['AP-MAIN', 'CENTRAL']);
      const standaloneOnly = await get('/warehouses?standalone_only=true', cashier);
      expect(standaloneOnly.body.data.map((w: { code: string }) => w.code)).toEqual(['CENTRAL']);
      const perPage = await get('/warehouses?per_page=1&page=2', admin);
      expect(perPage.body.meta).toEqual({ current_page: 2, last_page: 3, per_page: 1, total: 3 });
      expect(perPage.body.data.map((w: { code: string }) => w.code)).toEqual(['AP-MAIN']);
      expect((await get('/warehouses?per_page=5000', admin)).body.meta.per_page).toBe(100);
    });

    it('answers a filter naming another store with 403 and bad filters with 422', async () => {
      expectErrorEnvelope(await get(`/warehouses?store_id=${ids.store.AP}`, cashier), 403);
      expectErrorEnvelope(await get(`/warehouses?store_id=${ids.store.AP}&include_standalone=true`, cashier), 403);
      for (const bad of [
        'store_id=abc',
        `store_id=${encodeURIComponent("1' OR '1'='1")}`,
        'store_id=-3',
        'store_id=99999999999',
        'standalone_only=yes',
        'per_page=0',
      ]) {
        const res = await get(`/warehouses?${bad}`, admin);
        expectErrorEnvelope(res, 422, 'The given data was invalid.');
        expect(res.body.errors[bad.split('=')[0]]).toBeDefined();
      }
    });

    it("lists the standalone warehouses serving the user's stores", async () => {
      for (const token of [cashier, admin]) {
        // an object, as the contract gives it (issue 23, item 10); the paginated list is /warehouses?standalone_only=true
        const res = await get('/warehouses/standalone', token);
        expect(res.status).toBe(200);
        expect(Array.isArray(res.body.data)).toBe(false);
        expect(res.body.meta).toBeUndefined();
        expect(res.body.data.count).toBe(1);
        expect(res.body.data.warehouses).toEqual([
          expect.objectContaining({ id: ids.warehouse.CENTRAL, code: 'CENTRAL', store_id: null, is_standalone: true }),
        ]);
        const list = await get('/warehouses?standalone_only=true', token);
        expect(list.body.data.map((w: { id: number }) => w.id)).toEqual([ids.warehouse.CENTRAL]);
        expect(list.body.meta.total).toBe(1);
      }
    });
  });

  describe('GET /warehouses/{warehouse}', () => {
    it('returns one warehouse with the stores it belongs to or serves', async () => {
      const own = await get(`/warehouses/${ids.warehouse.DT}`, cashier);
      expect(own.status).toBe(200);
      expect(own.body.data).toMatchObject({ id: ids.warehouse.DT, code: 'DT-MAIN', store_id: ids.store.DT, is_standalone: false, store_ids: [ids.store.DT] });
      const central = await get(`/warehouses/${ids.warehouse.CENTRAL}`, cashier);
      expect(central.status).toBe(200);
      expect(central.body.data).toMatchObject({ code: 'CENTRAL', store_id: null, is_standalone: true });
      expect([...central.body.data.store_ids].sort()).toEqual([ids.store.DT, ids.store.AP].sort());
    });

    it("answers another store's warehouse, an unknown id and hostile ids with 404", async () => {
      expectErrorEnvelope(await get(`/warehouses/${ids.warehouse.AP}`, cashier), 404);
      expect((await get(`/warehouses/${ids.warehouse.AP}`, manager)).status).toBe(200);
      expectErrorEnvelope(await get('/warehouses/999999', admin), 404);
      for (const id of HOSTILE_IDS) expectErrorEnvelope(await get(`/warehouses/${encodeURIComponent(id)}`, admin), 404);
    });
  });

  describe('payment methods', () => {
    it("lists the active payment methods of the user's stores in sort order", async () => {
      const res = await get('/payment-methods', cashier);
      expect(res.status).toBe(200);
      expect(res.body.data.map((p: { code: string }) => p.code)).toEqual(['cash', 'card', 'on_account']);
      expect(res.body.data[2]).toMatchObject({ name: 'On Account', type: 'on_account', is_active: true, sort_order: 2 });
      expect(res.body.meta).toEqual({ current_page: 1, last_page: 1, per_page: 50, total: 3 });
      const p = await get('/payment-methods?per_page=2&page=2', cashier);
      expect(p.body.meta).toEqual({ current_page: 2, last_page: 2, per_page: 2, total: 3 });
      expect(p.body.data.map((m: { code: string }) => m.code)).toEqual(['on_account']);
      expectErrorEnvelope(await get('/payment-methods?per_page=abc', cashier), 422);
    });

    it('returns one payment method by id, 404 for unknown and hostile ids', async () => {
      const list = await get('/payment-methods', cashier);
      const card = list.body.data.find((m: { code: string }) => m.code === 'card');
      const res = await get(`/payment-methods/${card.id}`, cashier);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ id: card.id, name: 'Card', code: 'card', type: 'card', is_active: true, sort_order: 1 });
      expectErrorEnvelope(await get('/payment-methods/999999', cashier), 404);
      for (const id of HOSTILE_IDS) expectErrorEnvelope(await get(`/payment-methods/${encodeURIComponent(id)}`, cashier), 404);
    });
  });

  describe('currencies', () => {
    it('lists active currencies, base first, with their decimals', async () => {
      const res = await get('/currencies', cashier);
      expect(res.status).toBe(200);
      const codes = res.body.data.map((c: { code: string }) => c.code);
      expect(codes[0]).toBe('USD');
      expect([...codes].sort()).toEqual(['EUR', 'JPY', 'USD']);
      const byCode = Object.fromEntries(res.body.data.map((c: { code: string }) => [c.code, c]));
      expect(byCode.USD).toMatchObject({ name: 'US Dollar', symbol: '$', decimals: 2, is_base: true, is_active: true });
      expect(byCode.EUR).toMatchObject({ decimals: 2, is_base: false });
      expect(byCode.JPY).toMatchObject({ name: 'Japanese Yen', decimals: 0, is_base: false });
    });

    it('returns a currency by ISO code (any case) or by id', async () => {
      const usd = await get('/currencies/USD', cashier);
      expect(usd.status).toBe(200);
      expect(usd.body.data).toMatchObject({ code: 'USD', is_base: true, decimals: 2 });
      const jpy = await get('/currencies/jpy', cashier);
      expect(jpy.status).toBe(200);
      expect(jpy.body.data).toMatchObject({ code: 'JPY', decimals: 0 });
      const byId = await get(`/currencies/${jpy.body.data.id}`, cashier);
      expect(byId.status).toBe(200);
      expect(byId.body.data.code).toBe('JPY');
    });

    it('answers unknown codes and ids and hostile values with 404', async () => {
      for (const key of ['XXX', 'US', 'USDD', '999999', ...HOSTILE_IDS, "US' OR '1'='1", 'U%D', 'us_']) {
        const res = await get(`/currencies/${encodeURIComponent(key)}`, cashier);
        expectErrorEnvelope(res, 404);
      }
    });
  });

  describe('price books', () => {
    it("lists only the price books that apply to the user's stores, by priority", async () => {
      const cashierBooks = await get('/price-books', cashier);
      expect(cashierBooks.status).toBe(200);
      expect(cashierBooks.body.data.map((b: { code: string }) => b.code)).toEqual(['MEMBERS']);
      expect(cashierBooks.body.meta.total).toBe(1);
      expect(cashierBooks.body.data[0]).toMatchObject({
        name: 'Member prices',
        currency_code: 'USD',
        priority: 10,
        is_active: true,
        valid_from: null,
        valid_to: null,
        store_ids: [],
      });
      expect(cashierBooks.body.data[0].customer_group_ids).toHaveLength(1);

      const adminBooks = await get('/price-books', admin);
      expect(adminBooks.body.data.map((b: { code: string }) => b.code)).toEqual(['MEMBERS', 'AIRPORT']);
      expect(adminBooks.body.data[1]).toMatchObject({ name: 'Airport prices', priority: 5, store_ids: [ids.store.AP], customer_group_ids: [] });
      const paged = await get('/price-books?per_page=1&page=2', manager);
      expect(paged.body.meta).toEqual({ current_page: 2, last_page: 2, per_page: 1, total: 2 });
      expect(paged.body.data[0].code).toBe('AIRPORT');
      expectErrorEnvelope(await get('/price-books?per_page=0', manager), 422);
    });

    it("returns a price book with its entries; another store's book, unknown and hostile ids are 404", async () => {
      const list = await get('/price-books', admin);
      const airport = list.body.data.find((b: { code: string }) => b.code === 'AIRPORT');
      const members = list.body.data.find((b: { code: string }) => b.code === 'MEMBERS');
      const res = await get(`/price-books/${airport.id}`, manager);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: airport.id, code: 'AIRPORT', store_ids: [ids.store.AP] });
      const entries = Object.fromEntries(res.body.data.entries.map((e: { item_id: number; price: number }) => [e.item_id, e]));
      expect(res.body.data.entries).toHaveLength(3);
      expect(entries[ids.item['BEV-001']]).toMatchObject({ price: 2.49, min_quantity: 1 });
      expect(entries[ids.item['BEV-003']]).toMatchObject({ price: 2.99, min_quantity: 1 });
      expect(entries[ids.item['SNK-002']]).toMatchObject({ price: 2.99 });

      const memberBook = await get(`/price-books/${members.id}`, cashier);
      expect(memberBook.status).toBe(200);
      expect(memberBook.body.data.entries.find((e: { item_id: number }) => e.item_id === ids.item['COF-002']).price).toBe(10.99);

      // a deleted item's entry stays stored but is no longer listed (it was, while its price read 404)
      const gone = (await request(t.http).post('/api/v1/items').set(bearer(admin)).send({ sku: 'BOOK-GONE', name: 'Soon gone', base_price: 3 }).expect(201))
        .body.data.id;
      const stamp = t.isMysql ? new Date() : new Date().toISOString().replace('T', ' ').replace('Z', '');
      await t.db.query('INSERT INTO price_book_entries (price_book_id, item_id, price, min_quantity, created_at, updated_at) VALUES (?, ?, 250, 1, ?, ?)', [
        airport.id,
        gone,
        stamp,
        stamp,
      ]);
      const listed = async () => (await get(`/price-books/${airport.id}`, manager)).body.data.entries.map((e: { item_id: number }) => e.item_id);
      expect(await listed()).toContain(gone);
      await request(t.http).delete(`/api/v1/items/${gone}`).set(bearer(admin)).expect(200);
      expect(await listed()).not.toContain(gone);
      expect(await listed()).toHaveLength(3);

      expectErrorEnvelope(await get(`/price-books/${airport.id}`, cashier), 404);
      expectErrorEnvelope(await get('/price-books/999999', admin), 404);
      for (const id of HOSTILE_IDS) expectErrorEnvelope(await get(`/price-books/${encodeURIComponent(id)}`, admin), 404);
    });
  });

  describe('access', () => {
    it("needs a token (401) and the route's permission (403)", async () => {
      for (const path of [
        '/stores',
        `/stores/${ids.store.DT}`,
        '/warehouses',
        '/warehouses/standalone',
        '/payment-methods',
        '/currencies',
        '/currencies/USD',
        '/price-books',
      ]) {
        expectErrorEnvelope(await request(t.http).get(`/api/v1${path}`), 401, 'Unauthorized.');
      }
      // An API application holding only items.view, with a POS-ability token, lacks the other permissions.
      const app = await request(t.http)
        .post('/api/v1/api-applications')
        .set(bearer(admin))
        .send({ name: 'Items only', permissions: ['items.view'] });
      expect(app.status).toBe(201);
      const tok = await request(t.http)
        .post(`/api/v1/api-applications/${app.body.data.id}/tokens`)
        .set(bearer(admin))
        .send({ name: 'pos', abilities: ['pos'] });
      expect(tok.status).toBe(201);
      const itemsOnly = tok.body.data.token as string;
      expect((await get('/price-books', itemsOnly)).status).toBe(200);
      for (const path of [
        '/stores',
        `/stores/${ids.store.DT}`,
        `/stores/${ids.store.DT}/warehouses`,
        '/warehouses',
        '/warehouses/standalone',
        `/warehouses/${ids.warehouse.DT}`,
        '/payment-methods',
        '/currencies',
        '/currencies/USD',
      ]) {
        expectErrorEnvelope(await get(path, itemsOnly), 403);
      }
    });

    it('never answers hostile query values with a server error', async () => {
      for (const path of ['/stores', '/warehouses', '/warehouses/standalone', '/payment-methods', '/price-books', '/currencies']) {
        for (const value of ["1' OR '1'='1", LONG, '-99999999999999', '1e309', '[]', '{}']) {
          for (const param of ['page', 'per_page', 'store_id', 'with_warehouses']) {
            const res = await get(`${path}?${param}=${encodeURIComponent(value)}`, admin);
            expectNo5xx(res, [200, 422]);
          }
        }
        const arr = await get(`${path}?per_page=1&per_page=2`, admin);
        expectNo5xx(arr, [200, 422]);
      }
    });
  });
});
