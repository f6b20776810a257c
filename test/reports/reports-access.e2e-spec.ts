import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, integrationToken, login, TestApp } from '../support/test-app';
import { bootReportDay, dt } from './report-day';
import { ALL_REPORT_PERMISSIONS, expectReportShape, fig, report, REPORTS } from './report-helpers';

/**
 * Every report's payload on both prefixes, store scope, permissions, bad filters, the cashier and
 * inventory reports of the day. The day, worked out by hand, and its setup are in report-day.ts.
 */
describe('Integration reports', () => {
  let t: TestApp;
  let all: string;
  const api = () => request(t.http);

  beforeAll(async () => {
    ({ t, all } = await bootReportDay());
  });
  afterAll(() => t.close());

  it('every report answers 200 with the 2.6 payload, and the same under /integrations/', async () => {
    const strip = (body: { meta: Record<string, unknown> }) => ({ ...body, meta: { ...body.meta, generated_at: 'x', as_of: 'x' } });
    for (const [path] of REPORTS) {
      const a = await report(t, all, path);
      expectReportShape(a);
      const b = await report(t, all, path, {}, 'integrations');
      expectReportShape(b);
      expect([path, strip(b.body)]).toEqual([path, strip(a.body)]);
      expect([path, a.body.data.charts.length > 0]).toEqual([path, true]);
    }
  });

  it('store scope: all stores in UTC, one store in its time zone; an application limited to Downtown sees Downtown only', async () => {
    const everyStore = await report(t, all, 'stores');
    expect(everyStore.body.meta.filters).toMatchObject({ store_id: null, time_zone: 'UTC' });
    expect(everyStore.body.data.rows.map((r: { store_code: string; sales_count: number }) => [r.store_code, r.sales_count])).toEqual([
      ['DT', 5],
      ['AP', 1],
    ]);
    expect(fig(everyStore.body, 'sales_count')).toBe(6);

    const limited = await integrationToken(t, ALL_REPORT_PERMISSIONS);
    const admin = await login(t, DEMO.admin);
    const scoped = await api()
      .post('/api/v1/api-applications')
      .set(bearer(admin))
      .send({ name: 'Downtown only', permissions: ALL_REPORT_PERMISSIONS, store_ids: [1] });
    expect(scoped.status).toBe(201);
    const token = (
      await api()
        .post(`/api/v1/api-applications/${scoped.body.data.id}/tokens`)
        .set(bearer(admin))
        .send({ name: 'r', abilities: ['integration:read'] })
    ).body.data.token;
    const mine = await report(t, token, 'stores');
    expect(mine.body.data.rows.map((r: { store_code: string }) => r.store_code)).toEqual(['DT']);
    expect(mine.body.meta.filters.time_zone).toBe('America/New_York');
    expect(fig((await report(t, token, 'sales')).body, 'sales_count')).toBe(5);
    expectErrorEnvelope(await report(t, token, 'sales', { store_id: 2 }), 403);
    expectErrorEnvelope(await report(t, token, 'inventory/stock', { warehouse_id: 2 }), 403);
    expect((await report(t, limited.token, 'sales', { store_id: 2 })).status).toBe(200);

    // One cashier by id: staff of the caller's stores only; another store's cashier or an API
    // application is 404, as an unknown id (their names were readable in the chart's title).
    const userId = async (email: string) => Number((await t.db.query('SELECT id FROM users WHERE email = ?', [email]))[0].id);
    const airportApp = await api()
      .post('/api/v1/api-applications')
      .set(bearer(admin))
      .send({ name: 'Airport only', permissions: ALL_REPORT_PERMISSIONS, store_ids: [2] });
    const airport = (
      await api()
        .post(`/api/v1/api-applications/${airportApp.body.data.id}/tokens`)
        .set(bearer(admin))
        .send({ name: 'r', abilities: ['integration:read'] })
    ).body.data.token;
    const cass = await userId('cashier@example.com'); // Downtown only
    const own = await report(t, token, `cashier/${cass}`);
    expect([own.status, own.body.data.charts[0].title]).toEqual([200, 'Total per day: Cass Cashier']);
    expectErrorEnvelope(await report(t, airport, `cashier/${cass}`), 404);
    expect((await report(t, airport, `cashier/${await userId('manager@example.com')}`)).status).toBe(200); // works at both
    expect((await report(t, airport, `cashier/${await userId('admin@example.com')}`)).status).toBe(200); // a super admin works in every store
    expectErrorEnvelope(await report(t, token, `cashier/${limited.appId}`), 404); // an API application
    expectErrorEnvelope(await report(t, limited.token, `cashier/${limited.appId}`), 404);
    expect((await report(t, limited.token, `cashier/${cass}`)).status).toBe(200);
  });

  it('403 for a token lacking the report permission, a staff token, and a token without integration:read', async () => {
    const viewOnly = (await integrationToken(t, ['reports.view'])).token;
    expect((await report(t, viewOnly, 'overview')).status).toBe(200);
    const staff = await login(t, DEMO.admin);
    const noAbility = (await integrationToken(t, ALL_REPORT_PERMISSIONS, ['pos'])).token;
    for (const [path, permission] of REPORTS) {
      if (permission !== 'reports.view') expectErrorEnvelope(await report(t, viewOnly, path), 403);
      expectErrorEnvelope(await report(t, staff, path), 403);
      expectErrorEnvelope(await report(t, noAbility, path, {}, 'integrations'), 403);
    }
    expectErrorEnvelope(await request(t.http).get('/api/v1/integration/reports/sales'), 401);
  });

  it('422 for bad dates and filters, naming the field; 404 for an unknown cashier', async () => {
    const bad = async (query: Record<string, string | number>, field: string, path = 'sales') => {
      const res = await report(t, all, path, query);
      expectErrorEnvelope(res, 422);
      expect([field, Object.keys(res.body.errors)]).toEqual([field, [field]]);
    };
    await bad({ date_from: '2025-13-01' }, 'date_from');
    await bad({ date_from: '2025-02-30' }, 'date_from');
    await bad({ date_to: 'yesterday' }, 'date_to');
    await bad({ date_from: '2025-03-10', date_to: '2025-03-01' }, 'date_from');
    await bad({ date_from: '2024-01-01', date_to: '2025-01-01' }, 'date_to', 'inventory/movement');
    await bad({ store_id: 'abc' }, 'store_id');
    await bad({ store_id: 999 }, 'store_id', 'overview');
    await bad({ warehouse_id: 999 }, 'warehouse_id', 'payments');
    await bad({ store_id: 2, warehouse_id: 1 }, 'warehouse_id', 'tax');
    const year = await report(t, all, 'sales', { date_from: '2024-01-01', date_to: '2024-12-31' });
    expect(year.status).toBe(200);
    expect(year.body.data.charts[0].series[0].data).toHaveLength(366);
    expect(fig(year.body, 'sales_count')).toBe(0);
    expectErrorEnvelope(await report(t, all, 'cashier/99999'), 404);
    expectErrorEnvelope(await report(t, all, 'cashier/abc'), 404);
  });

  it('cashier: one cashier’s figures', async () => {
    const cashierId = Number((await t.db.query("SELECT id FROM users WHERE email = 'cashier@example.com'"))[0].id);
    const res = await report(t, all, `cashier/${cashierId}`, dt);
    expectReportShape(res);
    expect(fig(res.body, 'sales_count')).toBe(5);
    expect(fig(res.body, 'total')).toBe(37.32);
    expect(fig(res.body, 'voids')).toBe(1);
    const list = await report(t, all, 'cashier');
    expect(list.body.data.rows.map((r: { cashier_name: string; sales_count: number }) => [r.cashier_name, r.sales_count])).toEqual([
      ['Cass Cashier', 5],
      ['Max Manager', 1],
    ]);
  });

  it('inventory: movements of the sales and the void, stock now', async () => {
    const wh = Number((await t.db.query("SELECT id FROM warehouses WHERE code = 'DT-MAIN'"))[0].id);
    const res = await report(t, all, 'inventory/movement', { warehouse_id: wh });
    expectReportShape(res);
    const type = (s: string) => res.body.data.rows.find((r: { type: string }) => r.type === s);
    expect(type('sale')).toMatchObject({ movements: 7, units_out: 8, units_in: 0 });
    expect(type('void')).toMatchObject({ movements: 1, units_in: 1 });
    const stock = await report(t, all, 'inventory/stock', { warehouse_id: wh });
    const water = stock.body.data.rows.find((r: { sku: string }) => r.sku === 'BEV-001');
    expect(water).toMatchObject({ on_hand: 48, reorder_level: 10, stock_status: 'in_stock', unit_cost: 0.4, value: 19.2 });
  });
});
