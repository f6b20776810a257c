import { TestApp } from '../support/test-app';
import { bootReportDay, dt, ReportDay } from './report-day';
import { expectReportShape, fig, report } from './report-helpers';

/**
 * The reports of a known day in the Downtown store, figure by figure. The day, worked out by hand, and
 * its setup are in report-day.ts.
 */
describe('Integration reports', () => {
  let t: TestApp;
  let all: string;
  let janeId: number;
  let sessionId: number;
  let sales: ReportDay['sales'];

  beforeAll(async () => {
    ({ t, all, janeId, sessionId, sales } = await bootReportDay());
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
});
