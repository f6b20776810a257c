import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, integrationToken, login, startTestApp, TestApp } from '../support/test-app';
import { ALL_REPORT_PERMISSIONS, expectReportShape, fig, report, REPORTS } from './report-helpers';

/**
 * The reports on a known day in the Downtown store (tax-exclusive; standard 8.25%, food 2%),
 * every figure worked out by hand (tax half away from zero per line; cost = unit cost x qty):
 *
 *   sale  items                                   net    tax    total  cost  paid
 *   A     2 x Still Water 1.29 (2%)               2.58   0.05   2.63   0.80  cash 10.00 (4.57 taken, change 5.43)
 *         Cola 1.79 (8.25%)                       1.79   0.15   1.94   0.60
 *   B     Salted Crisps 2.49 (8.25%)              2.49   0.21   2.70   0.90  card 2.70        -> voided
 *   C     Ground Coffee 12.49 (2%)               12.49   0.25  12.74   6.10  card 10 + cash 5 (2.74 taken, change 2.26)
 *   D     Jane: Ground Coffee 10.99 (book, 2%)   10.99   0.22  11.21   6.10  on account
 *   E     Dish Soap 3.49 - 10% 0.35 (8.25%)       3.14   0.26   3.40   1.40  cash 3.40
 *   F     Jane: Mixed Nuts 4.99 (book, 8.25%)     4.99   0.41   5.40   2.60  on account (2.00 paid later)
 *
 * Kept (A C D E F): 5 sales, 7 units, gross 36.33, discounts 0.35, net 35.98, tax 1.34, total 37.32,
 * COGS 17.60, gross profit 18.38, margin 51.08%, average sale 7.46. Voids: 1 (2.70).
 * Payments: cash 4.57 + 2.74 + 3.40 = 10.71 (3), card 10.00 (1; the voided 2.70 reversed),
 * on account 11.21 + 5.40 = 16.61 (2); change given 7.69.
 * Tax: 2% on 2.58 + 12.49 + 10.99 = 26.06 -> 0.52 (3 lines); 8.25% on 1.79 + 3.14 + 4.99 = 9.92 -> 0.82 (3 lines).
 * ABC by revenue (35.98): Ground Coffee 23.48 (65.26%, A), Mixed Nuts 4.99 (79.13%, A),
 * Dish Soap 3.14 (87.85%, B), Still Water 2.58 (95.03%, C), Cola 1.79 (100%, C).
 * Closeout: opening 100, cash in 20, out 5: expected 100 + 10.71 + 20 - 5 = 125.71; counted 130.50 -> +4.79.
 * One sale in the Airport store (G, manager) shows the store filters apart.
 */
