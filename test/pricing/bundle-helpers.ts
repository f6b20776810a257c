import request from 'supertest';
import { bearer, DEMO, login, TestApp } from '../support/test-app';
import { DemoIds, demoIds } from '../catalog/catalog-helpers';
import { PricedLine } from './pricing-helpers';

/** Shared setup of the bundle suites (bundles-*.e2e-spec.ts, contract 4.8): users, six fixture bundles, requests. */
export interface BundleView {
  id: number;
  name: string;
  code: string;
  price: number;
  is_active: boolean;
  store_ids: number[];
  items: { item_id: number; quantity: number }[];
}

export interface BundleFixtures {
  admin: string;
  manager: string;
  cashier: string;
  ids: DemoIds;
  /** The fixture bundles by name, as the API created them. */
  b: Record<string, BundleView>;
}

/** Requests over a booted app and its fixtures (read lazily: both exist only after beforeAll). */
export function bundleKit(app: () => TestApp, fixtures: () => BundleFixtures) {
  const api = () => request(app().http);
  const item = (sku: string) => fixtures().ids.item[sku];
  const manager = () => fixtures().manager;
  const cashier = () => fixtures().cashier;
  const create = (body: Record<string, unknown>, token = manager()) => api().post('/api/v1/bundles').set(bearer(token)).send(body);
  const show = (id: number | string, token = manager()) => api().get(`/api/v1/bundles/${id}`).set(bearer(token));
  const update = (id: number | string, body: Record<string, unknown>, token = manager()) => api().put(`/api/v1/bundles/${id}`).set(bearer(token)).send(body);
  const remove = (id: number | string, token = manager()) => api().delete(`/api/v1/bundles/${id}`).set(bearer(token));
  const list = (query: string, token = manager()) => api().get(`/api/v1/bundles${query}`).set(bearer(token));
  const calculate = (body: Record<string, unknown>, token = cashier()) => api().post('/api/v1/bundles/calculate').set(bearer(token)).send(body);
  const availability = (id: number | string, query = '', token = cashier()) => api().get(`/api/v1/bundles/${id}/availability${query}`).set(bearer(token));
  const cart = (body: Record<string, unknown>, token = cashier()) => api().post('/api/v1/pricing/cart').set(bearer(token)).send(body);
  const lines = (res: request.Response) => res.body.data.items as PricedLine[];
  const names = (res: request.Response) => (res.body.data as BundleView[]).map((x) => x.name);
  const countBundles = async () => Number((await app().db.query('SELECT COUNT(*) AS n FROM bundles WHERE deleted_at IS NULL'))[0].n);
  const comp = (pairs: [string, number][]) => pairs.map(([sku, quantity]) => ({ item_id: item(sku), quantity }));
  return { api, item, create, show, update, remove, list, calculate, availability, cart, lines, names, countBundles, comp };
}

/**
 * Logs in and creates the six fixture bundles through the API (as the manager). The listing tests expect
 * exactly these six, in this order; the write tests need SNACK-PACK's code to be taken.
 */
export async function bundleFixtures(t: TestApp): Promise<BundleFixtures> {
  const [admin, manager, cashier] = await Promise.all([login(t, DEMO.admin), login(t, DEMO.manager), login(t, DEMO.cashier)]);
  const ids = await demoIds(t);
  const f: BundleFixtures = { admin, manager, cashier, ids, b: {} };
  const { create, comp } = bundleKit(
    () => t,
    () => f,
  );
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
  for (const fx of fixtures) {
    const res = await create(fx);
    if (res.status !== 201) throw new Error(`fixture ${String(fx.name)}: ${res.status} ${JSON.stringify(res.body)}`);
    f.b[fx.name as string] = res.body.data;
  }
  return f;
}
