import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';

/**
 * A cashier's day in the Downtown store (tax-exclusive; standard 8.25%, food 2%), every figure
 * worked out by hand (half away from zero per line):
 *   A cash      2 x Still Water 1.29 (2%) = 2.58 + 0.05;  Cola 1.79 (8.25%) + 0.15  = 4.57, cash 10.00, change 5.43
 *   B card      Salted Crisps 2.49 + 0.21 (0.205425)                                    = 2.70  (voided later)
 *   C split     Ground Coffee 12.49 + 0.25 (0.2498)                                     = 12.74, card 10 + cash 5, change 2.26
 *   D account   Jane (members) Ground Coffee 10.99 + 0.22 (0.2198)                      = 11.21 on account
 *   E discount  Dish Soap 3.49 - 10% 0.35 = 3.14 + 0.26 (0.25905)                       = 3.40 cash (within the 10% limit)
 *   F approved  Paper Towels 5.99 - 30% 1.80 = 4.19 + 0.35 (0.345675)                   = 4.54, cash 5.00, change 0.46
 * Cash sales 4.57 + 2.74 + 3.40 + 4.54 = 15.25; expected cash 100 + 15.25 + 20 - 5 = 130.25.
 */
describe("A cashier's day", () => {
  let t: TestApp;
  let cashier: string;
  let manager: string;
  let ids: Record<string, number>;
  let janeId: number;
  let sessionId: number;
  const api = () => request(t.http);
  let n = 0;
  const sell = (body: Record<string, unknown>, token = cashier) =>
    api()
      .post('/api/v1/pos/checkout')
      .set(bearer(token))
      .send({ store_id: 1, idempotency_key: `day-${++n}`, ...body });
  const stock = async (sku: string, wh = 1) =>
    Number(
      (await t.db.query('SELECT s.quantity FROM stock_levels s JOIN items i ON i.id = s.item_id WHERE i.sku = ? AND s.warehouse_id = ?', [sku, wh]))[0]
        .quantity,
    );

  beforeAll(async () => {
    t = await startTestApp();
    cashier = await login(t, DEMO.cashier);
    manager = await login(t, DEMO.manager);
    ids = Object.fromEntries((await t.db.query('SELECT id, sku FROM items')).map((r: { id: number; sku: string }) => [r.sku, Number(r.id)]));
    janeId = Number((await t.db.query("SELECT id FROM customers WHERE email = 'jane.doe@example.com'"))[0].id);
  });
  afterAll(() => t.close());

  it('cannot sell before opening a session (409)', async () => {
    expectErrorEnvelope(
      await sell({ items: [{ id: ids['BEV-001'], qty: 1 }], payments: [{ payment_method_code: 'cash', amount: 2 }], total_amount: 1.32 }),
      409,
    );
    const opened = await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 100 });
    sessionId = opened.body.data.id;
  });

  it('sells with cash, card, a split and on account', async () => {
    const before = await stock('BEV-001');
    const a = await sell({
      items: [
        { id: ids['BEV-001'], qty: 2 },
        { id: String(ids['BEV-003']), qty: 1 },
      ],
      payments: [{ payment_method_code: 'cash', amount: 10 }],
      total_amount: 4.57,
    });
    expect(a.status).toBe(201);
    expect(a.body.data).toMatchObject({
      receipt_number: 'DT-000001',
      status: 'completed',
      subtotal: 4.37,
      tax_total: 0.2,
      total_amount: 4.57,
      paid_amount: 4.57,
      change_amount: 5.43,
      balance_due: 0,
      session_id: sessionId,
      warehouse: { id: 1 },
    });
    expect(a.body.data.items.map((l: { tax: number; total: number; price_source: string }) => [l.tax, l.total, l.price_source])).toEqual([
      [0.05, 2.63, 'base'],
      [0.15, 1.94, 'base'],
    ]);
    expect(a.body.data.payments).toEqual([expect.objectContaining({ payment_method_code: 'cash', amount: 4.57, tendered: 10, change: 5.43 })]);
    expect(a.body.data.invoice).toMatchObject({ status: 'paid', amount: 4.57, paid: 4.57, balance: 0 });
    expect(await stock('BEV-001')).toBe(before - 2);

    const b = await sell({
      items: [{ id: ids['SNK-001'], qty: 1 }],
      payments: [{ payment_method_code: 'card', amount: 2.7, reference: 'AUTH-1' }],
      total_amount: 2.7,
    });
    expect(b.status).toBe(201);
    expect(b.body.data).toMatchObject({ receipt_number: 'DT-000002', total_amount: 2.7, change_amount: 0 });

    const c = await sell({
      items: [{ id: ids['COF-002'], qty: 1 }],
      payments: [
        { payment_method_code: 'card', amount: 10 },
        { payment_method_code: 'cash', amount: 5 },
      ],
      total_amount: 12.74,
    });
    expect(c.status).toBe(201);
    expect(c.body.data).toMatchObject({ total_amount: 12.74, change_amount: 2.26, paid_amount: 12.74 });
    expect(c.body.data.payments.map((p: { payment_method_code: string; amount: number }) => [p.payment_method_code, p.amount])).toEqual([
      ['card', 10],
      ['cash', 2.74],
    ]);

    const d = await sell({
      customer_id: String(janeId),
      items: [{ id: ids['COF-002'], qty: 1 }],
      payments: [{ payment_method_code: 'on_account', amount: 11.21 }],
      total_amount: 11.21,
    });
    expect(d.status).toBe(201);
    expect(d.body.data).toMatchObject({ total_amount: 11.21, paid_amount: 0, balance_due: 11.21, customer_id: janeId });
    expect(d.body.data.items[0]).toMatchObject({ unit_price: 10.99, price_source: 'price_book' });
    expect(d.body.data.invoice).toMatchObject({ status: 'issued', amount: 11.21, paid: 0, balance: 11.21 });
    const due = new Date(d.body.data.invoice.due_at).getTime() - new Date(d.body.data.invoice.issued_at).getTime();
    expect(Math.round(due / 86_400_000)).toBe(30);
    // on account needs a customer; card may not exceed what is due; payments must cover the total
    // (a cart that cannot be sold as it stands: the contract's 400 "checkout validation error")
    expectErrorEnvelope(
      await sell({ items: [{ id: ids['COF-002'], qty: 1 }], payments: [{ payment_method_code: 'on_account', amount: 12.74 }], total_amount: 12.74 }),
      400,
    );
    // ...a named one: the walk-in customer of anonymous sales is nobody to collect from
    const [walkIn] = await t.db.query('SELECT id FROM customers WHERE is_walk_in = ?', [1]);
    const invoicesBefore = (await t.db.query('SELECT COUNT(*) AS n FROM invoices'))[0].n;
    const anonymous = await sell({
      customer_id: Number(walkIn.id),
      items: [{ id: ids['COF-002'], qty: 1 }],
      payments: [{ payment_method_code: 'on_account', amount: 12.74 }],
      total_amount: 12.74,
    });
    expectErrorEnvelope(anonymous, 400);
    expect(anonymous.body.errors.customer_id).toEqual(['An on-account payment needs a named customer (not the walk-in customer).']);
    expect((await t.db.query('SELECT COUNT(*) AS n FROM invoices'))[0].n).toEqual(invoicesBefore);
    const over = await sell({ items: [{ id: ids['SNK-001'], qty: 1 }], payments: [{ payment_method_code: 'card', amount: 5 }], total_amount: 2.7 });
    expect(over.status).toBe(400);
    expect(over.body.errors['payments.0.amount']).toBeDefined();
    const short = await sell({ items: [{ id: ids['SNK-001'], qty: 1 }], payments: [{ payment_method_code: 'cash', amount: 2 }], total_amount: 2.7 });
    expect(short.status).toBe(400);
    expect(short.body.errors.payments).toBeDefined();

    // later payment of the on-account balance
    const invoiceId = d.body.data.invoice.id;
    const part = await api().post(`/api/v1/invoices/${invoiceId}/payments`).set(bearer(manager)).send({ payment_method_code: 'card', amount: 5 });
    expect(part.status).toBe(201);
    expect(part.body.data).toMatchObject({ status: 'partially_paid', paid: 5, balance: 6.21 });
    expectErrorEnvelope(await api().post(`/api/v1/invoices/${invoiceId}/payments`).set(bearer(manager)).send({ payment_method_code: 'card', amount: 7 }), 422);
    const rest = await api().post(`/api/v1/invoices/${invoiceId}/payments`).set(bearer(manager)).send({ payment_method_code: 'cash', amount: 6.21 });
    expect(rest.body.data).toMatchObject({ status: 'paid', balance: 0, paid: 11.21 });
    expectErrorEnvelope(await api().post(`/api/v1/invoices/${invoiceId}/payments`).set(bearer(manager)).send({ payment_method_code: 'cash', amount: 1 }), 409);
  });

  it('applies a discount within the limit, refuses one beyond it (403), then sells it with a manager approval', async () => {
    const e = await sell({
      items: [{ id: ids['HSE-001'], qty: 1, discount_type: 'percent', discount_value: 10, discount_reason: 'Dented' }],
      payments: [{ payment_method_code: 'cash', amount: 3.4 }],
      total_amount: 3.4,
    });
    expect(e.status).toBe(201);
    expect(e.body.data.items[0]).toMatchObject({
      discounts: { manual: 0.35 },
      net: 3.14,
      tax: 0.26,
      total: 3.4,
      price_source: 'manual',
      discount_reason: 'Dented',
    });

    const key = 'day-approved';
    const body = {
      store_id: 1,
      idempotency_key: key,
      items: [{ id: ids['HSE-002'], qty: 1, discount_type: 'percent', discount_value: 30 }],
      payments: [{ payment_method_code: 'cash', amount: 5 }],
      total_amount: 4.54,
    };
    const refused = await api().post('/api/v1/pos/checkout').set(bearer(cashier)).send(body);
    expectErrorEnvelope(refused, 403);
    expect(refused.body.message).toMatch(/approval/);
    // a price typed 30% below the server's is the same discount
    expectErrorEnvelope(
      await sell({ items: [{ id: ids['HSE-002'], qty: 1, price: 4.19 }], payments: [{ payment_method_code: 'cash', amount: 5 }], total_amount: 4.54 }),
      403,
    );

    const approval = await api().post('/api/v1/pos/discount/approve').set(bearer(cashier)).send({
      approver_email: DEMO.manager,
      pin: '1234',
      item_id: ids['HSE-002'],
      discount_type: 'percent',
      discount_value: 30,
      base_amount: 5.99,
      cart_reference: key,
    });
    expect(approval.status).toBe(200);
    const token = approval.body.data.approval_token;
    // bound to that cart: another key is refused
    expectErrorEnvelope(
      await api()
        .post('/api/v1/pos/checkout')
        .set(bearer(cashier))
        .send({ ...body, idempotency_key: 'day-other', items: [{ ...body.items[0], discount_approval_token: token }] }),
      403,
    );
    const f = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .send({ ...body, items: [{ ...body.items[0], discount_approval_token: token }] });
    expect(f.status).toBe(201);
    expect(f.body.data).toMatchObject({ total_amount: 4.54, change_amount: 0.46 });
    expect(f.body.data.items[0]).toMatchObject({ discounts: { manual: 1.8 }, net: 4.19, tax: 0.35, discount_approved_by: expect.any(Number) });
  });

  it('voids a sale: restock and status voided (sales.void only)', async () => {
    const [{ id }] = await t.db.query("SELECT id FROM sales WHERE receipt_number = 'DT-000002'");
    const before = await stock('SNK-001');
    expectErrorEnvelope(await api().post(`/api/v1/sales/${id}/void`).set(bearer(cashier)).send({}), 403);
    const voided = await api().post(`/api/v1/sales/${id}/void`).set(bearer(manager)).send({ reason: 'Customer changed mind' });
    expect(voided.status).toBe(200);
    expect(voided.body.data).toMatchObject({ status: 'voided', void_reason: 'Customer changed mind' });
    expect(voided.body.data.invoice.status).toBe('void');
    expect(await stock('SNK-001')).toBe(before + 1);
    expectErrorEnvelope(await api().post(`/api/v1/sales/${id}/void`).set(bearer(manager)).send({}), 409);
    expect((await t.db.query("SELECT type FROM outbox_events WHERE type = 'sale.voided'")).length).toBe(1);
  });

  it('moves cash in and out, suspends and resumes, and closes with a discrepancy: every figure to the cent', async () => {
    await api().post(`/api/v1/sessions/${sessionId}/cash-movement`).set(bearer(cashier)).send({ type: 'cash_in', amount: 20, reason: 'Float' }).expect(200);
    await api()
      .post(`/api/v1/sessions/${sessionId}/cash-movement`)
      .set(bearer(cashier))
      .send({ type: 'cash_out', amount: 5, reason: 'Window cleaner' })
      .expect(200);
    await api().post(`/api/v1/sessions/${sessionId}/suspend`).set(bearer(cashier)).expect(200);
    expectErrorEnvelope(
      await sell({ items: [{ id: ids['BEV-001'], qty: 1 }], payments: [{ payment_method_code: 'cash', amount: 2 }], total_amount: 1.32 }),
      409,
    );
    await api().post(`/api/v1/sessions/${sessionId}/resume`).set(bearer(cashier)).expect(200);

    const summary = (await api().get(`/api/v1/sessions/${sessionId}/summary`).set(bearer(cashier))).body.data;
    expect(summary).toMatchObject({
      opening_balance: 100,
      sales_count: 5,
      sales_total: 36.46,
      totals_by_payment_method: { cash: 15.25, card: 10, on_account: 11.21 },
      cash_sales: 15.25,
      cash_refunds: 0,
      cash_in: 20,
      cash_out: 5,
      expected_cash: 130.25,
    });
    const closed = await api()
      .post(`/api/v1/sessions/${sessionId}/close`)
      .set(bearer(cashier))
      .send({ closing_balance: 130, discrepancy_notes: 'Short 25 cents' });
    expect(closed.body.data).toMatchObject({ status: 'closed', expected_cash: 130.25, closing_balance: 130, discrepancy: -0.25 });
    expect((await api().get(`/api/v1/sessions/${sessionId}/summary`).set(bearer(cashier))).body.data).toMatchObject({
      closing_balance: 130,
      discrepancy: -0.25,
    });
  });

  it('lists, searches and shows sales and receipts', async () => {
    const list = await api().get('/api/v1/sales?status=completed&per_page=2').set(bearer(cashier));
    expect(list.body.meta).toMatchObject({ total: 5, per_page: 2 });
    expect(list.body.data[0]).toEqual(
      expect.objectContaining({ receipt_number: expect.stringMatching(/^DT-/), store: { id: 1, name: 'Downtown Store' }, status: 'completed' }),
    );
    expect((await api().get(`/api/v1/sales?session_id=${sessionId}`).set(bearer(cashier))).body.meta.total).toBe(6);
    expect((await api().get(`/api/v1/sales?customer_id=${janeId}`).set(bearer(cashier))).body.meta.total).toBe(1);
    expect(
      (await api().get('/api/v1/sales/search?q=DT-000003').set(bearer(cashier))).body.data.map((s: { receipt_number: string }) => s.receipt_number),
    ).toEqual(['DT-000003']);
    expect((await api().get('/api/v1/sales/search?q=jane.doe@example.com').set(bearer(cashier))).body.data).toHaveLength(1);
    const barcode = (await t.db.query('SELECT barcode FROM item_barcodes WHERE item_id = ? AND item_unit_id IS NULL', [ids['COF-002']]))[0].barcode;
    expect((await api().get(`/api/v1/sales/search?q=${barcode}`).set(bearer(cashier))).body.data).toHaveLength(2);
    expectErrorEnvelope(await api().get('/api/v1/sales?store_id=2').set(bearer(cashier)), 403);
    expectErrorEnvelope(await api().get('/api/v1/sales/999999').set(bearer(cashier)), 404);

    const receipt = await api().get('/api/v1/sales/1/receipt').set(bearer(cashier));
    expect(receipt.body.data).toMatchObject({
      receipt_number: 'DT-000001',
      total: 4.57,
      change: 5.43,
      store: { name: 'Downtown Store' },
      footer: 'Thank you for shopping with us!',
    });
    expect(receipt.body.data.taxes).toEqual([
      { rate: 2, taxable: 2.58, tax: 0.05 },
      { rate: 8.25, taxable: 1.79, tax: 0.15 },
    ]);
    const text = await api().get('/api/v1/sales/1/receipt?format=text').set(bearer(cashier));
    expect(text.headers['content-type']).toMatch(/^text\/plain/);
    const lines = text.text.trimEnd().split('\n');
    expect(lines.every((l) => l.length <= 40)).toBe(true);
    expect(text.text).toMatch(/TOTAL\s+USD 4\.57/);
    expect(text.text).toMatch(/Change\s+5\.43/);
    // prices before tax: each line prints its amount before tax, so the lines add up to the subtotal
    expect(text.text).toMatch(/Still Water 500ml\s+2\.58\n {2}2 x 1\.29\n/);
    expect(text.text).toMatch(/Cola 330ml\s+1\.79\n {2}1 x 1\.79\n/);
    expect(text.text).toMatch(/Subtotal\s+4\.37\n/);

    const invoices = await api().get('/api/v1/invoices?status=paid').set(bearer(cashier));
    expect(invoices.status).toBe(200);
    expect(invoices.body.meta.total).toBeGreaterThanOrEqual(5);
  });
});