describe('Integration reports', () => {
  let t: TestApp;
  let all: string;
  let cashier: string;
  let manager: string;
  let ids: Record<string, number>;
  let janeId: number;
  let sessionId: number;
  const sales: Record<string, { id: number; created_at: string; invoice: { id: number } }> = {};
  const api = () => request(t.http);
  let n = 0;
  const sell = async (name: string, body: Record<string, unknown>, token = cashier, storeId = 1) => {
    const res = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(token))
      .send({ store_id: storeId, idempotency_key: `rpt-${++n}`, ...body });
    if (res.status !== 201) throw new Error(`${name}: ${res.status} ${JSON.stringify(res.body)}`);
    sales[name] = res.body.data;
    return res.body.data;
  };
  const dt = { store_id: 1 };

  beforeAll(async () => {
    t = await startTestApp();
    all = (await integrationToken(t, ALL_REPORT_PERMISSIONS)).token;
    cashier = await login(t, DEMO.cashier);
    manager = await login(t, DEMO.manager);
    ids = Object.fromEntries((await t.db.query('SELECT id, sku FROM items')).map((r: { id: number; sku: string }) => [r.sku, Number(r.id)]));
    janeId = Number((await t.db.query("SELECT id FROM customers WHERE email = 'jane.doe@example.com'"))[0].id);

    sessionId = (await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 100 })).body.data.id;
    await sell('A', {
      items: [
        { id: ids['BEV-001'], qty: 2 },
        { id: ids['BEV-003'], qty: 1 },
      ],
      payments: [{ payment_method_code: 'cash', amount: 10 }],
      total_amount: 4.57,
    });
    await sell('B', { items: [{ id: ids['SNK-001'], qty: 1 }], payments: [{ payment_method_code: 'card', amount: 2.7 }], total_amount: 2.7 });
    await sell('C', {
      items: [{ id: ids['COF-002'], qty: 1 }],
      payments: [
        { payment_method_code: 'card', amount: 10 },
        { payment_method_code: 'cash', amount: 5 },
      ],
      total_amount: 12.74,
    });
    await sell('D', {
      customer_id: String(janeId),
      items: [{ id: ids['COF-002'], qty: 1 }],
      payments: [{ payment_method_code: 'on_account', amount: 11.21 }],
      total_amount: 11.21,
    });
    await sell('E', {
      items: [{ id: ids['HSE-001'], qty: 1, discount_type: 'percent', discount_value: 10 }],
      payments: [{ payment_method_code: 'cash', amount: 3.4 }],
      total_amount: 3.4,
    });
    await sell('F', {
      customer_id: String(janeId),
      items: [{ id: ids['SNK-003'], qty: 1 }],
      payments: [{ payment_method_code: 'on_account', amount: 5.4 }],
      total_amount: 5.4,
    });
    await api().post(`/api/v1/sales/${sales.B.id}/void`).set(bearer(manager)).send({ reason: 'test' }).expect(200);
    await api().post(`/api/v1/invoices/${sales.F.invoice.id}/payments`).set(bearer(manager)).send({ payment_method_code: 'card', amount: 2 }).expect(201);
    await api().post(`/api/v1/sessions/${sessionId}/cash-movement`).set(bearer(cashier)).send({ type: 'cash_in', amount: 20, reason: 'Float' }).expect(200);
    await api().post(`/api/v1/sessions/${sessionId}/cash-movement`).set(bearer(cashier)).send({ type: 'cash_out', amount: 5, reason: 'Window' }).expect(200);
    await api().post(`/api/v1/sessions/${sessionId}/close`).set(bearer(cashier)).send({ closing_balance: 130.5 }).expect(200);

    await api().post('/api/v1/sessions/open').set(bearer(manager)).send({ store_id: 2, opening_balance: 50 }).expect(200);
    await sell('G', { items: [{ id: ids['BEV-003'], qty: 1 }], payments: [{ payment_method_code: 'cash', amount: 3 }], total_amount: 2.99 }, manager, 2);
  });
  afterAll(() => t.close());

  it('sales: the day figure by figure', async () => {
    const res = await report(t, all, 'sales', dt);
    expectReportShape(res);
    const expected: Record<string, number> = {
      sales_count: 5,
      items_sold: 7,
      gross_sales: 36.33,
      discounts: 0.35,
      net_sales: 35.98,
      tax: 1.34,
      total: 37.32,
      average_sale: 7.46,
      refunds: 0,
      total_after_refunds: 37.32,
      voids: 1,
      voided_total: 2.7,
    };
    for (const [key, value] of Object.entries(expected)) expect([key, fig(res.body, key)]).toEqual([key, value]);
    const rows = res.body.data.rows as { sales_count: number; total: number; currency: string }[];
    expect(rows.every((r) => r.currency === 'USD')).toBe(true);
    expect(rows.reduce((a, r) => a + r.sales_count, 0)).toBe(5);
    expect(res.body.data.charts[0]).toMatchObject({ type: 'line', series: [{ name: 'USD', currency: 'USD' }] });
    expect(res.body.data.charts[0].series[0].data).toHaveLength(30);
    expect(res.body.meta.filters).toMatchObject({ store_id: 1, warehouse_id: null, time_zone: 'America/New_York' });
  });

  it('payments: per method, the voided card payment reversed', async () => {
    const res = await report(t, all, 'payments', dt);
    expectReportShape(res);
    const row = (code: string) => res.body.data.rows.find((r: { method_code: string }) => r.method_code === code);
    expect(row('cash')).toMatchObject({ payments: 3, taken: 10.71, change_given: 7.69, refunded: 0, net: 10.71, voided_payments: 0 });
    expect(row('card')).toMatchObject({ payments: 1, taken: 10, voided_payments: 1, voided_amount: 2.7 });
    expect(row('on_account')).toMatchObject({ payments: 2, taken: 16.61 });
    expect(fig(res.body, 'taken')).toBe(37.32);
    expect(fig(res.body, 'change_given')).toBe(7.69);
    expect(fig(res.body, 'net_cash')).toBe(10.71);
    expect(fig(res.body, 'voided')).toBe(2.7);
    expect(res.body.data.charts.map((c: { type: string }) => c.type)).toEqual(['pie', 'line']);
  });

  it('tax: per store and rate', async () => {
    const res = await report(t, all, 'tax', dt);
    expectReportShape(res);
    expect(res.body.data.rows).toEqual([
      expect.objectContaining({ store_id: 1, rate_percent: 2, lines: 3, taxable_sales: 26.06, tax_collected: 0.52, net_tax: 0.52 }),
      expect.objectContaining({ store_id: 1, rate_percent: 8.25, lines: 3, taxable_sales: 9.92, tax_collected: 0.82, net_tax: 0.82 }),
    ]);
    expect(fig(res.body, 'tax_collected')).toBe(1.34);
    expect(fig(res.body, 'taxable_sales')).toBe(35.98);
    expect(fig(res.body, 'exempt_sales')).toBe(0);
  });

  it('customers: named customers’ money before tax, as every net sales and revenue figure', async () => {
    const res = await report(t, all, 'customers', dt);
    expectReportShape(res);
    // Jane: D 10.99 + F 4.99 net (11.21 + 5.40 incl. tax), both on account.
    expect(fig(res.body, 'customer_net_sales')).toBe(15.98);
    expect(fig(res.body, 'net_sales_per_customer')).toBe(15.98);
    expect([fig(res.body, 'customers_served'), fig(res.body, 'customer_sales'), fig(res.body, 'anonymous_sales')]).toEqual([1, 2, 3]);
    expect(fig(res.body, 'on_account')).toBe(16.61);
    expect(res.body.data.summary.map((f: { key: string }) => f.key)).not.toContain('customer_revenue');
    expect(res.body.data.rows).toEqual([
      expect.objectContaining({ customer_id: janeId, customer_name: 'Jane Doe', sales_count: 2, net_sales: 15.98, total: 16.61 }),
    ]);
    expect(res.body.data.columns).toContainEqual({ key: 'net_sales', label: 'Net sales (before tax)', unit: 'money' });
  });

  it('profit: COGS from the unit cost on each line, even after the cost changes', async () => {
    await t.db.query('UPDATE items SET cost = cost * 3');
    const res = await report(t, all, 'profit', dt);
    await t.db.query('UPDATE items SET cost = cost / 3');
    expectReportShape(res);
    expect(fig(res.body, 'revenue')).toBe(35.98);
    expect(fig(res.body, 'cogs')).toBe(17.6);
    expect(fig(res.body, 'gross_profit')).toBe(18.38);
    expect(fig(res.body, 'margin_percent')).toBe(51.08);
    expect(fig(res.body, 'markup_percent')).toBe(104.43);
    expect(res.body.data.charts.map((c: { type: string }) => c.type)).toEqual(['line', 'bar']);
  });

  it('products/abc: classes by cumulative revenue share (A <= 80%, B <= 95%, C rest)', async () => {
    const res = await report(t, all, 'products/abc', dt);
    expectReportShape(res);
    expect(
      res.body.data.rows.map((r: { sku: string; revenue: number; cumulative_percent: number; class: string }) => [
        r.sku,
        r.revenue,
        r.cumulative_percent,
        r.class,
      ]),
    ).toEqual([
      ['COF-002', 23.48, 65.26, 'A'],
      ['SNK-003', 4.99, 79.13, 'A'],
      ['HSE-001', 3.14, 87.85, 'B'],
      ['BEV-001', 2.58, 95.03, 'C'],
      ['BEV-003', 1.79, 100, 'C'],
    ]);
    expect(fig(res.body, 'class_a_items')).toBe(2);
    expect(fig(res.body, 'class_a_revenue')).toBe(28.47);
    expect(fig(res.body, 'class_b_items')).toBe(1);
    expect(fig(res.body, 'class_c_items')).toBe(2);
    expect(fig(res.body, 'class_c_revenue')).toBe(4.37);
  });

  it('products: per item, units and profit', async () => {
    const res = await report(t, all, 'products', dt);
    expectReportShape(res);
    expect(res.body.data.rows[0]).toMatchObject({ sku: 'COF-002', units_sold: 2, net_sales: 23.48, cogs: 12.2, gross_profit: 11.28, category: 'Coffee & Tea' });
    expect(res.body.data.rows.find((r: { sku: string }) => r.sku === 'BEV-001')).toMatchObject({ units_sold: 2, net_sales: 2.58, tax: 0.05, cogs: 0.8 });
    expect(res.body.data.rows.find((r: { sku: string }) => r.sku === 'SNK-001')).toBeUndefined();
    expect(fig(res.body, 'units_sold')).toBe(7);
  });

  it('heatmap: every sale in the cell of its local weekday and hour (America/New_York)', async () => {
    const res = await report(t, all, 'heatmap', dt);
    expectReportShape(res);
    const cell = (iso: string) => {
      const parts = Object.fromEntries(
        new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', weekday: 'short', hour: 'numeric', hourCycle: 'h23' })
          .formatToParts(new Date(iso))
          .map((p) => [p.type, p.value]),
      );
      return `${parts.weekday}:${Number(parts.hour)}`;
    };
    const expected = new Map<string, number>();
    for (const name of ['A', 'C', 'D', 'E', 'F']) expected.set(cell(sales[name].created_at), (expected.get(cell(sales[name].created_at)) ?? 0) + 1);
    const rows = res.body.data.rows as { weekday: string; hour: number; sales_count: number }[];
    expect(rows).toHaveLength(7 * 24);
    for (const r of rows) expect([`${r.weekday}:${r.hour}`, r.sales_count]).toEqual([`${r.weekday}:${r.hour}`, expected.get(`${r.weekday}:${r.hour}`) ?? 0]);
    expect(res.body.data.charts[0].type).toBe('heatmap');
    expect(res.body.data.charts[0].series[0].data).toHaveLength(168);
    expect(fig(res.body, 'sales_count')).toBe(5);
  });

  it('closeout: per day and session, by method, expected vs counted cash', async () => {
    const res = await report(t, all, 'closeout', dt);
    expectReportShape(res);
    const rows = (res.body.data.rows as Record<string, unknown>[]).filter((r) => r.session_id === sessionId);
    expect(rows.length).toBeGreaterThanOrEqual(1);
    const sum = (k: string) => Math.round(rows.reduce((a, r) => a + (r[k] as number), 0) * 100) / 100;
    expect([sum('sales_count'), sum('total'), sum('tax'), sum('discounts'), sum('voids'), sum('refunds'), sum('cash_sales')]).toEqual([
      5, 37.32, 1.34, 0.35, 1, 0, 10.71,
    ]);
    const byMethod: Record<string, number> = {};
    for (const r of rows)
      for (const [k, v] of Object.entries(r.totals_by_payment_method as Record<string, number>)) byMethod[k] = Math.round(((byMethod[k] ?? 0) + v) * 100) / 100;
    expect(byMethod).toEqual({ cash: 10.71, card: 10, on_account: 16.61 });
    expect(rows[0]).toMatchObject({
      cashier_name: 'Cass Cashier',
      session_status: 'closed',
      opening_balance: 100,
      cash_in: 20,
      cash_out: 5,
      expected_cash: 125.71,
      counted_cash: 130.5,
      discrepancy: 4.79,
    });
    expect(fig(res.body, 'discrepancy')).toBe(4.79);
    expect(fig(res.body, 'taken_cash')).toBe(10.71);
  });

  it('invoices, funnel and DSO: the two on-account invoices', async () => {
    const inv = await report(t, all, 'invoices', dt);
    expectReportShape(inv);
    expect(fig(inv.body, 'invoices_issued')).toBe(6);
    expect(fig(inv.body, 'on_account_invoices')).toBe(2);
    expect(fig(inv.body, 'on_account_amount')).toBe(16.61);
    expect(fig(inv.body, 'open_invoices')).toBe(2);
    expect(fig(inv.body, 'open_balance')).toBe(14.61);
    expect(fig(inv.body, 'collected_on_account')).toBe(2);
    expect(fig(inv.body, 'void_invoices')).toBe(1);
    expect(fig(inv.body, 'paid_at_till')).toBe(20.71);

    const funnel = await report(t, all, 'invoices/funnel', dt);
    expectReportShape(funnel);
    const stage = (s: string) => funnel.body.data.rows.find((r: { stage: string }) => r.stage === s);
    expect(stage('issued')).toMatchObject({ invoices: 2, amount: 16.61 });
    expect(stage('any_payment')).toMatchObject({ invoices: 1 });
    expect(stage('paid_in_full')).toMatchObject({ invoices: 0 });
    expect(stage('unpaid')).toMatchObject({ invoices: 1, amount: 11.21 });
    expect(stage('partially_paid')).toMatchObject({ invoices: 1, amount: 3.4 });

    const dso = await report(t, all, 'invoices/dso', dt);
    expectReportShape(dso);
    // 14.61 / 16.61 x 30 days = 26.39
    expect(fig(dso.body, 'dso_days')).toBe(26.4);
    expect(fig(dso.body, 'receivables')).toBe(14.61);
    expect(fig(dso.body, 'credit_sales')).toBe(16.61);
  });

  it('invoices/aging: open balances by days since issue', async () => {
    const day = 86_400_000;
    const at = (ms: number) => (t.isMysql ? new Date(ms) : new Date(ms).toISOString().replace('T', ' ').replace('Z', ''));
    await t.db.query('UPDATE invoices SET issued_at = ?, due_at = ? WHERE id = ?', [at(Date.now() - 45 * day), at(Date.now() - 15 * day), sales.D.invoice.id]);
    await t.db.query('UPDATE invoices SET issued_at = ?, due_at = ? WHERE id = ?', [at(Date.now() - 100 * day), at(Date.now() - 70 * day), sales.F.invoice.id]);
    const res = await report(t, all, 'invoices/aging', dt);
    expectReportShape(res);
    expect(res.body.data.rows).toEqual([
      expect.objectContaining({
        customer_id: janeId,
        customer_name: 'Jane Doe',
        open_invoices: 2,
        days_0_30: 0,
        days_31_60: 11.21,
        days_61_90: 0,
        days_91_120: 3.4,
        days_120_plus: 0,
        receivables: 14.61,
        past_due: 14.61,
      }),
    ]);
    expect(fig(res.body, 'receivables')).toBe(14.61);
    expect(fig(res.body, 'bucket_31-60')).toBe(11.21);
    expect(fig(res.body, 'bucket_91-120')).toBe(3.4);
    expect(fig(res.body, 'past_due')).toBe(14.61);
    expect(res.body.meta.note).toMatch(/as of generated_at/);
  });

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
