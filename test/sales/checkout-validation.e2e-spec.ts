import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, integrationToken, login, startTestApp, TestApp } from '../support/test-app';

describe('Checkout input (contract 4.3.1): every field validated, never a 5xx', () => {
  let t: TestApp;
  let cashier: string;
  const api = () => request(t.http);
  const valid = () => ({
    store_id: 1,
    idempotency_key: `v-${Math.random()}`,
    items: [{ id: 1, qty: 1 }],
    payments: [{ payment_method_code: 'cash', amount: 2 }],
    total_amount: 1.32,
  });
  const post = (body: unknown) =>
    api()
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .send(body as object);

  beforeAll(async () => {
    t = await startTestApp();
    cashier = await login(t, DEMO.cashier);
    await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 0 }).expect(200);
  });
  afterAll(() => t.close());

  it('names each missing required field', async () => {
    const res = await post({});
    expectErrorEnvelope(res, 422, 'The given data was invalid.');
    for (const f of ['items', 'payments', 'total_amount', 'idempotency_key', 'store_id']) expect(res.body.errors[f]).toBeDefined();
    const lines = await post({ ...valid(), items: [{}], payments: [{}] });
    for (const f of ['items.0.id', 'items.0.qty', 'payments.0.payment_method_code', 'payments.0.amount']) expect(lines.body.errors[f]).toBeDefined();
  });

  const wrong: [string, (b: ReturnType<typeof valid>) => unknown][] = [
    ['items', (b) => ({ ...b, items: 'abc' })],
    ['items', (b) => ({ ...b, items: [] })],
    ['items.0.id', (b) => ({ ...b, items: [{ id: 'x', qty: 1 }] })],
    ['items.0.qty', (b) => ({ ...b, items: [{ id: 1, qty: -1 }] })],
    ['items.0.qty', (b) => ({ ...b, items: [{ id: 1, qty: 1.5 }] })],
    ['items.0.qty', (b) => ({ ...b, items: [{ id: 1, qty: 1e12 }] })],
    ['items.0.serial_number', (b) => ({ ...b, items: [{ id: 1, qty: 1, serial_number: 'x'.repeat(10_000) }] })],
    ['items.0.price', (b) => ({ ...b, items: [{ id: 1, qty: 1, price: -3 }] })],
    ['items.0.price', (b) => ({ ...b, items: [{ id: 1, qty: 1, price: 1.234 }] })],
    ['items.0.unit_id', (b) => ({ ...b, items: [{ id: 1, qty: 1, unit_id: 'case' }] })],
    ['items.0.base_quantity', (b) => ({ ...b, items: [{ id: 1, qty: 1, base_quantity: 0 }] })],
    ['items.0.warehouse_id', (b) => ({ ...b, items: [{ id: 1, qty: 1, warehouse_id: 'main' }] })],
    ['items.0.discount_type', (b) => ({ ...b, items: [{ id: 1, qty: 1, discount_type: 'bogus' }] })],
    ['items.0.discount_value', (b) => ({ ...b, items: [{ id: 1, qty: 1, discount_type: 'percent', discount_value: 'ten' }] })],
    ['items.0.discount_amount', (b) => ({ ...b, items: [{ id: 1, qty: 1, discount_amount: -1 }] })],
    ['items.0.discount_reason', (b) => ({ ...b, items: [{ id: 1, qty: 1, discount_reason: 5 }] })],
    ['items.0.discount_approved_by', (b) => ({ ...b, items: [{ id: 1, qty: 1, discount_approved_by: ['x'] }] })],
    ['items.0.discount_approval_token', (b) => ({ ...b, items: [{ id: 1, qty: 1, discount_approval_token: 7 }] })],
    ['payments', (b) => ({ ...b, payments: 'cash' })],
    ['payments.0.payment_method_code', (b) => ({ ...b, payments: [{ payment_method_code: 12, amount: 2 }] })],
    ['payments.0.payment_method_id', (b) => ({ ...b, payments: [{ payment_method_code: 'cash', payment_method_id: 'card', amount: 2 }] })],
    ['payments.0.payment_method_id', (b) => ({ ...b, payments: [{ payment_method_code: 'cash', payment_method_id: 0, amount: 2 }] })],
    ['payments.0.amount', (b) => ({ ...b, payments: [{ payment_method_code: 'cash', amount: 0 }] })],
    ['payments.0.tendered', (b) => ({ ...b, payments: [{ payment_method_code: 'cash', amount: 2, tendered: 'lots' }] })],
    ['payments.0.change', (b) => ({ ...b, payments: [{ payment_method_code: 'cash', amount: 2, change: -1 }] })],
    ['payments.0.reference', (b) => ({ ...b, payments: [{ payment_method_code: 'cash', amount: 2, reference: 'r'.repeat(500) }] })],
    ['payment_method', (b) => ({ ...b, payment_method: 1 })],
    ['payment_method_id', (b) => ({ ...b, payment_method_id: 1.5 })],
    ['total_amount', (b) => ({ ...b, total_amount: 'free' })],
    ['subtotal', (b) => ({ ...b, subtotal: -1 })],
    ['customer_id', (b) => ({ ...b, customer_id: 'walk-in' })],
    ['customer_id', (b) => ({ ...b, customer_id: -5 })],
    ['reference', (b) => ({ ...b, reference: { a: 1 } })],
    ['cart_discount_type', (b) => ({ ...b, cart_discount_type: 'half' })],
    ['cart_discount_value', (b) => ({ ...b, cart_discount_value: '5%' })],
    ['cart_discount_amount', (b) => ({ ...b, cart_discount_amount: -5 })],
    ['cart_discount_reason', (b) => ({ ...b, cart_discount_reason: 1 })],
    ['cart_discount_approved_by', (b) => ({ ...b, cart_discount_approved_by: false })],
    ['cart_discount_approval_token', (b) => ({ ...b, cart_discount_approval_token: 1 })],
    ['total_discount', (b) => ({ ...b, total_discount: 'none' })],
    ['tax_exempt', (b) => ({ ...b, tax_exempt: 'yes please' })],
    ['idempotency_key', (b) => ({ ...b, idempotency_key: 'k'.repeat(500) })],
    ['store_id', (b) => ({ ...b, store_id: "1' OR '1'='1" })],
    ['offline_created_at', (b) => ({ ...b, offline_created_at: 'yesterday' })],
    // ISO 8601's basic, week and ordinal forms: IsISO8601 took them and Date could not read them (a 500)
    ['offline_created_at', (b) => ({ ...b, offline_created_at: '20261128T040110Z' })],
    ['offline_created_at', (b) => ({ ...b, offline_created_at: '2026-W48-5' })],
    ['offline_created_at', (b) => ({ ...b, offline_created_at: '2026-332' })],
  ];

  it.each(wrong)('rejects a bad %s with 422 naming it', async (field, make) => {
    const res = await post(make(valid()));
    expect(res.status).toBe(422);
    expect(res.body.success).toBe(false);
    expect(res.body.errors[field]).toBeDefined();
  });

  it('answers business-rule problems with the right 4xx', async () => {
    // unknown item and unit, warehouse not serving the store, serial-tracked without serial
    const r1 = await post({ ...valid(), items: [{ id: 999999, qty: 1 }] });
    expect(r1.status).toBe(422);
    expect(r1.body.errors['items.0.id']).toBeDefined();
    const r2 = await post({ ...valid(), items: [{ id: 1, qty: 1, unit_id: 999 }] });
    expect(r2.body.errors['items.0.unit_id']).toBeDefined();
    // a cart that cannot be sold as it stands: the contract's 400 "checkout validation error", errors by field
    const r3 = await post({ ...valid(), items: [{ id: 1, qty: 1, warehouse_id: 2 }] });
    expect(r3.status).toBe(400);
    expect(r3.body).toMatchObject({ success: false, code: 'checkout_invalid' });
    expect(r3.body.errors['items.0.warehouse_id']).toBeDefined();
    const [elc] = await t.db.query("SELECT id FROM items WHERE sku = 'ELC-002'");
    const r4 = await post({ ...valid(), items: [{ id: elc.id, qty: 1 }], payments: [{ payment_method_code: 'card', amount: 54.11 }], total_amount: 54.11 });
    expect(r4.status).toBe(400);
    expect(r4.body.errors['items.0.serial_number']).toBeDefined();
    const r5 = await post({ ...valid(), items: [{ id: 1, qty: 2, base_quantity: 3 }] });
    expect(r5.status).toBe(400);
    expect(r5.body.errors['items.0.base_quantity']).toBeDefined();
    // unknown payment method; another store 403; total off by a cent 400 with both figures
    const r6 = await post({ ...valid(), payments: [{ payment_method_code: 'bitcoin', amount: 2 }] });
    expect(r6.status).toBe(400);
    expect(r6.body.errors['payments.0.payment_method_code']).toBeDefined();
    expectErrorEnvelope(await post({ ...valid(), store_id: 2 }), 403);
    const off = await post({ ...valid(), total_amount: 1.31 });
    expectErrorEnvelope(off, 400);
    expect(off.body).toMatchObject({ client_total: 1.31, server_total: 1.32 });
    // tax exemption needs a customer or a reason
    const exempt = await post({ ...valid(), tax_exempt: true, total_amount: 1.29 });
    expect(exempt.body.errors.tax_exempt_reason).toBeDefined();
    const exemptOk = await post({
      ...valid(),
      tax_exempt: true,
      tax_exempt_reason: 'Diplomatic',
      total_amount: 1.29,
      payments: [{ payment_method_code: 'cash', amount: 1.29 }],
    });
    expect(exemptOk.status).toBe(201);
    expect(exemptOk.body.data).toMatchObject({ tax_total: 0, tax_exempt: true, tax_exempt_reason: 'Diplomatic' });
    // legacy single payment method still works
    const legacy = await post({ ...valid(), payments: [], payment_method: 'card' });
    expect(legacy.status).toBe(201);
    expect(legacy.body.data.payments).toEqual([expect.objectContaining({ payment_method_code: 'card', amount: 1.32 })]);
    // serial-tracked sale marks the serial sold
    const serial = (
      await t.db.query("SELECT serial FROM serial_numbers WHERE item_id = ? AND warehouse_id = 1 AND status = 'in_stock' ORDER BY serial LIMIT 1", [elc.id])
    )[0].serial;
    // the same serial on two lines is the cart's 400 like any serial problem (it was a 422 from the second sale of one unit)
    const twice = await post({
      ...valid(),
      items: [
        { id: elc.id, qty: 1, serial_number: serial },
        { id: elc.id, qty: 1, serial_number: serial },
      ],
      payments: [{ payment_method_code: 'card', amount: 108.22 }],
      total_amount: 108.22,
    });
    expect([twice.status, twice.body.code, twice.body.errors?.['items.1.serial_number']]).toEqual([
      400,
      'checkout_invalid',
      ['The serial number is on another line of this sale.'],
    ]);
    const sold = await post({
      ...valid(),
      items: [{ id: elc.id, qty: 1, serial_number: serial }],
      payments: [{ payment_method_code: 'card', amount: 54.11 }],
      total_amount: 54.11,
    });
    expect(sold.status).toBe(201);
    expect((await t.db.query('SELECT status FROM serial_numbers WHERE serial = ?', [serial]))[0].status).toBe('sold');
    expect(
      (
        await post({
          ...valid(),
          items: [{ id: elc.id, qty: 1, serial_number: serial }],
          payments: [{ payment_method_code: 'card', amount: 54.11 }],
          total_amount: 54.11,
        })
      ).body.errors['items.0.serial_number'],
    ).toBeDefined();
  });

  it('keeps integration tokens and users without sales.create out', async () => {
    const { token } = await integrationToken(t, ['sales.view']);
    expectErrorEnvelope(await api().post('/api/v1/pos/checkout').set(bearer(token)).send(valid()), 403);
    expectErrorEnvelope(await api().post('/api/v1/pos/checkout').send(valid()), 401);
  });

  it('validates without writing anything', async () => {
    const before = Number((await t.db.query('SELECT COUNT(*) AS n FROM sales'))[0].n);
    const res = await api().post('/api/v1/pos/checkout/validate').set(bearer(cashier)).send(valid());
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ valid: true, can_sell: true, total: 1.32, change: 0.68 });
    expect(Number((await t.db.query('SELECT COUNT(*) AS n FROM sales'))[0].n)).toBe(before);
    expectErrorEnvelope(
      await api()
        .post('/api/v1/pos/checkout/validate')
        .set(bearer(cashier))
        .send({ ...valid(), total_amount: 9 }),
      400,
    );
  });
});