describe('Integration sales feeds', () => {
  let t: TestApp;
  const api = () => request(t.http);

  beforeAll(async () => {
    t = await startTestApp();
    const cashier = await login(t, DEMO.cashier);
    await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 0 }).expect(200);
    for (let i = 0; i < 3; i++) {
      await api()
        .post('/api/v1/pos/checkout')
        .set(bearer(cashier))
        .send({
          store_id: 1,
          idempotency_key: `feed-${i}`,
          reference: `REF-${i}`,
          items: [{ id: 1, qty: 1 }],
          payments: [{ payment_method_code: 'cash', amount: 1.32 }],
          total_amount: 1.32,
        })
        .expect(201);
    }
  });
  afterAll(() => t.close());

  it('feeds sale summaries per contract 2.5 with filters, aliases and the 200 clamp', async () => {
    const { token } = await (await import('../support/test-app')).integrationToken(t, ['sales.view', 'invoices.view']);
    const today = new Date().toISOString().slice(0, 10);
    const res = await api().get(`/api/v1/integration/sales?from=${today}&to=${today}&per_page=500`).set(bearer(token));
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ total: 3, per_page: 200 });
    expect(Object.keys(res.body.data[0]).sort()).toEqual(
      expect.arrayContaining(['created_at', 'id', 'receipt_number', 'status', 'store', 'total_amount', 'warehouse']),
    );
    expect(res.body.data[0]).toMatchObject({
      status: 'completed',
      store: { id: 1, name: 'Downtown Store' },
      warehouse: { id: 1, name: 'Downtown Floor' },
      total_amount: 1.32,
    });
    expect(
      (await api().get(`/api/v1/integrations/sales?date_from=${today}&status=completed&store_id=1&warehouse_id=1`).set(bearer(token))).body.meta.total,
    ).toBe(3);
    expect((await api().get('/api/v1/integration/sales?q=REF-1').set(bearer(token))).body.data).toHaveLength(1);
    expect((await api().get('/api/v1/integration/sales?from=2000-01-01&to=2000-01-02').set(bearer(token))).body.meta.total).toBe(0);
    const detail = await api().get(`/api/v1/integration/sales/${res.body.data[0].id}`).set(bearer(token));
    expect(detail.body.data.items).toHaveLength(1);
    expect(detail.body.data.payments).toHaveLength(1);
    expect((await api().get('/api/v1/integration/data/sales').set(bearer(token))).body.meta.total).toBe(3);
    expect((await api().get('/api/v1/integration/data/invoices?status=paid').set(bearer(token))).body.meta.total).toBe(3);
    expectErrorEnvelope(await api().get('/api/v1/integration/sales?from=not-a-date').set(bearer(token)), 422);
    expectErrorEnvelope(
      await api()
        .get('/api/v1/integration/sales')
        .set(bearer(await login(t, DEMO.admin))),
      403,
    );
  });
});
