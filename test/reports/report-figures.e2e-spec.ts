import request from 'supertest';
import { metric, METRICS, MetricKey } from '@pos/integration';
import { bearer, DEMO, integrationToken, login, startTestApp, TestApp } from '../support/test-app';
import { ALL_REPORT_PERMISSIONS, report, REPORTS } from './report-helpers';

type Figure = { key: string; label: string; unit: string };
type Column = { key: string; label: string; unit: string | null };

/** The catalogue key a figure key is made from (a template such as `taken_{method}` matches `taken_cash`). */
function catalogued(key: string): MetricKey | null {
  if (key in METRICS && !key.includes('{')) return key as MetricKey;
  for (const k of Object.keys(METRICS) as MetricKey[]) {
    if (!k.includes('{')) continue;
    const pattern = new RegExp(`^${k.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '(.+)')}$`);
    if (pattern.test(key)) return k;
  }
  return null;
}

/**
 * Issue 23 item 6: every figure of the 32 reports, in their summaries and as fields of their rows,
 * is a key of the metric catalogue with its label and unit (README "Report figures"), after a mix
 * of sales (cash with change, card, on account, a tax-exempt one, a discount), a void, a return, an
 * invoice payment, a closed session and stock adjustments, so every report has rows.
 */
describe('Report figures come from the metric catalogue', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp();
    token = (await integrationToken(t, ALL_REPORT_PERMISSIONS)).token;
    const cashier = await login(t, DEMO.cashier);
    const manager = await login(t, DEMO.manager);
    const api = () => request(t.http);
    const ids = Object.fromEntries((await t.db.query('SELECT id, sku FROM items')).map((r: { id: number; sku: string }) => [r.sku, Number(r.id)]));
    const jane = Number((await t.db.query("SELECT id FROM customers WHERE email = 'jane.doe@example.com'"))[0].id);
    const session = (await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 100 }).expect(200)).body.data.id;
    let n = 0;
    const sell = async (body: Record<string, unknown>) => {
      const res = await api()
        .post('/api/v1/pos/checkout')
        .set(bearer(cashier))
        .send({ store_id: 1, idempotency_key: `fig-${++n}`, ...body });
      if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    };
    await sell({ items: [{ id: ids['BEV-003'], qty: 1 }], payments: [{ payment_method_code: 'cash', amount: 1.94 }], total_amount: 1.94 });
    const onAccount = await sell({
      customer_id: String(jane),
      items: [{ id: ids['COF-002'], qty: 2 }],
      payments: [{ payment_method_code: 'on_account', amount: 22.42 }],
      total_amount: 22.42,
    });
    await sell({
      items: [{ id: ids['HSE-001'], qty: 1, discount_type: 'percent', discount_value: 10 }],
      payments: [{ payment_method_code: 'card', amount: 3.4 }],
      total_amount: 3.4,
    });
    await sell({
      items: [{ id: ids['COF-002'], qty: 1 }],
      tax_exempt: true,
      tax_exempt_reason: 'Charity',
      payments: [{ payment_method_code: 'card', amount: 12.49 }],
      total_amount: 12.49,
    });
    const voided = await sell({ items: [{ id: ids['SNK-001'], qty: 1 }], payments: [{ payment_method_code: 'card', amount: 2.7 }], total_amount: 2.7 });
    await api().post(`/api/v1/sales/${voided.id}/void`).set(bearer(manager)).send({}).expect(200);
    await api().post(`/api/v1/invoices/${onAccount.invoice.id}/payments`).set(bearer(manager)).send({ payment_method_code: 'card', amount: 2 }).expect(201);
    await api().post('/api/v1/sessions/open').set(bearer(manager)).send({ store_id: 1, opening_balance: 0 }).expect(200);
    const returned = await api()
      .post('/api/v1/returns')
      .set(bearer(manager))
      .send({
        sale_id: onAccount.id,
        process_immediately: true,
        items: [{ sale_item_id: onAccount.items[0].id, quantity: 1, condition: 'damaged', restock: false }],
      });
    expect(returned.status).toBe(200);
    await api()
      .post('/api/v1/inventory/adjustments')
      .set(bearer(manager))
      .send({ type: 'damage', warehouse_id: 1, items: [{ item_id: ids['SNK-002'], quantity: 1 }] })
      .expect(201);
    await api().post(`/api/v1/sessions/${session}/close`).set(bearer(cashier)).send({ closing_balance: 101.94 }).expect(200);
  });
  afterAll(() => t.close());

  it.each(REPORTS)('%s: summary and row fields are catalogued, with their labels and units', async (path) => {
    const res = await report(t, token, path, { store_id: 1 });
    expect(res.status).toBe(200);
    const { summary, rows, columns } = res.body.data as { summary: Figure[]; rows: Record<string, unknown>[]; columns: Column[] };
    for (const f of summary) {
      const key = catalogued(f.key);
      expect([f.key, key !== null]).toEqual([f.key, true]);
      const m = metric(key!);
      expect([f.key, f.unit]).toEqual([f.key, m.unit]);
      if (key === f.key) expect([f.key, f.label]).toEqual([f.key, m.label]);
    }
    // The columns name every field of the rows, each from the catalogue (a figure with its unit) or a dimension.
    expect(columns.map((c) => c.key).sort()).toEqual([...new Set(rows.flatMap((r) => Object.keys(r)))].sort());
    for (const c of columns) {
      if (c.unit === null) expect([c.key, c.label === c.key, c.key in METRICS]).toEqual([c.key, false, false]);
      else expect([c.key, c.label, c.unit]).toEqual([c.key, metric(c.key as MetricKey).label, metric(c.key as MetricKey).unit]);
    }
  });
});
