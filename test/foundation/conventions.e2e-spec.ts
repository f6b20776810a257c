import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, integrationToken, login, startTestApp, TestApp } from '../support/test-app';

describe('Contract conventions (envelope, errors, pagination, request id)', () => {
  let t: TestApp;
  let admin: string;
  let cashier: string;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await login(t, DEMO.admin);
    cashier = await login(t, DEMO.cashier);
  });
  afterAll(() => t.close());

  it('answers an unknown route with 404 in the envelope', async () => {
    const res = await request(t.http).get('/api/v1/definitely-not-a-route').set(bearer(admin));
    expectErrorEnvelope(res, 404, 'Not found.');
    const outside = await request(t.http).get('/nope');
    expectErrorEnvelope(outside, 404);
  });

  it('answers an unknown record id, and a non-numeric or SQL-looking id, with 404', async () => {
    for (const id of ['999999', 'abc', "1' OR '1'='1", '-1', '0', '1.5', '99999999999999999999']) {
      const res = await request(t.http)
        .get(`/api/v1/stores/${encodeURIComponent(id)}`)
        .set(bearer(admin));
      expectErrorEnvelope(res, 404);
    }
  });

  it('answers malformed JSON with 400 and an oversized body with 413', async () => {
    const bad = await request(t.http).post('/api/v1/auth/login').set('Content-Type', 'application/json').send('{"email": ');
    expectErrorEnvelope(bad, 400);
    const big = await request(t.http)
      .post('/api/v1/auth/login')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(2 * 1024 * 1024) }));
    expectErrorEnvelope(big, 413);
  });

  it('answers a JSON body that is not an object with 400', async () => {
    const res = await request(t.http).post('/api/v1/auth/login').set('Content-Type', 'application/json').send('[1,2]');
    expectErrorEnvelope(res, 400);
  });

  it('answers a missing token with 401 "Unauthorized."', async () => {
    expectErrorEnvelope(await request(t.http).get('/api/v1/auth/me'), 401, 'Unauthorized.');
    expectErrorEnvelope(await request(t.http).get('/api/v1/auth/me').set(bearer('pos_not-a-real-token')), 401, 'Unauthorized.');
    expectErrorEnvelope(await request(t.http).get('/api/v1/auth/me').set('Authorization', 'Basic Zm9vOmJhcg=='), 401, 'Unauthorized.');
  });

  it('answers 403 when the permission is missing', async () => {
    const res = await request(t.http).get('/api/v1/api-applications').set(bearer(cashier));
    expectErrorEnvelope(res, 403);
  });

  it('answers 422 with dotted field keys and "The given data was invalid."', async () => {
    const res = await request(t.http)
      .post('/api/v1/api-applications')
      .set(bearer(admin))
      .send({ name: 'x'.repeat(10_000), permissions: ['sales.view', 'no.such.permission'], store_ids: [1, 'two'] });
    expectErrorEnvelope(res, 422, 'The given data was invalid.');
    expect(Object.keys(res.body.errors).sort()).toEqual(['name', 'permissions', 'store_ids']);
    for (const messages of Object.values(res.body.errors as Record<string, string[]>)) {
      expect(Array.isArray(messages)).toBe(true);
      expect(typeof messages[0]).toBe('string');
    }
    const missing = await request(t.http).post('/api/v1/api-applications').set(bearer(admin)).send({});
    expect(missing.status).toBe(422);
    expect(missing.body.errors.name).toEqual(['The name field is required.']);
    expect(missing.body.errors.permissions[0]).toMatch(/permissions/);
  });

  it('wraps lists in data + meta and clamps per_page to the maximum', async () => {
    const res = await request(t.http).get('/api/v1/stores?per_page=500').set(bearer(admin));
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(Array.isArray(res.body.data)).toBe(true);
    expect(res.body.meta).toEqual({ current_page: 1, last_page: 1, per_page: 100, total: 2 });
    const page2 = await request(t.http).get('/api/v1/stores?per_page=1&page=2').set(bearer(admin));
    expect(page2.body.meta).toEqual({ current_page: 2, last_page: 2, per_page: 1, total: 2 });
    expect(page2.body.data).toHaveLength(1);
  });

  it('clamps the integration feeds at 200', async () => {
    const { token } = await integrationToken(t, ['stores.view']);
    const res = await request(t.http).get('/api/v1/integration/data/stores?per_page=1000').set(bearer(token));
    expect(res.status).toBe(200);
    expect(res.body.meta.per_page).toBe(200);
  });

  it('rejects per_page below 1 or not an integer with 422', async () => {
    for (const v of ['0', '-5', 'abc', '1.5']) {
      const res = await request(t.http).get(`/api/v1/stores?per_page=${v}`).set(bearer(admin));
      expectErrorEnvelope(res, 422);
      expect(res.body.errors.per_page).toBeDefined();
    }
  });

  it('echoes a safe X-Request-Id and makes one otherwise', async () => {
    const echoed = await request(t.http).get('/api/v1/health').set('X-Request-Id', 'abc-123');
    expect(echoed.headers['x-request-id']).toBe('abc-123');
    const made = await request(t.http).get('/api/v1/health').set('X-Request-Id', 'bad id with spaces');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reports health without a token', async () => {
    const res = await request(t.http).get('/api/v1/health');
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('ok');
    expect(res.body.data.checks.database.status).toBe('up');
    if (t.isMysql) expect(res.body.data.checks.redis.status).toBe('up');
  });

  it("serves the OpenAPI document with each route's permission", async () => {
    const res = await request(t.http).get('/api/docs-json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(res.body.paths['/api/v1/auth/login'].post['x-permission']).toBe('none (public)');
    expect(res.body.paths['/api/v1/stores'].get['x-permission']).toBe('stores.view');
    expect(res.body.paths['/api/v1/integration/data/stores'].get['x-permission']).toMatch(/integration:read/);
    const page = await request(t.http).get('/api/docs');
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/swagger/i);
  });
});
