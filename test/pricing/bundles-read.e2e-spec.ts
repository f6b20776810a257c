import { bearer, expectErrorEnvelope, startTestApp, TestApp } from '../support/test-app';
import { DemoIds, expectNo5xx, HOSTILE_IDS, LONG } from '../catalog/catalog-helpers';
import { appToken } from './pricing-helpers';
import { BundleFixtures, bundleFixtures, bundleKit, BundleView } from './bundle-helpers';

/** Bundles (contract 4.8): CRUD, POST /bundles/calculate (201), availability, and bundles in cart pricing.
 * This part: listing, showing, POST /bundles/calculate and availability, over the six fixture bundles (bundle-helpers.ts). */
describe('Bundles', () => {
  let t: TestApp;
  let f: BundleFixtures;
  let admin: string;
  let manager: string;
  let cashier: string;
  let ids: DemoIds;
  let b: Record<string, BundleView>;

  const { api, item, show, list, calculate, availability, names, comp } = bundleKit(
    () => t,
    () => f,
  );

  beforeAll(async () => {
    t = await startTestApp();
    f = await bundleFixtures(t);
    ({ admin, manager, cashier, ids, b } = f);
  });
  afterAll(() => t.close());
  describe('GET /bundles and GET /bundles/{id}', () => {
    const ALL = ['Snack pack', 'Airport pack', 'Old pack', 'Future pack', 'Off pack', 'Pricey pack'];

    it('lists bundles with their items, paginated', async () => {
      const res = await list('');
      expect(res.status).toBe(200);
      expect(names(res)).toEqual(ALL);
      expect(res.body.meta).toEqual({ current_page: 1, last_page: 1, per_page: 50, total: 6 });
      expect(res.body.data[0]).toEqual({
        id: b['Snack pack'].id,
        name: 'Snack pack',
        code: 'SNACK-PACK',
        description: 'Crisps x2 + cola',
        price: 5.99,
        is_active: true,
        store_ids: [],
        valid_from: null,
        valid_to: null,
        items: [
          { item_id: item('SNK-001'), quantity: 2 },
          { item_id: item('BEV-003'), quantity: 1 },
        ],
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const p2 = await list('?per_page=4&page=2');
      expect(names(p2)).toEqual(ALL.slice(4));
      expect(p2.body.meta).toEqual({ current_page: 2, last_page: 2, per_page: 4, total: 6 });
      expect((await list('?per_page=1000')).body.meta.per_page).toBe(100);
    });

    it('filters by store and validity', async () => {
      for (const [query, expected] of [
        [`?store_id=${ids.store.DT}`, ALL.filter((n) => n !== 'Airport pack')],
        [`?store_id=${ids.store.AP}`, ALL],
        ['?validity=active', ['Snack pack', 'Airport pack', 'Pricey pack']],
        ['?validity=upcoming', ['Future pack']],
        ['?validity=expired', ['Old pack']],
        [`?validity=active&store_id=${ids.store.DT}`, ['Snack pack', 'Pricey pack']],
      ] as [string, string[]][]) {
        const res = await list(query);
        expect([query, names(res), res.body.meta.total]).toEqual([query, expected, expected.length]);
      }
      for (const bad of [
        'validity=always',
        'store_id=abc',
        'store_id=0',
        'per_page=0',
        'page=-1',
        `store_id=${LONG}`,
        `validity=${encodeURIComponent("' OR 1=1 --")}`,
      ]) {
        const res = await list(`?${bad}`);
        expectErrorEnvelope(res, 422, 'The given data was invalid.');
        expect([bad.slice(0, 30), Object.keys(res.body.errors)]).toEqual([bad.slice(0, 30), [bad.split('=')[0]]]);
      }
    });

    it("lists only the bundles of the user's stores to a cashier", async () => {
      const res = await list('', cashier);
      expect(res.status).toBe(200);
      expect(names(res)).toEqual(ALL.filter((n) => n !== 'Airport pack'));
    });

    it('answers a store filter naming another store with 403', async () => {
      expectErrorEnvelope(await list(`?store_id=${ids.store.AP}`, cashier), 403);
    });

    it("shows one bundle; another store's bundle, unknown and hostile ids are 404", async () => {
      const res = await show(b['Snack pack'].id, cashier);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(b['Snack pack']);
      expect((await show(b['Airport pack'].id, manager)).body.data).toMatchObject({ name: 'Airport pack', store_ids: [ids.store.AP] });
      expectErrorEnvelope(await show(b['Airport pack'].id, cashier), 404);
      expectErrorEnvelope(await show(999999), 404);
      for (const id of HOSTILE_IDS) expectErrorEnvelope(await show(encodeURIComponent(id)), 404);
      expectErrorEnvelope(await api().get(`/api/v1/bundles/${b['Snack pack'].id}`), 401);
      expectErrorEnvelope(
        await api()
          .get('/api/v1/bundles')
          .set(bearer(await appToken(t, ['pos.access']))),
        403,
      );
    });
  });

  describe('POST /bundles/calculate', () => {
    it("compares a bundle's price with its components' (201)", async () => {
      const res = await calculate({ bundle_id: b['Snack pack'].id });
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({
        bundle_id: b['Snack pack'].id,
        quantity: 1,
        items: [
          { item_id: item('SNK-001'), sku: 'SNK-001', name: 'Salted Crisps 150g', quantity: 2, unit_price: 2.49, total: 4.98 },
          { item_id: item('BEV-003'), sku: 'BEV-003', name: 'Cola 330ml', quantity: 1, unit_price: 1.79, total: 1.79 },
        ],
        components_total: 6.77,
        bundle_price: 5.99,
        saving: 0.78,
        saving_percent: 11.52,
      });
      const three = await calculate({ bundle_id: String(b['Snack pack'].id), quantity: 3 });
      expect(three.body.data).toMatchObject({ quantity: 3, components_total: 20.31, bundle_price: 17.97, saving: 2.34, saving_percent: 11.52 });
      expect(three.body.data.items.map((i: { quantity: number; total: number }) => [i.quantity, i.total])).toEqual([
        [6, 14.94],
        [3, 5.37],
      ]);
      const adHoc = await calculate({
        items: comp([
          ['COF-001', 1],
          ['SNK-003', 2],
        ]),
        price: 15,
      });
      expect(adHoc.status).toBe(201);
      expect(adHoc.body.data).toMatchObject({ bundle_id: null, quantity: 1, components_total: 19.97, bundle_price: 15, saving: 4.97, saving_percent: 24.89 });
    });

    it('reports no saving (0 and 0%) when the bundle costs more than its parts', async () => {
      const res = await calculate({ items: comp([['SNK-001', 1]]), price: 3 });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ components_total: 2.49, bundle_price: 3, saving: 0, saving_percent: 0 });
    });

    it('answers 422 naming the field, 403 without pos.access, never a 5xx', async () => {
      for (const [body, field] of [
        [{}, 'bundle_id'],
        [{ bundle_id: 999999 }, 'bundle_id'],
        [{ bundle_id: 'abc' }, 'bundle_id'],
        [{ items: comp([['SNK-001', 1]]), price: 1, quantity: 0 }, 'quantity'],
        [{ items: comp([['SNK-001', 1]]), price: 1, quantity: 10_001 }, 'quantity'],
        [{ items: comp([['SNK-001', 1]]), price: -1 }, 'price'],
        [{ items: [{ item_id: 999999, quantity: 1 }], price: 1 }, 'items.0.item_id'],
        [{ items: [{ item_id: item('SNK-001'), quantity: 0 }], price: 1 }, 'items.0.quantity'],
        [{ items: [], price: 1 }, 'items'],
      ] as [Record<string, unknown>, string][]) {
        const res = await calculate(body);
        expectErrorEnvelope(res, 422);
        expect([body, Object.keys(res.body.errors)]).toEqual([body, [field]]);
      }
      const noPrice = await calculate({ items: comp([['SNK-001', 1]]) });
      expectErrorEnvelope(noPrice, 422);
      expect(noPrice.body.errors.price ?? noPrice.body.errors.bundle_id).toBeDefined();
      expectErrorEnvelope(await calculate({ bundle_id: b['Snack pack'].id }, await appToken(t, ['items.view'])), 403);
      expectErrorEnvelope(await api().post('/api/v1/bundles/calculate').send({ bundle_id: 1 }), 401);
      for (const body of [
        { bundle_id: LONG },
        { bundle_id: "1' OR '1'='1" },
        { items: [{ item_id: 2_147_483_648, quantity: 1e9 }], price: 1e300 },
        { items: comp([['ELC-002', 1000]]), price: 99_999_999.99, quantity: 10_000 },
        { items: 'all' },
        { items: [null], price: 1 },
      ]) {
        expectNo5xx(await calculate(body), [201, 422]);
      }
    });
  });

  describe('GET /bundles/{id}/availability', () => {
    it("counts the bundles the warehouse's stock allows (the scarcest component decides)", async () => {
      const res = await availability(b['Snack pack'].id);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        bundle_id: b['Snack pack'].id,
        warehouse_id: ids.warehouse.DT,
        available: 25,
        components: [
          { item_id: item('SNK-001'), required: 2, on_hand: 50, bundles_possible: 25 },
          { item_id: item('BEV-003'), required: 1, on_hand: 50, bundles_possible: 50 },
        ],
      });
      expect((await availability(b['Snack pack'].id, `?warehouse_id=${ids.warehouse.CENTRAL}`)).body.data).toMatchObject({
        warehouse_id: ids.warehouse.CENTRAL,
        available: 100,
      });
      expect((await availability(b['Snack pack'].id, `?warehouse_id=${ids.warehouse.AP}`, admin)).body.data).toMatchObject({
        warehouse_id: ids.warehouse.AP,
        available: 15,
      });
      await t.db.query('UPDATE stock_levels SET quantity = 7 WHERE item_id = ? AND warehouse_id = ?', [item('BEV-003'), ids.warehouse.DT]);
      try {
        expect((await availability(b['Snack pack'].id)).body.data).toMatchObject({ available: 7 });
      } finally {
        await t.db.query('UPDATE stock_levels SET quantity = 50 WHERE item_id = ? AND warehouse_id = ?', [item('BEV-003'), ids.warehouse.DT]);
      }
    });

    it('answers unknown and hostile ids with 404, bad warehouses with 422, and needs inventory.view', async () => {
      expectErrorEnvelope(await availability(999999), 404);
      for (const id of HOSTILE_IDS) expectErrorEnvelope(await availability(encodeURIComponent(id)), 404);
      for (const q of [
        '?warehouse_id=999999',
        '?warehouse_id=abc',
        '?warehouse_id=0',
        `?warehouse_id=${LONG}`,
        `?warehouse_id=${encodeURIComponent('1; DROP TABLE stock_levels')}`,
      ]) {
        const res = await availability(b['Snack pack'].id, q);
        expectErrorEnvelope(res, 422);
        expect(Object.keys(res.body.errors)).toEqual(['warehouse_id']);
      }
      expectErrorEnvelope(await availability(b['Snack pack'].id, '', await appToken(t, ['pos.access', 'items.view'])), 403);
      expectErrorEnvelope(await api().get(`/api/v1/bundles/${b['Snack pack'].id}/availability`), 401);
    });

    it('answers 403 for a warehouse of another store', async () => {
      expectErrorEnvelope(await availability(b['Snack pack'].id, `?warehouse_id=${ids.warehouse.AP}`), 403);
    });

    it("answers 404 for another store's bundle", async () => {
      expectErrorEnvelope(await availability(b['Airport pack'].id), 404);
    });
  });
});
