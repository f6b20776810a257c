import request from 'supertest';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';

/**
 * Shared setup of the returns suites (returns-workflow, returns-boundaries): the app, the three
 * demo users, the items by SKU, and a cash session open for the cashier (100) and the manager (50)
 * in the Downtown store. Each suite boots its own app, so receipt and return numbers start at 1.
 */
export interface ReturnsSuite {
  t: TestApp;
  cashier: string;
  manager: string;
  admin: string;
  ids: Record<string, number>;
  cashierSession: number;
  managerSession: number;
}

export async function bootReturns(): Promise<ReturnsSuite> {
  const t = await startTestApp();
  const api = () => request(t.http);
  const cashier = await login(t, DEMO.cashier);
  const manager = await login(t, DEMO.manager);
  const admin = await login(t, DEMO.admin);
  const ids = Object.fromEntries((await t.db.query('SELECT id, sku FROM items')).map((r: { id: number; sku: string }) => [r.sku, Number(r.id)]));
  const cashierSession = (await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 100 }).expect(200)).body.data.id;
  const managerSession = (await api().post('/api/v1/sessions/open').set(bearer(manager)).send({ store_id: 1, opening_balance: 50 }).expect(200)).body.data.id;
  return { t, cashier, manager, admin, ids, cashierSession, managerSession };
}

/**
 * Requests and ledger reads over the suite's app. `suite` is read at call time: the suite's
 * variables are set in its beforeAll, after these closures are made.
 */
export function returnsTools(suite: () => Pick<ReturnsSuite, 't' | 'cashier' | 'manager'>) {
  const api = () => request(suite().t.http);
  let n = 0;
  const sell = (body: Record<string, unknown>, token = suite().cashier) =>
    api()
      .post('/api/v1/pos/checkout')
      .set(bearer(token))
      .send({ store_id: 1, idempotency_key: `ret-sale-${++n}`, ...body });
  const createReturn = (body: Record<string, unknown>, token = suite().cashier) => api().post('/api/v1/returns').set(bearer(token)).send(body);
  const act = (id: number, action: string, token = suite().manager, body: Record<string, unknown> = {}) =>
    api().post(`/api/v1/returns/${id}/${action}`).set(bearer(token)).send(body);
  const stock = async (sku: string, wh = 1) =>
    Number(
      (await suite().t.db.query('SELECT s.quantity FROM stock_levels s JOIN items i ON i.id = s.item_id WHERE i.sku = ? AND s.warehouse_id = ?', [sku, wh]))[0]
        .quantity,
    );
  const movements = async (returnId: number) =>
    (
      await suite().t.db.query(
        "SELECT i.sku, m.type, m.quantity FROM stock_movements m JOIN items i ON i.id = m.item_id WHERE m.reference_type = 'return' AND m.reference_id = ? ORDER BY m.id",
        [String(returnId)],
      )
    ).map((r: { sku: string; type: string; quantity: number }) => [r.sku, r.type, Number(r.quantity)]);
  return { api, sell, createReturn, act, stock, movements };
}
