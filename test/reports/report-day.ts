import request from 'supertest';
import { bearer, DEMO, integrationToken, login, startTestApp, TestApp } from '../support/test-app';
import { ALL_REPORT_PERMISSIONS } from './report-helpers';

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
export interface ReportDay {
  t: TestApp;
  /** An integration token holding every report permission. */
  all: string;
  cashier: string;
  manager: string;
  ids: Record<string, number>;
  janeId: number;
  /** The cashier's (closed) Downtown session the day's sales went through. */
  sessionId: number;
  sales: Record<string, { id: number; created_at: string; invoice: { id: number } }>;
}

/** The Downtown store filter most reports of the day are asked with. */
export const dt = { store_id: 1 };

/** Boots the app and makes the day above (shared setup of reports-day-figures and reports-access). */
export async function bootReportDay(): Promise<ReportDay> {
  const t = await startTestApp();
  const api = () => request(t.http);
  const sales: ReportDay['sales'] = {};
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
  const all = (await integrationToken(t, ALL_REPORT_PERMISSIONS)).token;
  const cashier = await login(t, DEMO.cashier);
  const manager = await login(t, DEMO.manager);
  const ids: Record<string, number> = Object.fromEntries(
    (await t.db.query('SELECT id, sku FROM items')).map((r: { id: number; sku: string }) => [r.sku, Number(r.id)]),
  );
  const janeId = Number((await t.db.query("SELECT id FROM customers WHERE email = 'jane.doe@example.com'"))[0].id);

  const sessionId: number = (await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 100 })).body.data.id;
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
  return { t, all, cashier, manager, ids, janeId, sessionId, sales };
}
