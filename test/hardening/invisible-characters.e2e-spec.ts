import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 25 item 9: zero-width and other format characters made a second SKU (barcode, code,
 * email) that looks exactly like the first. Identifiers now refuse them with a 422 naming the
 * field; names and other free text have the meaningless ones (soft hyphen, zero-width space,
 * word joiner, BOM) stripped, so a name that looks the same is the same.
 */
describe('Invisible characters in identifiers and names (embedded and MySQL)', () => {
  let t: TestApp;
  let admin: string;
  let cashier: string;
  const api = () => request(t.http);
  /** The 422 message of a field holding a format character: names the field and the character. */
  const invisible = (field: string, char = '[0-9A-F]{4,5}') =>
    expect.arrayContaining([
      expect.stringMatching(new RegExp(`^The ${field.replace(/\./g, '\\.')} field must not contain invisible formatting characters \\(U\\+${char}\\)\\.$`)),
    ]);
  const checkout = (over: Record<string, unknown> = {}) => ({
    store_id: 1,
    idempotency_key: `zw-${Math.random()}`,
    items: [{ id: 1, qty: 1 }],
    payments: [{ payment_method_code: 'cash', amount: 2 }],
    total_amount: 1.32,
    ...over,
  });

  beforeAll(async () => {
    t = await startTestApp();
    admin = await login(t, DEMO.admin);
    cashier = await login(t, DEMO.cashier);
    await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 0 }).expect(200);
  });
  afterAll(() => t.close());

  const createItem = (body: Record<string, unknown>) =>
    api()
      .post('/api/v1/items')
      .set(bearer(admin))
      .send({ base_price: 1, ...body });

  it('refuses SKU\\u200B1 beside SKU1 (422 on sku, naming the character); SKU1 itself is stored', async () => {
    expect((await createItem({ sku: 'ZW-SKU1', name: 'Zero width one' })).status).toBe(201);
    const res = await createItem({ sku: 'ZW-SKU\u200B1', name: 'Zero width two' });
    expectErrorEnvelope(res, 422);
    expect(res.body.errors.sku).toEqual(['The sku field must not contain invisible formatting characters (U+200B).']);
    const update = await api().put('/api/v1/items/1').set(bearer(admin)).send({ sku: '\u2060ZW-SKU1' });
    expectErrorEnvelope(update, 422);
    expect(update.body.errors.sku).toEqual(invisible('sku'));
    expect(Number((await t.db.query("SELECT COUNT(*) AS n FROM items WHERE sku LIKE 'ZW-SKU%'"))[0].n)).toBe(1);
  });

  it('refuses a barcode with U+FEFF (item barcodes and unit barcodes) and other format characters', async () => {
    // Inside the value: at either end, trimming removes U+FEFF like a space (JavaScript counts it as one).
    const res = await createItem({ sku: 'ZW-BC', name: 'Barcode item', barcodes: ['4006381333931', '400638\uFEFF1333931'] });
    expectErrorEnvelope(res, 422);
    expect(res.body.errors.barcodes).toEqual(invisible('barcodes', 'FEFF'));
    const unit = await createItem({ sku: 'ZW-BC', name: 'Barcode item', units: [{ name: 'case', factor: 6, barcode: '40063813\u00AD33948' }] });
    expectErrorEnvelope(unit, 422);
    expect(unit.body.errors['units.0.barcode']).toEqual(invisible('units.0.barcode', '00AD'));
    for (const ch of ['\u200C', '\u200D', '\u200E', '\u200F', '\u2064', '\uFE0F', '\u{E0041}']) {
      const r = await createItem({ sku: `ZW${ch}X`, name: 'Format character' });
      expectErrorEnvelope(r, 422);
      expect(r.body.errors.sku).toEqual(invisible('sku'));
    }
  });

  it('refuses format characters in codes and emails (bundle, customer group, customer, login)', async () => {
    const bundle = await api()
      .post('/api/v1/bundles')
      .set(bearer(admin))
      .send({ name: 'Zero bundle', code: 'ZW\u200DB', price: 5, items: [{ item_id: 1, quantity: 2 }] });
    expectErrorEnvelope(bundle, 422);
    expect(bundle.body.errors.code).toEqual(invisible('code'));
    const group = await api().post('/api/v1/customer-groups').set(bearer(admin)).send({ name: 'Zero group', code: 'V\u200BIP' });
    expect(group.status).toBe(422);
    expect(group.body.errors.code).toEqual(invisible('code'));
    const customer = await api().post('/api/v1/customers').set(bearer(admin)).send({ name: 'Zero Email', email: 'jane\u200B@example.com' });
    expectErrorEnvelope(customer, 422);
    expect(customer.body.errors.email).toEqual(invisible('email', '200B'));
    const loginRes = await api()
      .post('/api/v1/auth/login')
      .send({ email: DEMO.cashier.replace('@', '\uFEFF@'), password: DEMO.password });
    expect(loginRes.status).toBe(422);
    expect(loginRes.body.errors.email).toEqual(invisible('email', 'FEFF'));
  });

  it('strips soft hyphens and zero-width spaces from names: the name that looks the same is the same', async () => {
    const created = await createItem({ sku: 'ZW-NAME', name: 'Choco\u00ADlate\u200B Bar\uFEFF', description: 'Dark\u00AD chocolate\n70%' });
    expect(created.status).toBe(201);
    expect(created.body.data.name).toBe('Chocolate Bar');
    expect(created.body.data.description).toBe('Dark chocolate\n70%');
    const stored = await t.db.query('SELECT name FROM items WHERE sku = ?', ['ZW-NAME']);
    expect(stored[0].name).toBe('Chocolate Bar');
    const check = await api().get('/api/v1/items/check-name').query({ name: 'Chocolate\u00AD Bar' }).set(bearer(admin));
    expect(check.status).toBe(200);
    expect(check.body.data).toMatchObject({ available: false, existing_id: created.body.data.id });
    // Joiners change how text renders (Persian, Indic scripts, emoji): free text keeps them.
    const persian = await api().post('/api/v1/customers').set(bearer(admin)).send({ name: 'می\u200Cخواهم 👩\u200D💻' });
    expect(persian.status).toBe(201);
    expect(persian.body.data.name).toBe('می\u200Cخواهم 👩\u200D💻');
    const blank = await createItem({ sku: 'ZW-BLANK', name: '\u200B\u00AD' });
    expectErrorEnvelope(blank, 422);
    expect(blank.body.errors.name).toBeDefined();
  });

  it('refuses checkout bodies whose idempotency key, payment method code or serial number carries one', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [checkout({ idempotency_key: `zw-key-\u200B${Math.random()}` }), 'idempotency_key'],
      [checkout({ payments: [{ payment_method_code: 'ca\uFEFFsh', amount: 2 }] }), 'payments.0.payment_method_code'],
      [checkout({ payments: [], payment_method: 'ca\u00ADsh' }), 'payment_method'],
      [checkout({ items: [{ id: 1, qty: 1, serial_number: 'SN\u20601' }] }), 'items.0.serial_number'],
    ];
    for (const [body, field] of cases) {
      const res = await api().post('/api/v1/pos/checkout').set(bearer(cashier)).send(body);
      expectErrorEnvelope(res, 422);
      expect(res.body.errors[field]).toEqual(invisible(field));
    }
    expect((await api().post('/api/v1/pos/checkout').set(bearer(cashier)).send(checkout())).status).toBe(201);
  });

  it('rejects an offline upload whose sale carries one, alone, naming the field within the transaction', async () => {
    const at = new Date(Date.now() - 1000).toISOString();
    const sale = (key: string, code = 'cash') => ({
      idempotency_key: key,
      type: 'sale',
      offline_created_at: at,
      data: { items: [{ id: 1, qty: 1 }], payments: [{ payment_method_code: code, amount: 2 }], total_amount: 1.32 },
    });
    const res = await api()
      .post('/api/v1/sync/upload')
      .set(bearer(cashier))
      .send({
        store_id: 1,
        transactions: [
          sale(`zw-up-\u200B${Math.random()}`),
          sale(`zw-up-${Math.random()}`, 'cash\u200D'),
          { idempotency_key: `zw-up-${Math.random()}`, type: 'customer', data: { name: 'Offline Zero', email: 'off\u2063line@example.com' } },
          sale(`zw-up-${Math.random()}`),
        ],
      });
    expect(res.status).toBe(200);
    const r = res.body.data.results;
    expect(r.map((x: { status: string }) => x.status)).toEqual(['rejected', 'rejected', 'rejected', 'accepted']);
    expect(r[0].errors.idempotency_key).toEqual(invisible('idempotency_key'));
    expect(r[1].errors['data.payments.0.payment_method_code']).toEqual(invisible('payments.0.payment_method_code'));
    expect(r[2].errors['data.email']).toEqual(invisible('email', '2063'));
  });
});
