import request from 'supertest';
import { bearer, DEMO, login, TestApp } from '../support/test-app';
import { DemoIds, demoIds } from '../catalog/catalog-helpers';
import { PricedLine } from './pricing-helpers';

/** Shared setup of the pricing rule suites (rules-*.e2e-spec.ts, contract 4.8): users, demo ids, requests. */
export interface RuleView {
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

export interface RuleFixtures {
  admin: string;
  manager: string;
  cashier: string;
  ids: DemoIds;
  membersGroup: number;
}

export async function ruleFixtures(t: TestApp): Promise<RuleFixtures> {
  const [admin, manager, cashier] = await Promise.all([login(t, DEMO.admin), login(t, DEMO.manager), login(t, DEMO.cashier)]);
  const ids = await demoIds(t);
  const membersGroup = Number((await t.db.query("SELECT id FROM customer_groups WHERE code = 'members'"))[0].id);
  return { admin, manager, cashier, ids, membersGroup };
}

/** Requests over a booted app and its fixtures (read lazily: both exist only after beforeAll). */
export function rulesApi(app: () => TestApp, fixtures: () => RuleFixtures) {
  const api = () => request(app().http);
  const item = (sku: string) => fixtures().ids.item[sku];
  const manager = () => fixtures().manager;
  const cashier = () => fixtures().cashier;
  const create = (body: Record<string, unknown>, token = manager()) => api().post('/api/v1/pricing-rules').set(bearer(token)).send(body);
  const show = (id: number | string, token = cashier()) => api().get(`/api/v1/pricing-rules/${id}`).set(bearer(token));
  const update = (id: number | string, body: Record<string, unknown>, token = manager()) =>
    api().put(`/api/v1/pricing-rules/${id}`).set(bearer(token)).send(body);
  const remove = (id: number | string, token = manager()) => api().delete(`/api/v1/pricing-rules/${id}`).set(bearer(token));
  const toggle = (id: number | string, token = manager()) => api().post(`/api/v1/pricing-rules/${id}/toggle`).set(bearer(token));
  const list = (query: string, token = cashier()) => api().get(`/api/v1/pricing-rules${query}`).set(bearer(token));
  const cart = (body: Record<string, unknown>, token = cashier()) => api().post('/api/v1/pricing/cart').set(bearer(token)).send(body);
  const names = (res: request.Response) => (res.body.data as RuleView[]).map((r) => r.name);
  const countRules = async () => Number((await app().db.query('SELECT COUNT(*) AS n FROM pricing_rules WHERE deleted_at IS NULL'))[0].n);
  const created = async (body: Record<string, unknown>): Promise<RuleView> => {
    const res = await create(body);
    expect(res.status).toBe(200);
    return res.body.data as RuleView;
  };
  /** Deletes every rule through the API, so a block starts from no rules at all. */
  const removeAllRules = async () => {
    for (;;) {
      const page = await list('?per_page=100', manager());
      if (!page.body.data.length) break;
      for (const r of page.body.data as RuleView[]) expect((await remove(r.id)).status).toBe(200);
    }
    expect(await countRules()).toBe(0);
  };
  const crispsPrice = async () => ((await cart({ items: [{ id: item('SNK-001'), qty: 1 }] })).body.data.items as PricedLine[])[0].unit_price;
  return { api, item, create, show, update, remove, toggle, list, cart, names, countRules, created, removeAllRules, crispsPrice };
}
