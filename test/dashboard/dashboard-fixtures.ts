import request from 'supertest';
import { bearer, DEMO, login, TestApp } from '../support/test-app';

/** A morning at the Downtown store: cash, card and on-account sales, a session closed short, then a second session. */
export async function recordSales(t: TestApp): Promise<number> {
  const admin = await login(t, DEMO.admin);
  const api = () => request(t.http);
  const item = Object.fromEntries((await t.db.query('SELECT id, sku FROM items')).map((r: { id: number; sku: string }) => [r.sku, Number(r.id)]));
  const jane = Number((await t.db.query("SELECT id FROM customers WHERE email = 'jane.doe@example.com'"))[0].id);
  const session = await api().post('/api/v1/sessions/open').set(bearer(admin)).send({ store_id: 1, opening_balance: 100 });
  if (session.status !== 200) throw new Error(`open session: ${session.status}`);
  const carts: [Record<string, number>, string, string?][] = [
    [{ 'BEV-001': 2, 'HSE-001': 1 }, 'cash'],
    [{ 'BEV-001': 1 }, 'card'],
    [{ 'HSE-001': 2, 'BEV-001': 3 }, 'cash'],
    [{ 'HSE-001': 1 }, 'on_account', String(jane)],
  ];
  let n = 0;
  for (const [lines, method, customer] of carts) {
    const items = Object.entries(lines).map(([sku, qty]) => ({ id: item[sku], qty }));
    const priced = await api().post('/api/v1/pricing/cart').set(bearer(admin)).send({ store_id: 1, items, customer_id: customer });
    const total = priced.body.data.total as number;
    const sale = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(admin))
      .send({
        store_id: 1,
        idempotency_key: `dash-${++n}`,
        items,
        customer_id: customer,
        payments: [{ payment_method_code: method, amount: total }],
        total_amount: total,
      });
    if (sale.status !== 201) throw new Error(`sale ${n}: ${sale.status} ${JSON.stringify(sale.body)}`);
  }
  const closed = await api().post(`/api/v1/sessions/${session.body.data.id}/close`).set(bearer(admin)).send({ closing_balance: 99 });
  if (closed.status !== 200) throw new Error(`close session: ${closed.status}`);
  const second = await api().post('/api/v1/sessions/open').set(bearer(admin)).send({ store_id: 1, opening_balance: 50 });
  const again = await api().post(`/api/v1/sessions/${second.body.data.id}/close`).set(bearer(admin)).send({ closing_balance: 50 });
  if (second.status !== 200 || again.status !== 200) throw new Error(`second session: ${second.status} ${again.status}`);
  return Number(second.body.data.id);
}

/** A webhook endpoint on a loopback receiver and two test sends: rows for the deliveries table. */
export async function webhookDeliveries(t: TestApp, url: string): Promise<number> {
  const admin = await login(t, DEMO.admin);
  const endpoint = await request(t.http)
    .post('/api/v1/webhooks')
    .set(bearer(admin))
    .send({ url, events: ['sale.voided'] });
  if (endpoint.status !== 201) throw new Error(`webhook endpoint: ${endpoint.status} ${JSON.stringify(endpoint.body)}`);
  for (const type of ['sale.completed', 'sale.voided']) {
    const sent = await request(t.http).post(`/api/v1/webhooks/${endpoint.body.data.id}/test`).set(bearer(admin)).send({ type });
    if (sent.status >= 300) throw new Error(`test send ${type}: ${sent.status} ${JSON.stringify(sent.body)}`);
  }
  return Number(endpoint.body.data.id);
}
