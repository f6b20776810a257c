import { bearer, expectErrorEnvelope, startTestApp, TestApp } from '../support/test-app';
import { DemoIds, expectNo5xx, HOSTILE_IDS, LONG } from '../catalog/catalog-helpers';
import { appToken } from './pricing-helpers';
import { RuleFixtures, ruleFixtures, rulesApi, RuleView } from './rule-helpers';

/** Pricing rules (contract 4.8): CRUD (200 / 200 / message; the contract gives 201 to other creates only), toggle, evaluate, list filters, rules in force.
 * This part: show, update, toggle and delete one rule, and POST /pricing-rules/evaluate. */
describe('Pricing rules', () => {
  let t: TestApp;
  let f: RuleFixtures;
  let cashier: string;
  let ids: DemoIds;

  const { api, item, show, update, remove, toggle, list, created, removeAllRules, crispsPrice } = rulesApi(
    () => t,
    () => f,
  );

  beforeAll(async () => {
    t = await startTestApp();
    f = await ruleFixtures(t);
    ({ cashier, ids } = f);
  });
  afterAll(() => t.close());
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
});
