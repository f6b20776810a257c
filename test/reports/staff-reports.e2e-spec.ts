import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, integrationToken, login, startTestApp, TestApp } from '../support/test-app';
import { ALL_REPORT_PERMISSIONS, expectReportShape, report, REPORTS } from './report-helpers';

/**
 * Issue 13: the 32 reports for staff under /reports, the same use cases as /integration/reports,
 * scoped to the caller's stores. Demo: the manager has every report permission and the Downtown
 * and Airport stores; the cashier has no report permission.
 */
describe('Staff reports (/reports)', () => {
  let t: TestApp;
  let manager: string;
  let cashier: string;
  let admin: string;
  let otherStore: number;

  beforeAll(async () => {
    t = await startTestApp();
    [manager, cashier, admin] = await Promise.all([login(t, DEMO.manager), login(t, DEMO.cashier), login(t, DEMO.admin)]);
    const now = t.isMysql ? new Date() : new Date().toISOString().replace('T', ' ').replace('Z', '');
    await t.db.query(
      'INSERT INTO stores (name, code, currency_code, timezone, prices_include_tax, allow_negative_stock, is_active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ['Harbour Store', 'HB', 'USD', 'UTC', 0, 0, 1, now, now],
    );
    otherStore = Number((await t.db.query("SELECT id FROM stores WHERE code = 'HB'"))[0].id);
  });
  afterAll(() => t.close());

  it.each(REPORTS)('GET /reports/%s: 200 for staff with %s, 403 without', async (path, permission) => {
    const staff = await request(t.http).get(`/api/v1/reports/${path}`).set(bearer(manager));
    expectReportShape(staff);
    const refused = await request(t.http).get(`/api/v1/reports/${path}`).set(bearer(cashier));
    expectErrorEnvelope(refused, 403, `You do not have the ${permission} permission.`);
  });

  it('answers what the integration route answers for the same stores (one use case)', async () => {
    const app = await integrationToken(t, ALL_REPORT_PERMISSIONS);
    for (const path of ['overview', 'sales', 'payments', 'heatmap', 'products/abc', 'inventory/stock', 'invoices/aging']) {
      const staff = await request(t.http).get(`/api/v1/reports/${path}`).set(bearer(manager)).query({ store_id: 1 });
      const integration = await report(t, app.token, path, { store_id: 1 });
      expect(staff.status).toBe(200);
      expect(staff.body.data).toEqual(integration.body.data);
      expect(staff.body.meta.filters).toEqual(integration.body.meta.filters);
    }
  });

  it("is scoped to the caller's stores: another store's store_id is 403, and it is left out of unfiltered reports", async () => {
    const res = await request(t.http).get('/api/v1/reports/stores').set(bearer(manager)).query({ store_id: otherStore });
    expectErrorEnvelope(res, 403);
    const mine = await request(t.http).get('/api/v1/reports/inventory/stock').set(bearer(manager));
    expect(mine.status).toBe(200);
    const stores = (await request(t.http).get('/api/v1/reports/stores').set(bearer(manager))).body.data.rows.map((r: { store_id: number }) => r.store_id);
    expect(stores).not.toContain(otherStore);
    const adminStores = (await request(t.http).get('/api/v1/reports/stores').set(bearer(admin))).body.data.rows.map((r: { store_id: number }) => r.store_id);
    expect(adminStores).toContain(otherStore);
  });

  it('keeps the audiences apart: an API application token on /reports and a staff token on /integration/reports are 403', async () => {
    const app = await integrationToken(t, ALL_REPORT_PERMISSIONS);
    expectErrorEnvelope(await request(t.http).get('/api/v1/reports/overview').set(bearer(app.token)), 403);
    expectErrorEnvelope(await report(t, manager, 'overview'), 403);
  });
});
