import request from 'supertest';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';

/**
 * The Idempotency-Key header on the remaining create routes (issue 26 item 5): each replay answers
 * the first status and body with Idempotent-Replayed: true and leaves one row. Invoice payments
 * (money: a replay must not pay twice), returns (the header for the body key), bulk prices (claim
 * mode) and the catalogue and pricing creates.
 */
describe('Idempotency-Key header: every other create', () => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let cashier: string;
  const ids: Record<string, number> = {};
  const api = () => request(t.http);
  const n = async (sql: string, params: unknown[] = []) => Number((await t.db.query(sql, params))[0].n);
  /** Sends the same keyed request twice: the second is the first again, marked as a replay. */
  const twice = async (path: string, token: string, key: string, body: unknown) => {
    const send = () =>
      api()
        .post(`/api/v1${path}`)
        .set(bearer(token))
        .set('Idempotency-Key', key)
        .send(body as object);
    const first = await send();
    const second = await send();
    expect(first.status).toBeLessThan(300);
    expect([second.status, second.body]).toEqual([first.status, first.body]);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(second.headers['idempotent-replayed']).toBe('true');
    return first;
  };

  beforeAll(async () => {
    t = await startTestApp();
    [admin, manager, cashier] = [await login(t, DEMO.admin), await login(t, DEMO.manager), await login(t, DEMO.cashier)];
    for (const sku of ['COF-002', 'SNK-001', 'HSE-005', 'GRO-003']) ids[sku] = Number((await t.db.query('SELECT id FROM items WHERE sku = ?', [sku]))[0].id);
    ids.jane = Number((await t.db.query("SELECT id FROM customers WHERE email = 'jane.doe@example.com'"))[0].id);
    await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 0 }).expect(200);
  });
  afterAll(() => t.close());

  it('items, customer groups, pricing rules, bundles and currency rates', async () => {
    await twice('/items', manager, 'routes-item', { sku: 'IDEM-ITEM-1', name: 'Idempotent Item', base_price: 2.5 });
    expect(await n("SELECT COUNT(*) AS n FROM items WHERE sku = 'IDEM-ITEM-1'")).toBe(1);
    await twice('/customer-groups', manager, 'routes-group', { name: 'Idempotent Group', code: 'idem-group' });
    expect(await n("SELECT COUNT(*) AS n FROM customer_groups WHERE code = 'idem-group'")).toBe(1);
    const rule = { name: 'Idempotent Rule', kind: 'percent_off', percent_off: 5, item_ids: [ids['HSE-005']], is_active: false };
    expect((await twice('/pricing-rules', manager, 'routes-rule', rule)).status).toBe(200);
    expect(await n("SELECT COUNT(*) AS n FROM pricing_rules WHERE name = 'Idempotent Rule'")).toBe(1);
    await twice('/bundles', manager, 'routes-bundle', {
      name: 'Idempotent Bundle',
      code: 'IDEM-B',
      price: 1,
      items: [{ item_id: ids['SNK-001'], quantity: 2 }],
    });
    expect(await n("SELECT COUNT(*) AS n FROM bundles WHERE code = 'IDEM-B'")).toBe(1);
    const before = await n("SELECT COUNT(*) AS n FROM exchange_rates WHERE currency_code = 'EUR'");
    expect((await twice('/currencies/EUR/rates', admin, 'routes-rate', { rate: 0.91 })).status).toBe(201);
    expect(await n("SELECT COUNT(*) AS n FROM exchange_rates WHERE currency_code = 'EUR'")).toBe(before + 1);
    await twice('/api-applications', admin, 'routes-app', { name: 'Idempotent App', permissions: ['sales.view'] });
    expect(await n("SELECT COUNT(*) AS n FROM users WHERE name = 'Idempotent App'")).toBe(1);
  });

  it('invoice payments: a replayed payment pays once', async () => {
    const sale = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .send({
        store_id: 1,
        idempotency_key: 'routes-on-account',
        customer_id: ids.jane,
        items: [{ id: ids['COF-002'], qty: 1 }],
        payments: [{ payment_method_code: 'on_account', amount: 11.21 }],
        total_amount: 11.21,
      });
    expect(sale.status).toBe(201);
    const invoice = sale.body.data.invoice.id as number;
    const paid = await twice(`/invoices/${invoice}/payments`, manager, 'routes-pay-1', { payment_method_code: 'card', amount: 5 });
    expect(paid.status).toBe(201);
    expect(paid.body.data).toMatchObject({ status: 'partially_paid', paid: 5, balance: 6.21 });
    expect(await n('SELECT COUNT(*) AS n FROM invoice_payments WHERE invoice_id = ?', [invoice])).toBe(1);
    // the same amount again under a new key is a second payment, as before
    const again = await api()
      .post(`/api/v1/invoices/${invoice}/payments`)
      .set(bearer(manager))
      .set('Idempotency-Key', 'routes-pay-2')
      .send({ payment_method_code: 'card', amount: 5 });
    expect(again.body.data).toMatchObject({ paid: 10, balance: 1.21 });
  });

  it('returns: the header stands for the body key; one return', async () => {
    const sale = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .set('Idempotency-Key', 'routes-sale-for-return')
      .send({ store_id: 1, items: [{ id: ids['GRO-003'], qty: 2 }], payments: [{ payment_method_code: 'card', amount: 8.75 }], total_amount: 8.75 });
    expect(sale.status).toBe(201);
    const line = sale.body.data.items[0].id as number;
    const first = await twice('/returns', cashier, 'routes-return-1', { sale_id: sale.body.data.id, items: [{ sale_item_id: line, quantity: 1 }] });
    expect(first.body.data.idempotency_key).toBe('routes-return-1');
    expect(await n('SELECT COUNT(*) AS n FROM sale_returns WHERE sale_id = ?', [sale.body.data.id])).toBe(1);
  });

  it('bulk prices (claim mode): one job', async () => {
    const first = await twice('/prices/bulk', manager, 'routes-bulk-1', { changes: [{ item_id: ids['SNK-001'], price: 2.75 }] });
    expect(first.status).toBe(200);
    expect(await n('SELECT COUNT(*) AS n FROM bulk_price_jobs')).toBe(1);
  });
});
