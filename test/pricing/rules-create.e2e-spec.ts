import { bearer, expectErrorEnvelope, startTestApp, TestApp } from '../support/test-app';
import { DemoIds, expectNo5xx, LONG } from '../catalog/catalog-helpers';
import { RuleFixtures, ruleFixtures, rulesApi } from './rule-helpers';

/** Pricing rules (contract 4.8): CRUD (200 / 200 / message; the contract gives 201 to other creates only), toggle, evaluate, list filters, rules in force.
 * This part: POST /pricing-rules. */
describe('Pricing rules', () => {
  let t: TestApp;
  let f: RuleFixtures;
  let admin: string;
  let manager: string;
  let cashier: string;
  let ids: DemoIds;
  let membersGroup: number;

  const { api, item, create, show, countRules, created } = rulesApi(
    () => t,
    () => f,
  );

  beforeAll(async () => {
    t = await startTestApp();
    f = await ruleFixtures(t);
    ({ admin, manager, cashier, ids, membersGroup } = f);
  });
  afterAll(() => t.close());
  describe('POST /pricing-rules', () => {
    it('creates a rule with every condition (200, as the contract gives it) and shows it back', async () => {
      const res = await create({
        name: 'Weekday snacks',
        description: 'Mon-Fri daytime',
        kind: 'percent_off',
        percent_off: 12.5,
        priority: 7,
        is_exclusive: true,
        item_ids: [item('COF-001')],
        category_ids: [ids.category.snacks],
        customer_group_ids: [membersGroup],
        store_ids: [ids.store.DT],
        min_quantity: 2,
        min_subtotal: 10,
        days_of_week: [1, 2, 3, 4, 5],
        start_time: '09:00',
        end_time: '17:30',
        valid_from: '2020-01-01',
        valid_to: '2099-12-31',
      });
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      const d = res.body.data;
      expect(d).toMatchObject({
        id: expect.any(Number),
        name: 'Weekday snacks',
        description: 'Mon-Fri daytime',
        kind: 'percent_off',
        priority: 7,
        is_exclusive: true,
        is_active: true,
        percent_off: 12.5,
        amount_off: null,
        fixed_price: null,
        tiers: null,
        buy_quantity: null,
        get_quantity: null,
        get_percent_off: null,
        conditions: {
          item_ids: [item('COF-001')],
          category_ids: [ids.category.snacks],
          customer_group_ids: [membersGroup],
          store_ids: [ids.store.DT],
          min_quantity: 2,
          min_subtotal: 10,
          days_of_week: [1, 2, 3, 4, 5],
          start_time: '09:00',
          end_time: '17:30',
        },
        valid_from: '2020-01-01T00:00:00.000Z',
      });
      expect(d.valid_to).toMatch(/^2099-12-31T23:59:59/);
      expect(new Date(d.created_at).toISOString()).toBe(d.created_at);
      const again = await show(d.id);
      expect(again.status).toBe(200);
      expect(again.body.data).toEqual(d);
    });

    it('creates each kind with its own parameters and the defaults', async () => {
      const amount = await created({ name: 'Cola -0.25', kind: 'amount_off', amount_off: 0.25, item_ids: [item('BEV-003')] });
      expect(amount).toMatchObject({
        description: null,
        priority: 0,
        is_exclusive: false,
        is_active: true,
        percent_off: null,
        amount_off: 0.25,
        fixed_price: null,
        conditions: {
          item_ids: [item('BEV-003')],
          category_ids: [],
          customer_group_ids: [],
          store_ids: [],
          min_quantity: null,
          min_subtotal: null,
          days_of_week: [],
          start_time: null,
          end_time: null,
        },
        valid_from: null,
        valid_to: null,
      });
      expect(await created({ name: 'Free sleeve', kind: 'fixed_price', fixed_price: 0, item_ids: [item('SNK-004')], is_active: false })).toMatchObject({
        fixed_price: 0,
        is_active: false,
        amount_off: null,
      });
      expect(
        await created({
          name: 'Tiers',
          kind: 'quantity_tiers',
          tiers: [
            { min_quantity: 5, percent_off: 10 },
            { min_quantity: 10, unit_price: 4 },
          ],
          item_ids: [item('SNK-003')],
        }),
      ).toMatchObject({
        tiers: [
          { min_quantity: 5, percent_off: 10, unit_price: null },
          { min_quantity: 10, percent_off: null, unit_price: 4 },
        ],
        percent_off: null,
      });
      expect(await created({ name: 'Milk 2+1', kind: 'buy_x_get_y', buy_quantity: 2, get_quantity: 1, item_ids: [item('GRO-002')] })).toMatchObject({
        buy_quantity: 2,
        get_quantity: 1,
        get_percent_off: null,
        tiers: null,
      });
      expect(
        await created({ name: 'Bread 3+1 half', kind: 'buy_x_get_y', buy_quantity: 3, get_quantity: 1, get_percent_off: 50, item_ids: [item('GRO-001')] }),
      ).toMatchObject({ buy_quantity: 3, get_quantity: 1, get_percent_off: 50 });
      // "SQL" in a name is just text
      const sql = await created({
        name: "'; DROP TABLE pricing_rules; --",
        kind: 'percent_off',
        percent_off: 1,
        item_ids: [item('HSE-005')],
        is_active: false,
      });
      expect((await show(sql.id)).body.data.name).toBe("'; DROP TABLE pricing_rules; --");
    });

    it('answers bad bodies with 422 naming the field, and creates nothing', async () => {
      const before = await countRules();
      const p = { name: 'Bad', kind: 'percent_off', percent_off: 10 };
      const cases: [Record<string, unknown>, string[]][] = [
        [{ kind: 'percent_off', percent_off: 10 }, ['name']],
        [{ ...p, name: '   ' }, ['name']],
        [{ ...p, name: LONG }, ['name']],
        [{ ...p, description: LONG }, ['description']],
        [{ name: 'Bad' }, ['kind']],
        [{ ...p, kind: 'bogus' }, ['kind']],
        [{ name: 'Bad', kind: 'percent_off' }, ['percent_off']],
        [{ ...p, percent_off: 0 }, ['percent_off']],
        [{ ...p, percent_off: 101 }, ['percent_off']],
        [{ ...p, percent_off: 'ten' }, ['percent_off']],
        [{ ...p, percent_off: 10.555 }, ['percent_off']],
        [{ name: 'Bad', kind: 'amount_off' }, ['amount_off']],
        [{ name: 'Bad', kind: 'amount_off', amount_off: -1 }, ['amount_off']],
        [{ name: 'Bad', kind: 'amount_off', amount_off: 0 }, ['amount_off']],
        [{ name: 'Bad', kind: 'fixed_price' }, ['fixed_price']],
        [{ name: 'Bad', kind: 'quantity_tiers' }, ['tiers']],
        [{ name: 'Bad', kind: 'quantity_tiers', tiers: [] }, ['tiers']],
        [{ name: 'Bad', kind: 'quantity_tiers', tiers: [{ min_quantity: 5 }] }, ['tiers.0']],
        [
          {
            name: 'Bad',
            kind: 'quantity_tiers',
            tiers: [
              { min_quantity: 2, percent_off: 5 },
              { min_quantity: 5, percent_off: 10, unit_price: 1 },
            ],
          },
          ['tiers.1'],
        ],
        [{ name: 'Bad', kind: 'quantity_tiers', tiers: [{ min_quantity: 0, percent_off: 10 }] }, ['tiers.0.min_quantity']],
        [{ name: 'Bad', kind: 'quantity_tiers', tiers: [{ min_quantity: 2, percent_off: 150 }] }, ['tiers.0.percent_off']],
        [{ name: 'Bad', kind: 'buy_x_get_y' }, ['buy_quantity', 'get_quantity']],
        [{ name: 'Bad', kind: 'buy_x_get_y', buy_quantity: 2, get_quantity: 0 }, ['get_quantity']],
        [{ name: 'Bad', kind: 'buy_x_get_y', buy_quantity: 2, get_quantity: 1, get_percent_off: 101 }, ['get_percent_off']],
        [{ ...p, item_ids: [999999] }, ['item_ids.0']],
        [{ ...p, item_ids: [item('SNK-001'), 999999] }, ['item_ids.1']],
        [{ ...p, category_ids: [999999] }, ['category_ids.0']],
        [{ ...p, item_ids: 'abc' }, ['item_ids']],
        [{ ...p, item_ids: [0] }, ['item_ids']],
        [{ ...p, store_ids: ['x'] }, ['store_ids']],
        [{ ...p, valid_from: '2025-06-01', valid_to: '2025-05-01' }, ['valid_to']],
        [{ ...p, valid_from: 'yesterday' }, ['valid_from']],
        [{ ...p, valid_to: '2025-13-01' }, ['valid_to']],
        [{ ...p, start_time: '25:00' }, ['start_time']],
        [{ ...p, end_time: '9:00' }, ['end_time']],
        [{ ...p, days_of_week: [7] }, ['days_of_week']],
        [{ ...p, days_of_week: 'mon' }, ['days_of_week']],
        [{ ...p, priority: -1 }, ['priority']],
        [{ ...p, is_exclusive: 'sometimes' }, ['is_exclusive']],
        [{ ...p, min_quantity: 0 }, ['min_quantity']],
        [{ ...p, min_subtotal: -5 }, ['min_subtotal']],
      ];
      for (const [body, fields] of cases) {
        const res = await create(body);
        expectErrorEnvelope(res, 422, 'The given data was invalid.');
        expect([JSON.stringify(body).slice(0, 150), Object.keys(res.body.errors).sort()]).toEqual([JSON.stringify(body).slice(0, 150), [...fields].sort()]);
      }
      expect(await countRules()).toBe(before);
    });

    it('needs pricing.manage (403 for a cashier) and a token (401)', async () => {
      const before = await countRules();
      expectErrorEnvelope(await create({ name: 'Cashier rule', kind: 'percent_off', percent_off: 10 }, cashier), 403);
      expectErrorEnvelope(await api().post('/api/v1/pricing-rules').send({ name: 'Anon', kind: 'percent_off', percent_off: 10 }), 401, 'Unauthorized.');
      expect(await countRules()).toBe(before);
      expect((await create({ name: 'Admin rule', kind: 'percent_off', percent_off: 1, item_ids: [item('HSE-005')], is_active: false }, admin)).status).toBe(
        200,
      );
    });

    it('never answers hostile bodies with a server error', async () => {
      const p = { name: 'Hostile', kind: 'percent_off', percent_off: 10 };
      const bodies: unknown[] = [
        { ...p, priority: 1e20 },
        { ...p, percent_off: 1e308 },
        { ...p, item_ids: [2_147_483_648] },
        { ...p, item_ids: ["1' OR '1'='1"] },
        { ...p, category_ids: [{}] },
        { ...p, tiers: Array.from({ length: 21 }, (_, i) => ({ min_quantity: i + 1, percent_off: 1 })), kind: 'quantity_tiers' },
        { ...p, kind: 'quantity_tiers', tiers: [null] },
        { ...p, kind: 'quantity_tiers', tiers: 'many' },
        { ...p, days_of_week: [1, 1, 1, 1, 1, 1, 1, 1] },
        { ...p, kind: 'buy_x_get_y', buy_quantity: 1e9, get_quantity: 1e9 },
        { ...p, min_subtotal: 1e15, min_quantity: 1e15 },
        { ...p, valid_from: '9999-99-99', valid_to: '0000-00-00' },
        { ...p, valid_from: LONG },
        { ...p, start_time: LONG },
        { ...p, kind: ['percent_off'] },
        { ...p, name: { $gt: '' } },
        { ...p, item_ids: Array.from({ length: 201 }, (_, i) => i + 1) },
        [p],
      ];
      for (const body of bodies)
        expectNo5xx(
          await api().post('/api/v1/pricing-rules').set(bearer(manager)).set('Content-Type', 'application/json').send(JSON.stringify(body)),
          [400, 422],
        );
    });
  });
});
