import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 27 item 6, "integrators trip on names": the contract's names with their obvious aliases,
 * unknown body fields named (never dropped), validate answering the priced cart without a total,
 * bulk jobs saying where to follow them, PATCH where PUT is already a partial update.
 */
describe('Naming conventions', () => {
  let t: TestApp;
  let cashier: string;
  let manager: string;
  const api = () => request(t.http);
  let n = 0;
  const sale = (lines: object[], extra: object = {}) => ({
    store_id: 1,
    idempotency_key: `names-${++n}-${Date.now()}`,
    items: lines,
    payments: [{ payment_method_code: 'cash', amount: 5 }],
    total_amount: 1.32,
    ...extra,
  });

  beforeAll(async () => {
    t = await startTestApp();
    cashier = await login(t, DEMO.cashier);
    manager = await login(t, DEMO.manager);
    await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 0 }).expect(200);
  });
  afterAll(() => t.close());

  describe('aliases', () => {
    it('checkout takes item_id for id and quantity for qty', async () => {
      const res = await api()
        .post('/api/v1/pos/checkout')
        .set(bearer(cashier))
        .send(sale([{ item_id: 1, quantity: 1 }]));
      expect(res.status).toBe(201);
      expect(res.body.data.items).toEqual([expect.objectContaining({ item_id: 1, quantity: 1 })]);
    });

    it('refuses an alias that contradicts its field, naming it, and names an alias in its own errors', async () => {
      const clash = await api()
        .post('/api/v1/pos/checkout')
        .set(bearer(cashier))
        .send(sale([{ id: 1, item_id: 2, qty: 1 }]));
      expectErrorEnvelope(clash, 422, 'The given data was invalid.');
      expect(Object.keys(clash.body.errors)).toEqual(['items.0.item_id']);
      const same = await api()
        .post('/api/v1/pos/checkout/validate')
        .set(bearer(cashier))
        .send(sale([{ id: 1, item_id: 1, qty: 1, quantity: 1 }]));
      expect(same.status).toBe(200);
      const bad = await api()
        .post('/api/v1/pos/checkout')
        .set(bearer(cashier))
        .send(sale([{ id: 1, quantity: 0 }]));
      expectErrorEnvelope(bad, 422);
      expect(Object.keys(bad.body.errors)).toEqual(['items.0.quantity']);
    });

    it('returns take qty for quantity; pricing lines take item_id and quantity', async () => {
      const sold = await api()
        .post('/api/v1/pos/checkout')
        .set(bearer(cashier))
        .send(sale([{ id: 1, qty: 1 }]));
      expect(sold.status).toBe(201);
      const ret = await api()
        .post('/api/v1/returns')
        .set(bearer(cashier))
        .send({ sale_id: sold.body.data.id, items: [{ sale_item_id: sold.body.data.items[0].id, qty: 1 }] });
      expect(ret.status).toBe(200);
      const priced = await api()
        .post('/api/v1/pricing/cart')
        .set(bearer(cashier))
        .send({ store_id: 1, items: [{ item_id: 1, quantity: 2 }] });
      expect(priced.status).toBe(200);
      expect(priced.body.data.items[0]).toMatchObject({ item_id: 1, quantity: 2 });
    });

    it('documents each alias as an alternative in OpenAPI', async () => {
      const doc = (await api().get('/api/docs-json')).body;
      const line = doc.components.schemas.CheckoutItemDto;
      expect(line.properties.item_id.description).toMatch(/^Alias of `id`/);
      expect(line.properties.quantity.description).toMatch(/^Alias of `qty`/);
      expect(line.required ?? []).not.toContain('id');
      expect(line.allOf).toEqual(expect.arrayContaining([{ anyOf: [{ required: ['id'] }, { required: ['item_id'] }] }]));
      expect(doc.components.schemas.ReturnItemDto.properties.qty.description).toMatch(/^Alias of `quantity`/);
    });
  });

  describe('unknown body fields', () => {
    it('are named with "Unknown field." at their path, on every body', async () => {
      const nested = await api()
        .post('/api/v1/pos/checkout/validate')
        .set(bearer(cashier))
        .send(sale([{ id: 1, qty: 1, colour: 'red' }], { note: 'x' }));
      expectErrorEnvelope(nested, 422, 'The given data was invalid.');
      expect(nested.body.errors).toEqual({ 'items.0.colour': ['Unknown field.'], note: ['Unknown field.'] });
      const category = await api().post('/api/v1/categories').set(bearer(manager)).send({ name: 'Named', colour: 'red' });
      expectErrorEnvelope(category, 422);
      expect(category.body.errors).toEqual({ colour: ['Unknown field.'] });
    });

    it('are named on a write that takes no body, before it acts; an empty object is fine', async () => {
      const token = await login(t, DEMO.manager);
      const res = await api().post('/api/v1/auth/logout').set(bearer(token)).send({ everywhere: true });
      expectErrorEnvelope(res, 422, 'The given data was invalid.');
      expect(res.body.errors).toEqual({ everywhere: ['Unknown field.'] });
      expect((await api().get('/api/v1/auth/me').set(bearer(token))).status).toBe(200);
      expect((await api().post('/api/v1/auth/logout').set(bearer(token)).send({})).status).toBe(201);
    });

    it('leave query parameters of non-integration routes alone (forward compatibility)', async () => {
      expect((await api().get('/api/v1/items?per_page=1&colour=red').set(bearer(cashier))).status).toBe(200);
    });
  });

  describe('POST /pos/checkout/validate', () => {
    it('prices the cart without a total, tenders or key, so the till can show the total first', async () => {
      const res = await api()
        .post('/api/v1/pos/checkout/validate')
        .set(bearer(cashier))
        .send({ store_id: 1, items: [{ id: 1, qty: 2 }] });
      expect(res.status).toBe(200);
      const total = res.body.data.total;
      expect(total).toBeGreaterThan(0);
      expect(res.body.data).toMatchObject({ valid: true, currency: expect.any(String), payments: [], change: 0, balance_due: total });
      expect(res.body.data.items[0]).toMatchObject({ item_id: 1, quantity: 2, unit_price: expect.any(Number), tax: expect.any(Number), total });
      expect(res.body.data).toHaveProperty('discount_total');
      expect(res.body.data).toHaveProperty('tax_total');
    });

    it('still answers a total that differs as checkout does (400 with both figures), and settles tenders when given', async () => {
      const off = await api()
        .post('/api/v1/pos/checkout/validate')
        .set(bearer(cashier))
        .send({ store_id: 1, items: [{ id: 1, qty: 1 }], total_amount: 1.31 });
      expectErrorEnvelope(off, 400);
      expect(off.body).toMatchObject({ client_total: 1.31, server_total: 1.32 });
      const tendered = await api()
        .post('/api/v1/pos/checkout/validate')
        .set(bearer(cashier))
        .send({ store_id: 1, items: [{ id: 1, qty: 1 }], payments: [{ payment_method_code: 'cash', amount: 1.32, tendered: 2 }] });
      expect(tendered.status).toBe(200);
      expect(tendered.body.data).toMatchObject({ total: 1.32, change: 0.68, balance_due: 0 });
    });
  });

  describe('bulk price jobs', () => {
    it("answer with the contract's 200, a Location to follow and id beside job_id, on a replay too", async () => {
      const body = { changes: [{ item_id: 2, price: 3.5 }] };
      const res = await api().post('/api/v1/prices/bulk').set(bearer(manager)).set('Idempotency-Key', 'names-bulk-1').send(body);
      expect(res.status).toBe(200);
      expect(res.body.data.id).toBe(res.body.data.job_id);
      expect(res.headers.location).toBe(`/api/v1/prices/bulk/${res.body.data.job_id}`);
      const replay = await api().post('/api/v1/prices/bulk').set(bearer(manager)).set('Idempotency-Key', 'names-bulk-1').send(body);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.headers.location).toBe(res.headers.location);
      const status = await api().get(res.headers.location).set(bearer(manager));
      expect(status.status).toBe(200);
      expect(status.body.data).toMatchObject({ id: res.body.data.job_id, job_id: res.body.data.job_id });
    });
  });

  describe('PATCH', () => {
    it('is the same partial update as PUT, If-Match rules included', async () => {
      const created = await api().post('/api/v1/customers').set(bearer(manager)).send({ name: 'Patchable', phone: '555-0100' });
      expect(created.status).toBe(201);
      const id = created.body.data.id;
      const before = await api().get(`/api/v1/customers/${id}`).set(bearer(manager));
      const patched = await api().patch(`/api/v1/customers/${id}`).set(bearer(manager)).set('If-Match', before.headers.etag).send({ name: 'Patched' });
      expect(patched.status).toBe(200);
      expect(patched.body.data).toMatchObject({ id, name: 'Patched', phone: '555-0100' });
      expect(patched.headers.etag).toBeDefined();
      const stale = await api().patch(`/api/v1/customers/${id}`).set(bearer(manager)).set('If-Match', before.headers.etag).send({ name: 'Stale' });
      expectErrorEnvelope(stale, 412);
      // the PUT's permission (catalog.manage: a cashier has none)
      expectErrorEnvelope(await api().patch('/api/v1/categories/1').set(bearer(cashier)).send({ description: 'No right' }), 403);
      const category = await api().patch('/api/v1/categories/1').set(bearer(manager)).send({ description: 'Via PATCH' });
      expect(category.status).toBe(200);
      expect(category.body.data.description).toBe('Via PATCH');
    });

    it('stays 405 with Allow where PUT is not a partial update, and is documented where it is', async () => {
      const sale = await api().patch('/api/v1/sales/1').set(bearer(manager)).send({});
      expect(sale.status).toBe(405);
      expect(sale.headers.allow).not.toMatch(/PATCH/);
      const options = await api().delete('/api/v1/customers').set(bearer(manager));
      expect(options.status).toBe(405);
      const one = await api().post('/api/v1/customers/1').set(bearer(manager)).send({});
      expect(one.headers.allow).toMatch(/PATCH/);
      const doc = (await api().get('/api/docs-json')).body;
      for (const path of ['/api/v1/customers/{customer}', '/api/v1/items/{item}', '/api/v1/categories/{category}', '/api/v1/pricing-rules/{pricingRule}']) {
        expect([path, !!doc.paths[path]?.patch]).toEqual([path, true]);
        expect(doc.paths[path].patch.requestBody).toEqual(doc.paths[path].put.requestBody);
      }
    });
  });
});
