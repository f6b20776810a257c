import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';
import { DemoIds, demoIds, expectNo5xx, HOSTILE_IDS, LONG } from '../catalog/catalog-helpers';
import { appToken, PricedLine, sumMoney } from './pricing-helpers';

interface BundleView {
  id: number;
  name: string;
  code: string;
  price: number;
  is_active: boolean;
  store_ids: number[];
  items: { item_id: number; quantity: number }[];
}

/** Bundles (contract 4.8): CRUD, POST /bundles/calculate (201), availability, and bundles in cart pricing. */
describe('Bundles', () => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let cashier: string;
  let ids: DemoIds;
  const b: Record<string, BundleView> = {};

  const api = () => request(t.http);
  const item = (sku: string) => ids.item[sku];
  const create = (body: Record<string, unknown>, token = manager) => api().post('/api/v1/bundles').set(bearer(token)).send(body);
  const show = (id: number | string, token = manager) => api().get(`/api/v1/bundles/${id}`).set(bearer(token));
  const update = (id: number | string, body: Record<string, unknown>, token = manager) => api().put(`/api/v1/bundles/${id}`).set(bearer(token)).send(body);
  const remove = (id: number | string, token = manager) => api().delete(`/api/v1/bundles/${id}`).set(bearer(token));
  const list = (query: string, token = manager) => api().get(`/api/v1/bundles${query}`).set(bearer(token));
  const calculate = (body: Record<string, unknown>, token = cashier) => api().post('/api/v1/bundles/calculate').set(bearer(token)).send(body);
  const availability = (id: number | string, query = '', token = cashier) => api().get(`/api/v1/bundles/${id}/availability${query}`).set(bearer(token));
  const cart = (body: Record<string, unknown>, token = cashier) => api().post('/api/v1/pricing/cart').set(bearer(token)).send(body);
  const lines = (res: request.Response) => res.body.data.items as PricedLine[];
  const names = (res: request.Response) => (res.body.data as BundleView[]).map((x) => x.name);
  const countBundles = async () => Number((await t.db.query('SELECT COUNT(*) AS n FROM bundles WHERE deleted_at IS NULL'))[0].n);
  const comp = (pairs: [string, number][]) => pairs.map(([sku, quantity]) => ({ item_id: item(sku), quantity }));

  beforeAll(async () => {
    t = await startTestApp();
    [admin, manager, cashier] = await Promise.all([login(t, DEMO.admin), login(t, DEMO.manager), login(t, DEMO.cashier)]);
    ids = await demoIds(t);
    const fixtures: Record<string, unknown>[] = [
      {
        name: 'Snack pack',
        code: 'SNACK-PACK',
        description: 'Crisps x2 + cola',
        price: 5.99,
        items: comp([
          ['SNK-001', 2],
          ['BEV-003', 1],
        ]),
      },
      {
        name: 'Airport pack',
        code: 'AIR-PACK',
        price: 3.99,
        store_ids: [ids.store.AP],
        items: comp([
          ['SNK-002', 1],
          ['BEV-001', 1],
        ]),
      },
      {
        name: 'Old pack',
        code: 'OLD-PACK',
        price: 5,
        valid_from: '2020-01-01',
        valid_to: '2020-12-31',
        items: comp([
          ['COF-003', 1],
          ['GRO-001', 1],
        ]),
      },
      {
        name: 'Future pack',
        code: 'FUTURE-PACK',
        price: 5,
        valid_from: '2099-01-01',
        items: comp([
          ['GRO-003', 1],
          ['GRO-004', 1],
        ]),
      },
      {
        name: 'Off pack',
        code: 'OFF-PACK',
        price: 5,
        is_active: false,
        items: comp([
          ['HSE-001', 1],
          ['HSE-002', 1],
        ]),
      },
      {
        name: 'Pricey pack',
        code: 'PRICEY-PACK',
        price: 9.99,
        items: comp([
          ['SNK-004', 1],
          ['SNK-005', 1],
        ]),
      },
    ];
    for (const f of fixtures) {
      const res = await create(f);
      if (res.status !== 201) throw new Error(`fixture ${String(f.name)}: ${res.status} ${JSON.stringify(res.body)}`);
      b[f.name as string] = res.body.data;
    }
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

  describe('bundles in POST /pricing/cart', () => {
    it('applies a bundle when all its components are present, splitting the saving over the lines', async () => {
      const res = await cart({
        items: [
          { id: item('SNK-001'), qty: 2 },
          { id: item('BEV-003'), qty: 1 },
        ],
      });
      expect(res.status).toBe(200);
      const [crisps, cola] = lines(res);
      expect([crisps.price_source, crisps.unit_price, crisps.discounts.bundle, crisps.net, crisps.tax, crisps.total]).toEqual([
        'bundle',
        2.49,
        0.57,
        4.41,
        0.36,
        4.77,
      ]);
      expect([cola.price_source, cola.unit_price, cola.discounts.bundle, cola.net, cola.tax, cola.total]).toEqual(['bundle', 1.79, 0.21, 1.58, 0.13, 1.71]);
      expect(crisps.steps.find((s) => s.step === 'bundle')).toEqual({
        step: 'bundle',
        id: b['Snack pack'].id,
        name: 'Snack pack',
        unit_price: null,
        amount: 0.57,
      });
      expect(res.body.data).toMatchObject({ subtotal: 6.77, discount_total: 0.78, tax_total: 0.49, total: 6.48, applied_bundles: [b['Snack pack'].id] });
      expect(res.body.data.total).toBe(sumMoney(lines(res).map((l) => l.total)));
    });

    it('does not apply it when a component is missing or short', async () => {
      for (const items of [
        [{ id: item('SNK-001'), qty: 2 }],
        [
          { id: item('SNK-001'), qty: 1 },
          { id: item('BEV-003'), qty: 1 },
        ],
        [{ id: item('BEV-003'), qty: 5 }],
      ]) {
        const res = await cart({ items });
        expect(res.body.data.applied_bundles).toEqual([]);
        expect(lines(res).every((l) => l.price_source === 'base' && l.discounts.bundle === 0)).toBe(true);
      }
    });

    it('applies it as many times as the components allow, across lines of the same item', async () => {
      const once = await cart({
        items: [
          { id: item('SNK-001'), qty: 4 },
          { id: item('BEV-003'), qty: 1 },
        ],
      });
      expect(lines(once).map((l) => [l.discounts.bundle, l.total])).toEqual([
        [0.57, 10.16],
        [0.21, 1.71],
      ]);
      const twice = await cart({
        items: [
          { id: item('SNK-001'), qty: 4 },
          { id: item('BEV-003'), qty: 2 },
        ],
      });
      expect(lines(twice).map((l) => [l.discounts.bundle, l.total])).toEqual([
        [1.15, 9.54],
        [0.41, 3.43],
      ]);
      expect(twice.body.data).toMatchObject({ discount_total: 1.56, total: 12.97, applied_bundles: [b['Snack pack'].id] });
      const split = await cart({
        items: [
          { id: item('SNK-001'), qty: 1 },
          { id: item('SNK-001'), qty: 1 },
          { id: item('BEV-003'), qty: 1 },
        ],
      });
      expect(lines(split).map((l) => [l.price_source, l.discounts.bundle])).toEqual([
        ['bundle', 0.29],
        ['bundle', 0.29],
        ['bundle', 0.2],
      ]);
    });

    it("leaves out manually priced lines, and values components at the store's price", async () => {
      const manual = await cart({
        items: [
          { id: item('SNK-001'), qty: 2, price: 2 },
          { id: item('BEV-003'), qty: 1 },
        ],
      });
      expect(manual.body.data.applied_bundles).toEqual([]);
      expect(lines(manual).map((l) => l.price_source)).toEqual(['manual', 'base']);
      const airport = await cart(
        {
          store_id: ids.store.AP,
          items: [
            { id: item('SNK-001'), qty: 2 },
            { id: item('BEV-003'), qty: 1 },
          ],
        },
        manager,
      );
      expect(lines(airport).map((l) => [l.unit_price, l.discounts.bundle, l.total, l.tax])).toEqual([
        // the bundle's saving before tax (the books): 1.24 and 0.74 off the shelf prices
        [2.49, 1.15, 3.74, 0.26],
        [2.99, 0.69, 2.25, 0.16],
      ]);
      expect(airport.body.data).toMatchObject({ total: 5.99, applied_bundles: [b['Snack pack'].id] });
    });

    it("applies a store's bundle only there, and never an inactive, expired, upcoming or dearer one", async () => {
      const storeItems = [
        { id: item('SNK-002'), qty: 1 },
        { id: item('BEV-001'), qty: 1 },
      ];
      expect((await cart({ items: storeItems })).body.data.applied_bundles).toEqual([]);
      const ap = await cart({ store_id: ids.store.AP, items: storeItems }, manager);
      expect(ap.body.data).toMatchObject({ applied_bundles: [b['Airport pack'].id], total: 3.99 });
      const res = await cart({
        items: ['COF-003', 'GRO-001', 'GRO-003', 'GRO-004', 'HSE-001', 'HSE-002', 'SNK-004', 'SNK-005'].map((sku) => ({ id: item(sku), qty: 1 })),
      });
      expect(res.body.data.applied_bundles).toEqual([]);
      expect(res.body.data.discount_total).toBe(0);
    });
  });

  describe('POST /bundles', () => {
    it('creates a bundle (201) and shows it back', async () => {
      const res = await create({
        name: 'Coffee duo',
        code: 'COFFEE-DUO',
        description: 'Beans and ground',
        price: 19.5,
        store_ids: [ids.store.DT],
        valid_from: '2020-01-01',
        valid_to: '2099-12-31',
        items: comp([
          ['COF-001', 1],
          ['COF-002', 1],
        ]),
      });
      expect(res.status).toBe(201);
      expect(res.body.success).toBe(true);
      expect(res.body.data).toMatchObject({
        id: expect.any(Number),
        name: 'Coffee duo',
        code: 'COFFEE-DUO',
        description: 'Beans and ground',
        price: 19.5,
        is_active: true,
        store_ids: [ids.store.DT],
        valid_from: '2020-01-01T00:00:00.000Z',
        items: comp([
          ['COF-001', 1],
          ['COF-002', 1],
        ]),
      });
      expect(res.body.data.valid_to).toMatch(/^2099-12-31T23:59:59/);
      expect((await show(res.body.data.id)).body.data).toEqual(res.body.data);
      const rows = await t.db.query('SELECT item_id, quantity FROM bundle_items WHERE bundle_id = ? ORDER BY item_id', [res.body.data.id]);
      expect(rows.map((r: { item_id: number; quantity: number }) => [Number(r.item_id), Number(r.quantity)])).toEqual([
        [item('COF-001'), 1],
        [item('COF-002'), 1],
      ]);
      const duo = await cart({
        items: [
          { id: item('COF-001'), qty: 1 },
          { id: item('COF-002'), qty: 1 },
        ],
      });
      expect(duo.body.data).toMatchObject({ applied_bundles: [res.body.data.id], discount_total: 1.98 });
    });

    it('answers bad bodies with 422 naming the field, and creates nothing', async () => {
      const before = await countBundles();
      const ok = { name: 'Bad', code: 'BAD-1', price: 1, items: comp([['SNK-001', 1]]) };
      const cases: [Record<string, unknown>, string[]][] = [
        [{ ...ok, name: undefined }, ['name']],
        [{ ...ok, name: '   ' }, ['name']],
        [{ ...ok, name: LONG }, ['name']],
        [{ ...ok, code: undefined }, ['code']],
        [{ ...ok, code: 'X'.repeat(33) }, ['code']],
        [{ ...ok, code: 'SNACK-PACK' }, ['code']],
        [{ ...ok, price: undefined }, ['price']],
        [{ ...ok, price: -1 }, ['price']],
        [{ ...ok, price: 1.234 }, ['price']],
        [{ ...ok, price: 'free' }, ['price']],
        [{ ...ok, items: undefined }, ['items']],
        [{ ...ok, items: [] }, ['items']],
        [{ ...ok, items: 'x' }, ['items']],
        [{ ...ok, items: Array.from({ length: 51 }, (_, i) => ({ item_id: i + 1, quantity: 1 })) }, ['items']],
        [{ ...ok, items: [{ item_id: 999999, quantity: 1 }] }, ['items.0.item_id']],
        [
          {
            ...ok,
            items: comp([
              ['SNK-001', 1],
              ['SNK-001', 2],
            ]),
          },
          ['items.1.item_id'],
        ],
        [{ ...ok, items: comp([['SNK-001', 0]]) }, ['items.0.quantity']],
        [{ ...ok, items: comp([['SNK-001', 1001]]) }, ['items.0.quantity']],
        [{ ...ok, items: [{ quantity: 1 }] }, ['items.0.item_id']],
        [{ ...ok, valid_from: '2025-06-01', valid_to: '2025-05-01' }, ['valid_to']],
        [{ ...ok, valid_from: 'soon' }, ['valid_from']],
        [{ ...ok, store_ids: ['x'] }, ['store_ids']],
        [{ ...ok, is_active: 'yes' }, ['is_active']],
        [{ ...ok, description: LONG }, ['description']],
      ];
      for (const [body, fields] of cases) {
        const res = await create(body);
        expectErrorEnvelope(res, 422, 'The given data was invalid.');
        expect([JSON.stringify(body).slice(0, 120), Object.keys(res.body.errors).sort()]).toEqual([JSON.stringify(body).slice(0, 120), [...fields].sort()]);
      }
      expect(await countBundles()).toBe(before);
    });

    it('needs pricing.manage (403 for a cashier), a token (401), and never gives a 5xx', async () => {
      const before = await countBundles();
      expectErrorEnvelope(await create({ name: 'Cashier pack', code: 'CASH-1', price: 1, items: comp([['SNK-001', 1]]) }, cashier), 403);
      expectErrorEnvelope(
        await api()
          .post('/api/v1/bundles')
          .send({ name: 'Anon', code: 'ANON', price: 1, items: comp([['SNK-001', 1]]) }),
        401,
      );
      expect(await countBundles()).toBe(before);
      const ok = { name: 'Hostile', code: 'HOSTILE', price: 1, is_active: false, items: comp([['ELC-006', 1]]) };
      for (const body of [
        { ...ok, price: 1e300 },
        { ...ok, items: [{ item_id: LONG, quantity: 1 }] },
        { ...ok, items: [{ item_id: "1' OR '1'='1", quantity: 1 }] },
        { ...ok, store_ids: [2_147_483_648] },
        { ...ok, code: { $ne: 1 } },
        { ...ok, valid_to: '2020-02-30' },
        { ...ok, items: [null] },
        [ok],
      ]) {
        expectNo5xx(await api().post('/api/v1/bundles').set(bearer(manager)).set('Content-Type', 'application/json').send(JSON.stringify(body)), [400, 422]);
      }
      const sql = await create({ ...ok, name: "Robert'); DROP TABLE bundles; --", code: 'SQL-1' });
      expect(sql.status).toBe(201);
      expect(sql.body.data.name).toBe("Robert'); DROP TABLE bundles; --");
    });
  });

  describe('PUT /bundles/{id}', () => {
    let bundle: BundleView;

    beforeAll(async () => {
      bundle = (await create({ name: 'Nut pack', code: 'NUT-PACK', price: 9, items: comp([['SNK-003', 2]]) })).body.data;
    });

    it('updates the given fields (200); the cart follows', async () => {
      const res = await update(bundle.id, {
        name: 'Nut and crisps pack',
        price: 7.5,
        items: comp([
          ['SNK-003', 1],
          ['SNK-001', 1],
        ]),
        description: 'Changed',
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        id: bundle.id,
        name: 'Nut and crisps pack',
        code: 'NUT-PACK',
        description: 'Changed',
        price: 7.5,
        is_active: true,
        items: comp([
          ['SNK-003', 1],
          ['SNK-001', 1],
        ]),
      });
      const priced = await cart({
        items: [
          { id: item('SNK-003'), qty: 1 },
          { id: item('SNK-001'), qty: 1 },
        ],
      });
      expect(priced.body.data).toMatchObject({ applied_bundles: [bundle.id], discount_total: 0.48 });
      const off = await update(bundle.id, { is_active: false });
      expect(off.body.data).toMatchObject({ is_active: false, price: 7.5, name: 'Nut and crisps pack' });
      expect(
        (
          await cart({
            items: [
              { id: item('SNK-003'), qty: 1 },
              { id: item('SNK-001'), qty: 1 },
            ],
          })
        ).body.data.applied_bundles,
      ).toEqual([]);
      const storeOnly = await update(bundle.id, { is_active: true, store_ids: [ids.store.AP] });
      expect(storeOnly.body.data.store_ids).toEqual([ids.store.AP]);
      expect(
        (
          await cart({
            items: [
              { id: item('SNK-003'), qty: 1 },
              { id: item('SNK-001'), qty: 1 },
            ],
          })
        ).body.data.applied_bundles,
      ).toEqual([]);
      expect((await update(bundle.id, { code: 'NUT-PACK' })).status).toBe(200);
    });

    it('answers 422 naming the field, 404 for unknown ids, 403 for a cashier', async () => {
      for (const [body, field] of [
        [{ code: 'SNACK-PACK' }, 'code'],
        [{ items: [] }, 'items'],
        [{ items: [{ item_id: 999999, quantity: 1 }] }, 'items.0.item_id'],
        [{ price: -5 }, 'price'],
        [{ valid_from: '2030-01-01', valid_to: '2029-01-01' }, 'valid_to'],
        [{ name: LONG }, 'name'],
      ] as [Record<string, unknown>, string][]) {
        const res = await update(bundle.id, body);
        expectErrorEnvelope(res, 422);
        expect([body, Object.keys(res.body.errors)]).toEqual([body, [field]]);
      }
      expect((await show(bundle.id)).body.data).toMatchObject({ code: 'NUT-PACK', price: 7.5 });
      expectErrorEnvelope(await update(999999, { price: 1 }), 404);
      for (const id of HOSTILE_IDS) expectErrorEnvelope(await update(encodeURIComponent(id), { price: 1 }), 404);
      expectErrorEnvelope(await update(bundle.id, { price: 0.01 }, cashier), 403);
      expect((await show(bundle.id)).body.data.price).toBe(7.5);
      for (const body of [{ price: 1e300 }, { items: [{ item_id: LONG }] }, { store_ids: "1' OR 1=1" }]) expectNo5xx(await update(bundle.id, body), [422]);
    });
  });

  describe('DELETE /bundles/{id}', () => {
    it('deletes with a message; the bundle is gone everywhere', async () => {
      const bundle = (
        await create({
          name: 'Doomed pack',
          code: 'DOOMED',
          price: 3,
          items: comp([
            ['GRO-005', 1],
            ['GRO-006', 1],
          ]),
        })
      ).body.data as BundleView;
      expect(
        (
          await cart({
            items: [
              { id: item('GRO-005'), qty: 1 },
              { id: item('GRO-006'), qty: 1 },
            ],
          })
        ).body.data.applied_bundles,
      ).toEqual([bundle.id]);
      expectErrorEnvelope(await remove(bundle.id, cashier), 403);
      const res = await remove(bundle.id);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, message: 'Bundle deleted.' });
      expectErrorEnvelope(await show(bundle.id), 404);
      expectErrorEnvelope(await update(bundle.id, { price: 1 }), 404);
      expectErrorEnvelope(await availability(bundle.id, '', manager), 404);
      expectErrorEnvelope(await remove(bundle.id), 404);
      expect(names(await list('?per_page=100'))).not.toContain('Doomed pack');
      expect(
        (
          await cart({
            items: [
              { id: item('GRO-005'), qty: 1 },
              { id: item('GRO-006'), qty: 1 },
            ],
          })
        ).body.data.applied_bundles,
      ).toEqual([]);
      const calc = await calculate({ bundle_id: bundle.id });
      expectErrorEnvelope(calc, 422);
      expect(Object.keys(calc.body.errors)).toEqual(['bundle_id']);
      expectErrorEnvelope(await remove(999999), 404);
      for (const id of HOSTILE_IDS) expectErrorEnvelope(await remove(encodeURIComponent(id)), 404);
    });

    it("frees a deleted bundle's code or reports it as taken (422), never a bare conflict", async () => {
      const bundle = (
        await create({
          name: 'Short-lived pack',
          code: 'SHORT',
          price: 3,
          items: comp([
            ['GRO-005', 1],
            ['GRO-006', 1],
          ]),
        })
      ).body.data as BundleView;
      expect((await remove(bundle.id)).status).toBe(200);
      const again = await create({
        name: 'Reborn pack',
        code: 'SHORT',
        price: 3,
        is_active: false,
        items: comp([
          ['GRO-005', 1],
          ['GRO-006', 1],
        ]),
      });
      expect([201, 422]).toContain(again.status);
      if (again.status === 422) expect(Object.keys(again.body.errors)).toEqual(['code']);
    });
  });
});
