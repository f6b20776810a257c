import request from 'supertest';
import { RollupRebuildService } from '@pos/integration';
import { bearer, DEMO, integrationToken, login, startTestApp, TestApp } from '../support/test-app';
import { ALL_REPORT_PERMISSIONS, applyJournal, fig, report } from './report-helpers';

type TaxRow = Record<string, unknown> & { store_id: number; rate: string };

/**
 * Issue 23 item 3: the tax report files exempt lines apart. Downtown (tax-exclusive) sells Ground
 * Coffee at 12.49 with the 2% food rate twice: once taxed (tax 0.25, total 12.74) and once to a
 * tax-exempt buyer (tax 0, total 12.49). The 2% row holds only the taxed line (effective rate 2%),
 * the exempt line has a row of its own, and taxable sales count only the taxed line; a refund of
 * the exempt line lands on the exempt row too. The rebuild from the raw records files them alike.
 */
describe('Tax report: exempt sales in their own row', () => {
  let t: TestApp;
  let all: string;
  let cashier: string;
  let manager: string;
  let coffee: number;
  const api = () => request(t.http);
  let n = 0;
  const sell = async (body: Record<string, unknown>) => {
    const res = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .send({ store_id: 1, idempotency_key: `tax-${++n}`, ...body });
    if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data as { id: number; tax_total: number; total_amount: number; items: { id: number }[] };
  };
  const rows = async () => (await report(t, all, 'tax', { store_id: 1 })).body.data.rows as TaxRow[];
  const taxTable = async () => {
    await applyJournal(t);
    const raw = (await t.db.query('SELECT * FROM rpt_tax')) as Record<string, unknown>[];
    return raw.map((r) => JSON.stringify(Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Number(v)])))).sort();
  };

  beforeAll(async () => {
    t = await startTestApp();
    all = (await integrationToken(t, ALL_REPORT_PERMISSIONS)).token;
    cashier = await login(t, DEMO.cashier);
    manager = await login(t, DEMO.manager);
    coffee = Number((await t.db.query("SELECT id FROM items WHERE sku = 'COF-002'"))[0].id);
    await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 100 }).expect(200);
  });
  afterAll(() => t.close());

  it('the 2% row holds only the taxed line; the exempt line has its own row and is not taxable', async () => {
    const taxed = await sell({ items: [{ id: coffee, qty: 1 }], payments: [{ payment_method_code: 'card', amount: 12.74 }], total_amount: 12.74 });
    const exempt = await sell({
      items: [{ id: coffee, qty: 1 }],
      tax_exempt: true,
      tax_exempt_reason: 'Diplomatic mission',
      payments: [{ payment_method_code: 'card', amount: 12.49 }],
      total_amount: 12.49,
    });
    expect([taxed.tax_total, taxed.total_amount, exempt.tax_total, exempt.total_amount]).toEqual([0.25, 12.74, 0, 12.49]);

    const res = await report(t, all, 'tax', { store_id: 1 });
    expect(res.status).toBe(200);
    const list = res.body.data.rows as TaxRow[];
    // Before the fix: one 2% row of 2 lines, taxable 24.98 and tax 0.25 (an effective 1%).
    expect(list.find((r) => r.rate_percent === 2)).toMatchObject({ lines: 1, taxable_sales: 12.49, tax_collected: 0.25 });
    expect(fig(res.body, 'taxable_sales')).toBe(12.49);
    expect(list.map((r) => r.rate)).toEqual(['2%', 'exempt']);
    expect(list[0]).toMatchObject({
      rate_percent: 2,
      lines: 1,
      taxable_sales: 12.49,
      exempt_net: 0,
      tax_collected: 0.25,
      effective_rate_percent: 2,
      net_tax: 0.25,
    });
    expect(list[1]).toMatchObject({ rate_percent: null, lines: 1, taxable_sales: 0, exempt_net: 12.49, tax_collected: 0, effective_rate_percent: null });
    expect(fig(res.body, 'tax_collected')).toBe(0.25);
    expect(fig(res.body, 'exempt_sales')).toBe(1);
    expect(fig(res.body, 'exempt_net')).toBe(12.49);
    // Every line is in exactly one row: taxable + exempt = the net sales of the sales report.
    const sales = await report(t, all, 'sales', { store_id: 1 });
    expect(Math.round(((fig(res.body, 'taxable_sales') ?? 0) + (fig(res.body, 'exempt_net') ?? 0)) * 100) / 100).toBe(fig(sales.body, 'net_sales'));
  });

  it('a refund of an exempt line goes to the exempt row; the rebuild gives the same rows', async () => {
    const exempt = await sell({
      items: [{ id: coffee, qty: 2 }],
      tax_exempt: true,
      tax_exempt_reason: 'Charity',
      payments: [{ payment_method_code: 'card', amount: 24.98 }],
      total_amount: 24.98,
    });
    await api().post('/api/v1/sessions/open').set(bearer(manager)).send({ store_id: 1, opening_balance: 0 }).expect(200);
    const returned = await api()
      .post('/api/v1/returns')
      .set(bearer(manager))
      .send({
        sale_id: exempt.id,
        process_immediately: true,
        items: [{ sale_item_id: exempt.items[0].id, quantity: 1, condition: 'resellable', restock: true }],
      });
    expect(returned.status).toBe(200);
    expect(returned.body.data).toMatchObject({ status: 'processed', refund_total: 12.49 });

    const list = await rows();
    expect(list.find((r) => r.rate === '2%')).toMatchObject({ lines: 1, taxable_sales: 12.49, refunded_taxable: 0, tax_refunded: 0 });
    expect(list.find((r) => r.rate === 'exempt')).toMatchObject({ lines: 2, exempt_net: 37.47, refunded_exempt: 12.49, tax_refunded: 0 });

    const kept = await taxTable();
    expect(kept.length).toBeGreaterThan(0);
    await t.app.get(RollupRebuildService).rebuild(() => undefined);
    expect(await taxTable()).toEqual(kept);
    expect(await rows()).toEqual(list);
  });
});
