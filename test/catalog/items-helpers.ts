import request from 'supertest';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';
import { DemoIds, demoIds } from './catalog-helpers';

/**
 * Shared setup of the item suites (items-listing, items-create, items-update-delete): contract
 * 4.2 and 8, list/search/paginate, show, check-name, create, update, soft delete. Each suite boots
 * its own app, so each starts from the seed.
 */
export interface ItemRow {
  id: number;
  sku: string;
  name: string;
  barcodes: string[];
  units: { id: number; name: string; factor: number; price: number | null; barcode: string | null }[];
}

/** The barcode the demo seed gives Still Water's case unit. */
export const CASE_BARCODE = '14006381333907';

export interface ItemsSuite {
  t: TestApp;
  admin: string;
  manager: string;
  cashier: string;
  ids: DemoIds;
}

/** Boots the app and signs in the three demo users (what every item suite's beforeAll does). */
export async function bootItems(): Promise<ItemsSuite> {
  const t = await startTestApp();
  const [admin, manager, cashier] = await Promise.all([login(t, DEMO.admin), login(t, DEMO.manager), login(t, DEMO.cashier)]);
  return { t, admin, manager, cashier, ids: await demoIds(t) };
}

/**
 * Requests over the suite's app. `suite` is read at call time: the suite's variables are set in
 * its beforeAll, after these closures are made.
 */
export function itemsTools(suite: () => Pick<ItemsSuite, 't' | 'manager' | 'cashier'>) {
  const api = () => request(suite().t.http);
  const list = (query: string, token = suite().cashier) => api().get(`/api/v1/items${query}`).set(bearer(token));
  const create = (body: Record<string, unknown>, token = suite().manager) => api().post('/api/v1/items').set(bearer(token)).send(body);
  const update = (id: number | string, body: Record<string, unknown>, token = suite().manager) =>
    api().put(`/api/v1/items/${id}`).set(bearer(token)).send(body);
  const names = (res: request.Response) => (res.body.data as ItemRow[]).map((i) => i.name);
  const countSku = async (sku: string) => Number((await suite().t.db.query('SELECT COUNT(*) AS n FROM items WHERE sku = ?', [sku]))[0].n);
  return { api, list, create, update, names, countSku };
}
