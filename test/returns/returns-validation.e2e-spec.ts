import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';

describe('Return input (contract 4.6.1): every field validated, never a 5xx', () => {
  let t: TestApp;
  let cashier: string;
  let manager: string;
  let saleId: number;
  let saleItemId: number;
  const api = () => request(t.http);
  const post = (body: unknown, token = cashier) =>
    api()
      .post('/api/v1/returns')
      .set(bearer(token))
      .send(body as object);
  const valid = () => ({ sale_id: String(saleId), items: [{ sale_item_id: String(saleItemId), quantity: 1 }] as Record<string, unknown>[] });

  beforeAll(async () => {
    t = await startTestApp();
    cashier = await login(t, DEMO.cashier);
    manager = await login(t, DEMO.manager);
    await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 0 }).expect(200);
    const sale = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .send({
        store_id: 1,
        idempotency_key: 'val-sale',
        items: [{ id: 1, qty: 2 }],
        payments: [{ payment_method_code: 'cash', amount: 5 }],
        total_amount: 2.63,
      });
    expect(sale.status).toBe(201);
    saleId = sale.body.data.id;
    saleItemId = sale.body.data.items[0].id;
  });
  afterAll(() => t.close());

  it('names each missing required field', async () => {
    const res = await post({});
    expectErrorEnvelope(res, 422, 'The given data was invalid.');
    for (const f of ['sale_id', 'items']) expect(res.body.errors[f]).toEqual([`The ${f} field is required.`]);
    const lines = await post({ sale_id: saleId, items: [{}] });
    for (const f of ['items.0.sale_item_id', 'items.0.quantity']) expect(lines.body.errors[f]).toEqual([`The ${f} field is required.`]);
  });

  const line = (extra: Record<string, unknown>) => (b: ReturnType<typeof valid>) => ({ ...b, items: [{ ...b.items[0], ...extra }] });
  const wrong: [string, (b: ReturnType<typeof valid>) => unknown][] = [
    ['sale_id', (b) => ({ ...b, sale_id: 'abc' })],
    ['sale_id', (b) => ({ ...b, sale_id: '0' })],
    ['sale_id', (b) => ({ ...b, sale_id: -4 })],
    ['sale_id', (b) => ({ ...b, sale_id: 1.5 })],
    ['sale_id', (b) => ({ ...b, sale_id: '99999999999' })],
    ['sale_id', (b) => ({ ...b, sale_id: '0x1f' })],
    ['sale_id', (b) => ({ ...b, sale_id: ['1'] })],
    ['sale_id', (b) => ({ ...b, sale_id: { id: 1 } })],
    ['sale_id', (b) => ({ ...b, sale_id: true })],
    ['items', (b) => ({ ...b, items: 'all' })],
    ['items', (b) => ({ ...b, items: [] })],
    ['items', (b) => ({ ...b, items: Array.from({ length: 501 }, () => b.items[0]) })],
    ['items.0', (b) => ({ ...b, items: [7] })],
    ['items.0.sale_item_id', line({ sale_item_id: 'first' })],
    ['items.0.sale_item_id', line({ sale_item_id: 0 })],
    ['items.0.sale_item_id', line({ sale_item_id: 1e30 })],
    ['items.0.quantity', line({ quantity: 0 })],
    ['items.0.quantity', line({ quantity: -1 })],
    ['items.0.quantity', line({ quantity: 1.5 })],
    ['items.0.quantity', line({ quantity: 'one' })],
    ['items.0.quantity', line({ quantity: 1e12 })],
    ['items.0.quantity', line({ quantity: null })],
    ['items.0.condition', line({ condition: 'broken' })],
    ['items.0.condition', line({ condition: 3 })],
    ['items.0.restock', line({ restock: 'yes please' })],
    ['items.0.restock', line({ restock: 2 })],
    ['items.0.notes', line({ notes: 42 })],
    ['items.0.notes', line({ notes: 'x'.repeat(1001) })],
    ['items.0.warehouse_id', line({ warehouse_id: 'main' })],
    ['items.0.warehouse_id', line({ warehouse_id: 0 })],
    ['items.0.warehouse_id', line({ warehouse_id: '999999' })],
    ['reason_id', (b) => ({ ...b, reason_id: 'damaged' })],
    ['reason_id', (b) => ({ ...b, reason_id: '999999' })],
    ['reason_notes', (b) => ({ ...b, reason_notes: { text: 'x' } })],
    ['reason_notes', (b) => ({ ...b, reason_notes: 'x'.repeat(1001) })],
    ['internal_notes', (b) => ({ ...b, internal_notes: ['x'] })],
    ['internal_notes', (b) => ({ ...b, internal_notes: 'x'.repeat(2001) })],
    ['process_immediately', (b) => ({ ...b, process_immediately: 'maybe' })],
    ['idempotency_key', (b) => ({ ...b, idempotency_key: 12345 })],
    ['idempotency_key', (b) => ({ ...b, idempotency_key: '' })],
    ['idempotency_key', (b) => ({ ...b, idempotency_key: '   ' })],
    ['idempotency_key', (b) => ({ ...b, idempotency_key: 'k'.repeat(129) })],
  ];

  it.each(wrong.map(([field, make], i) => [i, field, make] as const))('case %i: a bad %s is a 422 naming it', async (_i, field, make) => {
    const res = await post(make(valid()));
    expectErrorEnvelope(res, 422, 'The given data was invalid.');
    expect(Object.keys(res.body.errors)).toContain(field);
    for (const messages of Object.values(res.body.errors as Record<string, string[]>)) {
      for (const m of messages) expect(m).toMatch(/^The /);
    }
  });

  it('accepts ids as numbers or strings of digits, and nothing was created by the refusals', async () => {
    const [{ c }] = await t.db.query('SELECT COUNT(*) AS c FROM sale_returns');
    expect(Number(c)).toBe(0);
    const res = await post({ sale_id: saleId, items: [{ sale_item_id: saleItemId, quantity: '1', restock: 'true', condition: 'opened' }] });
    expect(res.status).toBe(200);
    expect(res.body.data.items[0]).toMatchObject({ quantity: 1, restock: true, condition: 'opened' });
  });

  it('validates the decision bodies and query strings', async () => {
    const r = await post({ sale_id: saleId, items: [{ sale_item_id: saleItemId, quantity: 1 }] });
    expect(r.status).toBe(200);
    const id = r.body.data.id;
    const bad = await api().post(`/api/v1/returns/${id}/reject`).set(bearer(manager)).send({ notes: 5 });
    expectErrorEnvelope(bad, 422);
    expect(bad.body.errors.notes).toBeDefined();
    expectErrorEnvelope(
      await api()
        .post(`/api/v1/returns/${id}/cancel`)
        .set(bearer(cashier))
        .send({ notes: 'x'.repeat(1001) }),
      422,
    );
    for (const q of ['', 'sale_id=', 'sale_id=abc', 'sale_id=-1', 'sale_id=1.5', 'sale_id=1e99', 'sale_id[]=1']) {
      const res = await api().get(`/api/v1/returns/check-sale?${q}`).set(bearer(cashier));
      expectErrorEnvelope(res, 422);
      expect(res.body.errors.sale_id).toBeDefined();
    }
    for (const q of ['per_page=0', 'page=abc', 'store_id=x', 'warehouse_id=-1', 'status=done', 'sale_id=abc', 'date_to=2026-13-45', 'from=noon']) {
      expectErrorEnvelope(await api().get(`/api/v1/returns?${q}`).set(bearer(cashier)), 422);
    }
    for (const path of ['0', '-1', '1.5', '1e3', '99999999999999999999', '%00', 'null']) {
      expectErrorEnvelope(await api().get(`/api/v1/returns/${path}`).set(bearer(cashier)), 404);
      expectErrorEnvelope(await api().post(`/api/v1/returns/${path}/approve`).set(bearer(manager)).send({}), 404);
    }
  });

  it('never answers hostile input with a 5xx', async () => {
    const bodies: unknown[] = [
      [],
      [valid()],
      { ...valid(), __proto__: { isAdmin: true } },
      { ...valid(), constructor: { prototype: { polluted: true } } },
      { ...valid(), items: [{ ...valid().items[0], sale_item_id: '1; DROP TABLE sales' }] },
      { ...valid(), sale_id: "1' OR '1'='1" },
      { ...valid(), items: [{ ...valid().items[0], quantity: Number.MAX_SAFE_INTEGER }] },
      { ...valid(), items: [{ ...valid().items[0], notes: '\u0000\uffff😀'.repeat(100) }] },
      { ...valid(), items: [[[[[[]]]]]] },
      { ...valid(), items: [{ ...valid().items[0], warehouse_id: 2_147_483_648 }] },
      { ...valid(), reason_id: '2147483647' },
      { ...valid(), items: [null] },
      { sale_id: null, items: null },
    ];
    for (const body of bodies) {
      const res = await post(body);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.body.success).toBe(false);
    }
    const malformed = await api().post('/api/v1/returns').set(bearer(cashier)).set('Content-Type', 'application/json').send('{"sale_id": 1, "items": [');
    expectErrorEnvelope(malformed, 400);
    const text = await api().post('/api/v1/returns').set(bearer(cashier)).set('Content-Type', 'application/json').send('"a string"');
    expect(text.status).toBe(400);
  });

  it('documents every returns route in OpenAPI: the envelope with its data shape and each error status', async () => {
    const doc = (await api().get('/api/docs-json')).body;
    const op = (path: string, method: string) => doc.paths[`/api/v1${path}`][method];
    const expected: [string, string, string, string[]][] = [
      ['/returns', 'get', 'returns.view', ['200', '401', '403', '422']],
      ['/returns', 'post', 'returns.create', ['200', '403', '404', '409', '422']],
      ['/returns/check-sale', 'get', 'returns.view', ['200', '404', '422']],
      ['/returns/reasons', 'get', 'returns.view', ['200']],
      ['/returns/{saleReturn}', 'get', 'returns.view', ['200', '404']],
      ['/returns/{saleReturn}/approve', 'post', 'returns.approve', ['200', '404', '409']],
      ['/returns/{saleReturn}/reject', 'post', 'returns.approve', ['200', '404', '409', '422']],
      ['/returns/{saleReturn}/cancel', 'post', 'returns.create', ['200', '404', '409', '422']],
      ['/returns/{saleReturn}/process', 'post', 'returns.process', ['200', '404', '409']],
      ['/integration/data/returns', 'get', 'returns.view', ['200', '403', '422']],
      ['/integrations/data/returns/{saleReturn}', 'get', 'returns.view', ['200', '404']],
    ];
    for (const [path, method, permission, statuses] of expected) {
      const o = op(path, method);
      expect(o['x-permission']).toContain(permission);
      expect(Object.keys(o.responses)).toEqual(expect.arrayContaining(statuses));
      expect(o.responses['200'].content['application/json'].schema.properties.data).toBeDefined();
    }
    // the return is a named schema (ReturnDetail), so typed clients can name it
    const data = op('/returns/{saleReturn}/process', 'post').responses['200'].content['application/json'].schema.properties.data;
    expect(data).toEqual({ $ref: '#/components/schemas/ReturnDetail' });
    const detail = doc.components.schemas.ReturnDetail;
    expect(Object.keys(detail.properties)).toEqual(expect.arrayContaining(['status', 'refund_total', 'items', 'refunds', 'credit_note']));
    expect(op('/returns', 'get').responses['200'].content['application/json'].schema.properties.meta).toBeDefined();
  });
});
