import { bearer, expectErrorEnvelope, startTestApp, TestApp } from '../support/test-app';
import { DemoIds, expectNo5xx, HOSTILE_IDS, LONG } from '../catalog/catalog-helpers';
import { BundleFixtures, bundleFixtures, bundleKit, BundleView } from './bundle-helpers';

/** Bundles (contract 4.8): CRUD, POST /bundles/calculate (201), availability, and bundles in cart pricing.
 * This part: POST, PUT and DELETE /bundles, next to the six fixture bundles (bundle-helpers.ts). */
describe('Bundles', () => {
  let t: TestApp;
  let f: BundleFixtures;
  let manager: string;
  let cashier: string;
  let ids: DemoIds;

  const { api, item, create, show, update, remove, list, calculate, availability, cart, names, countBundles, comp } = bundleKit(
    () => t,
    () => f,
  );

  beforeAll(async () => {
    t = await startTestApp();
    f = await bundleFixtures(t);
    ({ manager, cashier, ids } = f);
  });
  afterAll(() => t.close());
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
