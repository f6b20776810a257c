import request from 'supertest';
import { Secret, TOTP } from 'otpauth';
import { bearer, DEMO, expectErrorEnvelope, integrationToken, login, startTestApp, TestApp } from '../support/test-app';

/** Issue 16, "Access and authentication" (items 8, 9, 11, 12) and item 18 (store filters answer alike). */
describe('Hardening: access holes closed', () => {
  let t: TestApp;
  let admin: string;
  let cashier: string;
  const api = () => request(t.http);

  beforeAll(async () => {
    t = await startTestApp();
    admin = await login(t, DEMO.admin);
    cashier = await login(t, DEMO.cashier);
  });
  afterAll(() => t.close());

  describe('item 8: an application creates and reaches only what it could itself', () => {
    let creatorToken: string;
    let allStoresApp: number;

    beforeAll(async () => {
      // A creator limited to store 1, holding api_applications.manage and sales.view.
      const creator = await api()
        .post('/api/v1/api-applications')
        .set(bearer(admin))
        .send({ name: 'Store 1 admin app', permissions: ['api_applications.manage', 'sales.view'], store_ids: [1] });
      expect(creator.status).toBe(201);
      const tok = await api()
        .post(`/api/v1/api-applications/${creator.body.data.id}/tokens`)
        .set(bearer(admin))
        .send({ name: 'creator', abilities: ['pos', 'integration:read'] });
      creatorToken = tok.body.data.token;
      const other = await api()
        .post('/api/v1/api-applications')
        .set(bearer(admin))
        .send({ name: 'All stores', permissions: ['sales.view'] });
      allStoresApp = other.body.data.id;
    });

    it('POST /api-applications without store_ids gets the creator\'s stores, not "all"', async () => {
      const res = await api()
        .post('/api/v1/api-applications')
        .set(bearer(creatorToken))
        .send({ name: 'Child', permissions: ['sales.view'] });
      expect(res.status).toBe(201);
      expect(res.body.data.store_ids).toEqual([1]);
      // Its token reads store 1 but not store 2.
      const tok = await api()
        .post(`/api/v1/api-applications/${res.body.data.id}/tokens`)
        .set(bearer(creatorToken))
        .send({ name: 'child', abilities: ['integration:read'] });
      expect(tok.status).toBe(201);
      expectErrorEnvelope(await api().get('/api/v1/integration/sales?store_id=2').set(bearer(tok.body.data.token)), 403);
      expect((await api().get('/api/v1/integration/sales?store_id=1').set(bearer(tok.body.data.token))).status).toBe(200);
    });

    it('POST /api-applications {"store_ids":[2]} or a permission the creator lacks is 403', async () => {
      const stores = await api()
        .post('/api/v1/api-applications')
        .set(bearer(creatorToken))
        .send({ name: 'X', permissions: ['sales.view'], store_ids: [2] });
      expectErrorEnvelope(stores, 403);
      const perms = await api()
        .post('/api/v1/api-applications')
        .set(bearer(creatorToken))
        .send({ name: 'Y', permissions: ['sales.view', 'customers.view'], store_ids: [1] });
      expectErrorEnvelope(perms, 403);
      expect(perms.body.message).toMatch(/customers\.view/);
    });

    it('POST /api-applications/{other}/tokens for an application outside its scope is 404, and it is not listed', async () => {
      const res = await api()
        .post(`/api/v1/api-applications/${allStoresApp}/tokens`)
        .set(bearer(creatorToken))
        .send({ name: 'steal', abilities: ['integration:read'] });
      expectErrorEnvelope(res, 404);
      expectErrorEnvelope(await api().get(`/api/v1/api-applications/${allStoresApp}`).set(bearer(creatorToken)), 404);
      const list = await api().get('/api/v1/api-applications').set(bearer(creatorToken));
      expect(list.status).toBe(200);
      expect(list.body.data.map((a: { id: number }) => a.id)).not.toContain(allStoresApp);
      expect(list.body.meta.total).toBe(list.body.data.length);
      // The super admin still sees every application.
      const all = await api().get('/api/v1/api-applications?per_page=100').set(bearer(admin));
      expect(all.body.data.map((a: { id: number }) => a.id)).toContain(allStoresApp);
    });

    it('cannot grant a token ability its own token lacks ("*")', async () => {
      const child = await api()
        .post('/api/v1/api-applications')
        .set(bearer(creatorToken))
        .send({ name: 'Z', permissions: ['sales.view'] });
      const res = await api()
        .post(`/api/v1/api-applications/${child.body.data.id}/tokens`)
        .set(bearer(creatorToken))
        .send({ name: 'star', abilities: ['*'] });
      expectErrorEnvelope(res, 403);
    });
  });

  describe('item 9: the token is read from Authorization: Bearer only', () => {
    it('GET /auth/me?access_token=... and a body access_token are 401', async () => {
      expectErrorEnvelope(await api().get(`/api/v1/auth/me?access_token=${encodeURIComponent(cashier)}`), 401, 'Unauthorized.');
      expectErrorEnvelope(await api().post('/api/v1/auth/logout').send({ access_token: cashier }), 401, 'Unauthorized.');
      expect((await api().get('/api/v1/auth/me').set(bearer(cashier))).status).toBe(200);
      expectErrorEnvelope(await api().get('/api/v1/auth/me').set('Authorization', `Token ${cashier}`), 401);
    });
  });

  describe('item 12: two-factor', () => {
    const totp = (secret: string) => new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });

    it('POST /auth/two-factor/enable needs the password; a TOTP code is accepted once', async () => {
      const token = admin;
      expectErrorEnvelope(await api().post('/api/v1/auth/two-factor/enable').set(bearer(token)), 422);
      const wrong = await api().post('/api/v1/auth/two-factor/enable').set(bearer(token)).send({ password: 'not-it' });
      expectErrorEnvelope(wrong, 422);
      expect(wrong.body.errors.password).toBeDefined();
      const enabled = await api().post('/api/v1/auth/two-factor/enable').set(bearer(token)).send({ password: DEMO.password });
      expect(enabled.status).toBe(200);
      const code = totp(enabled.body.data.secret).generate();
      expect((await api().post('/api/v1/auth/two-factor/confirm').set(bearer(token)).send({ code })).status).toBe(200);
      // The same code again (same step): refused. Here on disable, which needs password + code.
      const replay = await api().post('/api/v1/auth/two-factor/disable').set(bearer(token)).send({ password: DEMO.password, code });
      expectErrorEnvelope(replay, 422);
      expect(replay.body.errors.code).toEqual(['The two-factor authentication code is invalid.']);
      const next = totp(enabled.body.data.secret).generate({ timestamp: Date.now() + 30_000 });
      expect((await api().post('/api/v1/auth/two-factor/disable').set(bearer(token)).send({ password: DEMO.password, code: next })).status).toBe(200);
    });
  });

  describe('item 18: a filter naming another store answers 403 everywhere', () => {
    it("GET /sales?warehouse_id=<other store's> is 403 as /inventory is", async () => {
      const [ap] = await t.db.query("SELECT id FROM warehouses WHERE code = 'AP-MAIN'");
      for (const path of ['/api/v1/inventory', '/api/v1/sales', '/api/v1/invoices', '/api/v1/inventory/movements']) {
        const res = await api().get(`${path}?warehouse_id=${ap.id}`).set(bearer(cashier));
        expectErrorEnvelope(res, 403);
      }
      const [dt] = await t.db.query("SELECT id FROM warehouses WHERE code = 'DT-MAIN'");
      expect((await api().get(`/api/v1/sales?warehouse_id=${dt.id}`).set(bearer(cashier))).status).toBe(200);
      const unknown = await api().get('/api/v1/sales?warehouse_id=99999').set(bearer(cashier));
      expectErrorEnvelope(unknown, 422);
    });

    it('the integration feeds answer alike for an application limited to store 1', async () => {
      const { token } = await integrationToken(t, ['sales.view', 'invoices.view']);
      // integrationToken makes an all-stores app; limit one to store 1 instead.
      const limited = await api()
        .post('/api/v1/api-applications')
        .set(bearer(admin))
        .send({ name: 'S1 feed', permissions: ['sales.view', 'invoices.view'], store_ids: [1] });
      const tok = await api()
        .post(`/api/v1/api-applications/${limited.body.data.id}/tokens`)
        .set(bearer(admin))
        .send({ name: 'f', abilities: ['integration:read'] });
      const [ap] = await t.db.query("SELECT id FROM warehouses WHERE code = 'AP-MAIN'");
      for (const path of ['/api/v1/integration/sales', '/api/v1/integration/data/sales', '/api/v1/integrations/data/invoices']) {
        expectErrorEnvelope(await api().get(`${path}?warehouse_id=${ap.id}`).set(bearer(tok.body.data.token)), 403);
        expect((await api().get(`${path}?warehouse_id=${ap.id}`).set(bearer(token))).status).toBe(200);
      }
    });
  });

  describe('item 11: login spraying from one IP hits a per-IP ceiling', () => {
    it('8 different emails from one IP: the 6th is 429 with Retry-After', async () => {
      // An app of its own: the ceiling counts every login from this IP (the suite's own included).
      // A low ceiling: each refused guess costs a password verification, and on a busy machine 20
      // of them could outlast the 60 s window the ceiling counts in.
      const own = await startTestApp({ RATE_LIMIT_LOGIN_IP: '5' });
      const api = () => request(own.http);
      const statuses: number[] = [];
      let last: request.Response | undefined;
      for (let i = 0; i < 8; i++) {
        last = await api()
          .post('/api/v1/auth/login')
          .send({ email: `spray-${i}@example.com`, password: 'guess' });
        statuses.push(last.status);
      }
      expect(statuses.slice(0, 5).every((s) => s === 422)).toBe(true);
      expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
      expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
      await own.close();
    });
  });
});
