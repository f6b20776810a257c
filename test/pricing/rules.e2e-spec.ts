import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';
import { DemoIds, demoIds, expectNo5xx, HOSTILE_IDS, LONG } from '../catalog/catalog-helpers';
import { appToken, PricedLine } from './pricing-helpers';

interface RuleView {
  id: number;
  name: string;
  kind: string;
  priority: number;
  is_active: boolean;
  is_exclusive: boolean;
  percent_off: number | null;
  amount_off: number | null;
  conditions: Record<string, unknown>;
  valid_from: string | null;
  valid_to: string | null;
}

/** Pricing rules (contract 4.8): CRUD (200 / 200 / message; the contract gives 201 to other creates only), toggle, evaluate, list filters, rules in force. */
describe('Pricing rules', () => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let cashier: string;
  let ids: DemoIds;
  let membersGroup: number;

  const api = () => request(t.http);
  const item = (sku: string) => ids.item[sku];
  const create = (body: Record<string, unknown>, token = manager) => api().post('/api/v1/pricing-rules').set(bearer(token)).send(body);
  const show = (id: number | string, token = cashier) => api().get(`/api/v1/pricing-rules/${id}`).set(bearer(token));
  const update = (id: number | string, body: Record<string, unknown>, token = manager) =>
    api().put(`/api/v1/pricing-rules/${id}`).set(bearer(token)).send(body);
  const remove = (id: number | string, token = manager) => api().delete(`/api/v1/pricing-rules/${id}`).set(bearer(token));
  const toggle = (id: number | string, token = manager) => api().post(`/api/v1/pricing-rules/${id}/toggle`).set(bearer(token));
  const list = (query: string, token = cashier) => api().get(`/api/v1/pricing-rules${query}`).set(bearer(token));
  const cart = (body: Record<string, unknown>, token = cashier) => api().post('/api/v1/pricing/cart').set(bearer(token)).send(body);
  const names = (res: request.Response) => (res.body.data as RuleView[]).map((r) => r.name);
  const countRules = async () => Number((await t.db.query('SELECT COUNT(*) AS n FROM pricing_rules WHERE deleted_at IS NULL'))[0].n);
  const created = async (body: Record<string, unknown>): Promise<RuleView> => {
    const res = await create(body);
    expect(res.status).toBe(200);
    return res.body.data as RuleView;
  };
  /** Deletes every rule through the API, so a block starts from no rules at all. */
  const removeAllRules = async () => {
    for (;;) {
      const page = await list('?per_page=100', manager);
      if (!page.body.data.length) break;
      for (const r of page.body.data as RuleView[]) expect((await remove(r.id)).status).toBe(200);
    }
    expect(await countRules()).toBe(0);
  };
  const crispsPrice = async () => ((await cart({ items: [{ id: item('SNK-001'), qty: 1 }] })).body.data.items as PricedLine[])[0].unit_price;

  beforeAll(async () => {
    t = await startTestApp();
    [admin, manager, cashier] = await Promise.all([login(t, DEMO.admin), login(t, DEMO.manager), login(t, DEMO.cashier)]);
    ids = await demoIds(t);
    membersGroup = Number((await t.db.query("SELECT id FROM customer_groups WHERE code = 'members'"))[0].id);
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

  describe('GET, PUT, DELETE /pricing-rules/{id} and toggle', () => {
    let rule: RuleView;

    beforeAll(async () => {
      await removeAllRules();
      rule = await created({
        name: 'Crisps 10%',
        kind: 'percent_off',
        percent_off: 10,
        item_ids: [item('SNK-001')],
        category_ids: [ids.category.coffee],
        valid_from: '2020-01-01',
      });
    });

    it('shows a rule; unknown and hostile ids are 404', async () => {
      expect((await show(rule.id)).body.data).toMatchObject({ id: rule.id, name: 'Crisps 10%', percent_off: 10 });
      expectErrorEnvelope(await show(999999), 404);
      for (const id of HOSTILE_IDS) expectErrorEnvelope(await show(encodeURIComponent(id)), 404);
      expectErrorEnvelope(await api().get(`/api/v1/pricing-rules/${rule.id}`), 401);
    });

    it('does not read non-canonical ids (0x1, 1e0) as a rule id', async () => {
      for (const id of [`0x${rule.id.toString(16)}`, `${rule.id}e0`, `${rule.id}.0`, `+${rule.id}`]) {
        const res = await show(encodeURIComponent(id));
        expect([id, res.status]).toEqual([id, 404]);
      }
    });

    it('updates the given fields only (200) and the price follows', async () => {
      expect(await crispsPrice()).toBe(2.24);
      const res = await update(rule.id, {
        name: 'Crisps and nuts',
        priority: 4,
        is_exclusive: true,
        item_ids: [item('SNK-001'), item('SNK-003')],
        description: 'Two items',
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        id: rule.id,
        name: 'Crisps and nuts',
        description: 'Two items',
        kind: 'percent_off',
        percent_off: 10,
        priority: 4,
        is_exclusive: true,
        is_active: true,
        conditions: { item_ids: [item('SNK-001'), item('SNK-003')], category_ids: [ids.category.coffee] },
        valid_from: '2020-01-01T00:00:00.000Z',
      });
      const kind = await update(rule.id, { kind: 'amount_off', amount_off: 0.3 });
      expect(kind.status).toBe(200);
      expect(kind.body.data).toMatchObject({ kind: 'amount_off', amount_off: 0.3, percent_off: null });
      expect(await crispsPrice()).toBe(2.19);
      const back = await update(rule.id, { kind: 'percent_off', percent_off: 10 });
      expect(back.body.data).toMatchObject({ kind: 'percent_off', percent_off: 10, amount_off: null });
      expect(await crispsPrice()).toBe(2.24);
    });

    /** Puts the rule back as it was, whatever a (possibly wrongly accepted) update did. */
    const restore = async () => expect((await update(rule.id, { name: 'Crisps and nuts', kind: 'percent_off', percent_off: 10 })).status).toBe(200);

    it('updates the percentage alone (PUT {percent_off} without kind)', async () => {
      try {
        const res = await update(rule.id, { percent_off: 20 });
        expect(res.status).toBe(200);
        expect(res.body.data.percent_off).toBe(20);
        expect(await crispsPrice()).toBe(1.99);
      } finally {
        await restore();
      }
    });

    it('refuses an empty name on update (422)', async () => {
      try {
        for (const name of ['', '   ']) {
          const res = await update(rule.id, { name });
          expect([name, res.status, Object.keys(res.body.errors ?? {})]).toEqual([name, 422, ['name']]);
        }
        expect((await show(rule.id)).body.data.name).toBe('Crisps and nuts');
      } finally {
        await restore();
      }
    });

    it('validates the merged rule (422), answers 404 for unknown ids and 403 for a cashier', async () => {
      for (const [body, field] of [
        [{ kind: 'percent_off', percent_off: 0 }, 'percent_off'],
        [{ kind: 'buy_x_get_y' }, 'buy_quantity'],
        [{ valid_to: '2019-12-31' }, 'valid_to'],
        [{ item_ids: [999999] }, 'item_ids.0'],
        [{ kind: 'nope' }, 'kind'],
        [{ priority: 'high' }, 'priority'],
        [{ name: LONG }, 'name'],
      ] as [Record<string, unknown>, string][]) {
        const res = await update(rule.id, body);
        expectErrorEnvelope(res, 422);
        expect([body, Object.keys(res.body.errors)]).toEqual([body, expect.arrayContaining([field])]);
      }
      expect((await show(rule.id)).body.data).toMatchObject({ kind: 'percent_off', percent_off: 10, valid_to: null });
      expectErrorEnvelope(await update(999999, { name: 'Ghost' }), 404);
      for (const id of HOSTILE_IDS) expectErrorEnvelope(await update(encodeURIComponent(id), { name: 'Ghost' }), 404);
      expectErrorEnvelope(await update(rule.id, { name: 'Cashier was here' }, cashier), 403);
      expect((await show(rule.id)).body.data.name).toBe('Crisps and nuts');
      for (const body of [{ priority: 1e20 }, { item_ids: [LONG] }, { tiers: [{ min_quantity: LONG }] }, { valid_from: "2020-01-01' OR 1=1" }])
        expectNo5xx(await update(rule.id, body), [422]);
    });

    it("refuses a kind change without the new kind's parameter (422)", async () => {
      const seen: unknown[] = [];
      for (const [body, field] of [
        [{ kind: 'fixed_price' }, 'fixed_price'],
        [{ kind: 'amount_off' }, 'amount_off'],
      ] as [Record<string, unknown>, string][]) {
        const res = await update(rule.id, body);
        seen.push([body, res.status, Object.keys(res.body.errors ?? {}), field]);
        await restore();
      }
      expect(seen).toEqual([
        [{ kind: 'fixed_price' }, 422, ['fixed_price'], 'fixed_price'],
        [{ kind: 'amount_off' }, 422, ['amount_off'], 'amount_off'],
      ]);
    });

    it('toggles a rule off and on (200); an inactive rule does not price', async () => {
      const off = await toggle(rule.id);
      expect(off.status).toBe(200);
      expect(off.body.data).toMatchObject({ id: rule.id, is_active: false });
      expect(await crispsPrice()).toBe(2.49);
      const on = await toggle(rule.id);
      expect(on.body.data.is_active).toBe(true);
      expect(await crispsPrice()).toBe(2.24);
      expectErrorEnvelope(await toggle(rule.id, cashier), 403);
      expect((await show(rule.id)).body.data.is_active).toBe(true);
      expectErrorEnvelope(await toggle(999999), 404);
      for (const id of HOSTILE_IDS) expectErrorEnvelope(await toggle(encodeURIComponent(id)), 404);
    });

    it('deletes a rule with a message; it is gone for show, update, toggle, delete and pricing', async () => {
      expectErrorEnvelope(await remove(rule.id, cashier), 403);
      const res = await remove(rule.id);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, message: 'Pricing rule deleted.' });
      expectErrorEnvelope(await show(rule.id), 404);
      expectErrorEnvelope(await update(rule.id, { name: 'Zombie' }), 404);
      expectErrorEnvelope(await toggle(rule.id), 404);
      expectErrorEnvelope(await remove(rule.id), 404);
      expect(await crispsPrice()).toBe(2.49);
      expect((await list('?per_page=100')).body.data.map((r: RuleView) => r.id)).not.toContain(rule.id);
      expectErrorEnvelope(await remove(999999), 404);
      for (const id of HOSTILE_IDS) expectErrorEnvelope(await remove(encodeURIComponent(id)), 404);
    });
  });

  describe('POST /pricing-rules/evaluate', () => {
    const evaluate = (body: Record<string, unknown>, token = cashier) => api().post('/api/v1/pricing-rules/evaluate').set(bearer(token)).send(body);

    beforeAll(() => removeAllRules());

    it('says which rules apply to which lines and what each saves', async () => {
      const snacks = await created({ name: 'Snacks 10%', kind: 'percent_off', percent_off: 10, category_ids: [ids.category.snacks] });
      const beans = await created({ name: 'Beans -1.00', kind: 'amount_off', amount_off: 1, item_ids: [item('COF-001')] });
      const milk = await created({ name: 'Milk 2+1', kind: 'buy_x_get_y', buy_quantity: 2, get_quantity: 1, item_ids: [item('GRO-002')] });
      const expired = await created({
        name: 'Old chocolate deal',
        kind: 'percent_off',
        percent_off: 50,
        item_ids: [item('SNK-002')],
        valid_from: '2020-01-01',
        valid_to: '2020-12-31',
      });
      try {
        const res = await evaluate({
          items: [
            { id: item('SNK-001'), qty: 2 },
            { id: item('COF-001'), qty: 1 },
            { id: item('GRO-002'), qty: 3 },
            { id: item('SNK-002'), qty: 1 },
            { id: item('BEV-003'), qty: 1 },
          ],
        });
        expect(res.status).toBe(200);
        const applicable = [...res.body.data.applicable_rules].sort((a, b) => a.id - b.id);
        expect(applicable).toEqual([
          { id: snacks.id, name: 'Snacks 10%', lines: [0, 3], saving: 0.7 },
          { id: beans.id, name: 'Beans -1.00', lines: [1], saving: 1 },
          { id: milk.id, name: 'Milk 2+1', lines: [2], saving: 1.19 },
        ]);
        expect(res.body.data.total).toBe(19.31);
        const none = await evaluate({ items: [{ id: item('BEV-003'), qty: 1 }] });
        expect(none.body.data).toEqual({ applicable_rules: [], total: 1.94 });
        const bad = await evaluate({ items: [{ id: item('SNK-001'), qty: 0 }] });
        expectErrorEnvelope(bad, 422);
        expect(Object.keys(bad.body.errors)).toEqual(['items.0.qty']);
        expectErrorEnvelope(await evaluate({ items: [] }), 422);
        expectErrorEnvelope(await evaluate({ store_id: ids.store.AP, items: [{ id: item('SNK-001'), qty: 1 }] }), 403);
        expectErrorEnvelope(await evaluate({ items: [{ id: item('SNK-001'), qty: 1 }] }, await appToken(t, ['items.view'])), 403);
        expectNo5xx(await evaluate({ items: [{ id: LONG, qty: 1e30 }], store_id: "1' OR 1=1" }), [422]);
      } finally {
        for (const r of [snacks, beans, milk, expired]) await remove(r.id);
      }
    });
  });

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
      const res = await list('');
      expect(res.status).toBe(200);
      expect(names(res)).toEqual(ALL);
      expect(res.body.meta).toEqual({ current_page: 1, last_page: 1, per_page: 50, total: 7 });
    });

    it('filters by store, validity, item, category and is_active', async () => {
      const cases: [string, string[], string?][] = [
        [`?store_id=${ids.store.DT}`, ['Switched off', 'All stores, snacks', 'Downtown nuts', 'Expired tea', 'Upcoming coffee', 'Everything 1%']],
        [`?store_id=${ids.store.AP}`, ['Switched off', 'All stores, snacks', 'Airport cola', 'Expired tea', 'Upcoming coffee', 'Everything 1%'], manager],
        ['?validity=active', ['Switched off', 'All stores, snacks', 'Airport cola', 'Downtown nuts', 'Everything 1%']],
        ['?validity=upcoming', ['Upcoming coffee']],
        ['?validity=expired', ['Expired tea']],
        [`?item_id=${item('SNK-003')}`, ['Downtown nuts']],
        [`?item_id=${item('BEV-003')}`, ['Airport cola']],
        [`?item_id=${item('ELC-001')}`, []],
        [`?category_id=${ids.category.snacks}`, ['All stores, snacks']],
        [`?category_id=${ids.category.coffee}`, ['Upcoming coffee']],
        ['?is_active=false', ['Switched off']],
        ['?is_active=true', ALL.filter((n) => n !== 'Switched off')],
        [`?store_id=${ids.store.DT}&validity=active&is_active=1`, ['All stores, snacks', 'Downtown nuts', 'Everything 1%']],
      ];
      for (const [query, expected, token] of cases) {
        const res = await list(query, token ?? cashier);
        expect(res.status).toBe(200);
        expect([query, names(res), res.body.meta.total]).toEqual([query, expected, expected.length]);
      }
    });

    it('paginates and clamps per_page at 100', async () => {
      const p1 = await list('?per_page=2');
      expect(names(p1)).toEqual(ALL.slice(0, 2));
      expect(p1.body.meta).toEqual({ current_page: 1, last_page: 4, per_page: 2, total: 7 });
      const p4 = await list('?per_page=2&page=4');
      expect(names(p4)).toEqual(['Everything 1%']);
      const p5 = await list('?per_page=2&page=5');
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
      const res = await api().get('/api/v1/pricing/rules').set(bearer(cashier));
      expect(res.status).toBe(200);
      expect((res.body.data as RuleView[]).map((r) => r.name)).toEqual(['All stores, snacks', 'Airport cola', 'Downtown nuts', 'Everything 1%']);
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
      expect(await forItem('BEV-003')).toEqual({ names: ['Airport cola', 'Everything 1%'], applied: [] });
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
