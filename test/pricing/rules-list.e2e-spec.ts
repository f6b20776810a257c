import { bearer, expectErrorEnvelope, startTestApp, TestApp } from '../support/test-app';
import { DemoIds, HOSTILE_IDS, LONG } from '../catalog/catalog-helpers';
import { appToken } from './pricing-helpers';
import { RuleFixtures, ruleFixtures, rulesApi, RuleView } from './rule-helpers';

/** Pricing rules (contract 4.8): CRUD (200 / 200 / message; the contract gives 201 to other creates only), toggle, evaluate, list filters, rules in force.
 * This part: GET /pricing-rules filters and pages, GET /pricing/rules and /pricing/rules-for-item. */
describe('Pricing rules', () => {
  let t: TestApp;
  let f: RuleFixtures;
  let manager: string;
  let cashier: string;
  let ids: DemoIds;

  const { api, item, list, names, created, removeAllRules } = rulesApi(
    () => t,
    () => f,
  );

  beforeAll(async () => {
    t = await startTestApp();
    f = await ruleFixtures(t);
    ({ manager, cashier, ids } = f);
  });
  afterAll(() => t.close());
  describe('GET /pricing-rules (filters, pagination), GET /pricing/rules, GET /pricing/rules-for-item/{item}', () => {
    const fixture: Record<string, RuleView> = {};
    const ALL = ['Switched off', 'All stores, snacks', 'Airport cola', 'Downtown nuts', 'Expired tea', 'Upcoming coffee', 'Everything 1%'];

    beforeAll(async () => {
      await removeAllRules();
      const bodies: Record<string, unknown>[] = [
        { name: 'All stores, snacks', kind: 'percent_off', percent_off: 10, category_ids: [ids.category.snacks], priority: 5 },
        { name: 'Airport cola', kind: 'amount_off', amount_off: 0.1, item_ids: [item('BEV-003')], store_ids: [ids.store.AP], priority: 3 },
        { name: 'Downtown nuts', kind: 'fixed_price', fixed_price: 4.5, item_ids: [item('SNK-003')], store_ids: [ids.store.DT], priority: 3 },
        {
          name: 'Expired tea',
          kind: 'percent_off',
          percent_off: 20,
          item_ids: [item('COF-003')],
          valid_from: '2020-01-01',
          valid_to: '2020-12-31',
          priority: 1,
        },
        { name: 'Upcoming coffee', kind: 'percent_off', percent_off: 15, category_ids: [ids.category.coffee], valid_from: '2099-01-01', priority: 1 },
        { name: 'Switched off', kind: 'percent_off', percent_off: 5, item_ids: [item('SNK-001')], is_active: false, priority: 9 },
        { name: 'Everything 1%', kind: 'percent_off', percent_off: 1, min_subtotal: 1000, priority: 0 },
      ];
      for (const b of bodies) fixture[b.name as string] = await created(b);
    });

    it('lists every rule by priority (high first), then id, 50 per page', async () => {
      const res = await list('', manager);
      expect(res.status).toBe(200);
      expect(names(res)).toEqual(ALL);
      expect(res.body.meta).toEqual({ current_page: 1, last_page: 1, per_page: 50, total: 7 });
    });

    it("leaves out, for a user of some stores, the rules of other stores (the downtown cashier: not the airport's)", async () => {
      const res = await list('', cashier);
      expect(names(res)).toEqual(ALL.filter((n) => n !== 'Airport cola'));
      expect(res.body.meta.total).toBe(6);
    });

    it('filters by store, validity, item, category and is_active', async () => {
      const cases: [string, string[], string?][] = [
        [`?store_id=${ids.store.DT}`, ['Switched off', 'All stores, snacks', 'Downtown nuts', 'Expired tea', 'Upcoming coffee', 'Everything 1%']],
        [`?store_id=${ids.store.AP}`, ['Switched off', 'All stores, snacks', 'Airport cola', 'Expired tea', 'Upcoming coffee', 'Everything 1%'], manager],
        ['?validity=active', ['Switched off', 'All stores, snacks', 'Airport cola', 'Downtown nuts', 'Everything 1%'], manager],
        ['?validity=active', ['Switched off', 'All stores, snacks', 'Downtown nuts', 'Everything 1%']],
        ['?validity=upcoming', ['Upcoming coffee']],
        ['?validity=expired', ['Expired tea']],
        [`?item_id=${item('SNK-003')}`, ['Downtown nuts']],
        [`?item_id=${item('BEV-003')}`, ['Airport cola'], manager],
        [`?item_id=${item('BEV-003')}`, []],
        [`?item_id=${item('ELC-001')}`, []],
        [`?category_id=${ids.category.snacks}`, ['All stores, snacks']],
        [`?category_id=${ids.category.coffee}`, ['Upcoming coffee']],
        ['?is_active=false', ['Switched off']],
        ['?is_active=true', ALL.filter((n) => n !== 'Switched off'), manager],
        [`?store_id=${ids.store.DT}&validity=active&is_active=1`, ['All stores, snacks', 'Downtown nuts', 'Everything 1%']],
      ];
      for (const [query, expected, token] of cases) {
        const res = await list(query, token ?? cashier);
        expect(res.status).toBe(200);
        expect([query, names(res), res.body.meta.total]).toEqual([query, expected, expected.length]);
      }
    });

    it('paginates and clamps per_page at 100', async () => {
      const p1 = await list('?per_page=2', manager);
      expect(names(p1)).toEqual(ALL.slice(0, 2));
      expect(p1.body.meta).toEqual({ current_page: 1, last_page: 4, per_page: 2, total: 7 });
      const p4 = await list('?per_page=2&page=4', manager);
      expect(names(p4)).toEqual(['Everything 1%']);
      const p5 = await list('?per_page=2&page=5', manager);
      expect(p5.body.data).toEqual([]);
      expect(p5.body.meta).toEqual({ current_page: 5, last_page: 4, per_page: 2, total: 7 });
      expect((await list('?per_page=500')).body.meta.per_page).toBe(100);
    });

    it('answers bad filters with 422 naming them, and needs items.view', async () => {
      for (const bad of [
        'validity=forever',
        'store_id=abc',
        'item_id=0',
        'category_id=-1',
        'is_active=maybe',
        'per_page=0',
        'page=0',
        'page=x',
        `store_id=${LONG}`,
        `item_id=${encodeURIComponent("1' OR '1'='1")}`,
        'store_id=99999999999999999999',
        `validity=${LONG}`,
      ]) {
        const res = await list(`?${bad}`);
        expectErrorEnvelope(res, 422, 'The given data was invalid.');
        expect([bad.slice(0, 40), Object.keys(res.body.errors)]).toEqual([bad.slice(0, 40), [bad.split('=')[0]]]);
      }
      expectErrorEnvelope(await api().get('/api/v1/pricing-rules'), 401);
      expectErrorEnvelope(await list('', await appToken(t, ['pos.access'])), 403);
    });

    it('answers a store filter naming another store with 403', async () => {
      expectErrorEnvelope(await list(`?store_id=${ids.store.AP}`, cashier), 403);
    });

    it('GET /pricing/rules: the rules in force now (active, in their window), highest priority first', async () => {
      const res = await api().get('/api/v1/pricing/rules').set(bearer(manager));
      expect(res.status).toBe(200);
      expect((res.body.data as RuleView[]).map((r) => r.name)).toEqual(['All stores, snacks', 'Airport cola', 'Downtown nuts', 'Everything 1%']);
      // The downtown cashier: not the airport's rule.
      const mine = await api().get('/api/v1/pricing/rules').set(bearer(cashier));
      expect((mine.body.data as RuleView[]).map((r) => r.name)).toEqual(['All stores, snacks', 'Downtown nuts', 'Everything 1%']);
      expect(res.body.data[0]).toMatchObject({ id: fixture['All stores, snacks'].id, kind: 'percent_off', percent_off: 10 });
      expect(res.body.meta).toBeUndefined();
      expectErrorEnvelope(await api().get('/api/v1/pricing/rules'), 401);
      expectErrorEnvelope(
        await api()
          .get('/api/v1/pricing/rules')
          .set(bearer(await appToken(t, ['items.view']))),
        403,
      );
    });

    it('GET /pricing/rules-for-item/{item}: rules by item, category or all items, and those applying now', async () => {
      const forItem = async (sku: string, token = cashier) => {
        const res = await api()
          .get(`/api/v1/pricing/rules-for-item/${item(sku)}`)
          .set(bearer(token));
        expect(res.status).toBe(200);
        expect(res.body.data.item_id).toBe(item(sku));
        return { names: (res.body.data.rules as RuleView[]).map((r) => r.name), applied: res.body.data.applied_now as number[] };
      };
      expect(await forItem('SNK-001')).toEqual({ names: ['All stores, snacks', 'Everything 1%'], applied: [fixture['All stores, snacks'].id] });
      const nuts = await forItem('SNK-003');
      expect(nuts.names).toEqual(['All stores, snacks', 'Downtown nuts', 'Everything 1%']);
      expect(nuts.applied).toEqual([fixture['All stores, snacks'].id, fixture['Downtown nuts'].id].sort((a, b) => a - b));
      expect(await forItem('BEV-003', manager)).toEqual({ names: ['Airport cola', 'Everything 1%'], applied: [] });
      expect(await forItem('BEV-003')).toEqual({ names: ['Everything 1%'], applied: [] });
      expect(await forItem('COF-003')).toEqual({ names: ['Everything 1%'], applied: [] });
      expectErrorEnvelope(await api().get(`/api/v1/pricing/rules-for-item/${item('SNK-001')}`), 401);
      expectErrorEnvelope(
        await api()
          .get(`/api/v1/pricing/rules-for-item/${item('SNK-001')}`)
          .set(bearer(await appToken(t, ['items.view']))),
        403,
      );
      // '1e3' is read as item 1000 (see the non-canonical id tests); the rest never name an item.
      for (const id of HOSTILE_IDS.filter((h) => h !== '1e3'))
        expectErrorEnvelope(
          await api()
            .get(`/api/v1/pricing/rules-for-item/${encodeURIComponent(id)}`)
            .set(bearer(cashier)),
          404,
        );
    });

    it('GET /pricing/rules-for-item/{item}: an unknown item is 404', async () => {
      expectErrorEnvelope(await api().get('/api/v1/pricing/rules-for-item/999999').set(bearer(cashier)), 404);
    });
  });
});
