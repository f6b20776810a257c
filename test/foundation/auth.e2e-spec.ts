import request from 'supertest';
import { TOTP, Secret } from 'otpauth';
import { bearer, DEMO, expectErrorEnvelope, integrationToken, login, startTestApp, TestApp } from '../support/test-app';

const totp = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });

describe('Authentication and access', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('logs in with 201 and the fields of part 2.3', async () => {
    const res = await request(t.http).post('/api/v1/auth/login').send({ email: DEMO.cashier, password: DEMO.password });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    const d = res.body.data;
    expect(typeof d.token).toBe('string');
    expect(d.token.length).toBeGreaterThanOrEqual(40);
    expect(d.user).toMatchObject({
      name: 'Cass Cashier',
      email: DEMO.cashier,
      role: { name: 'Cashier', slug: 'cashier' },
      store_name: 'Downtown Store',
      is_super_admin: false,
      has_two_factor: false,
    });
    expect(Number.isInteger(d.user.id)).toBe(true);
    expect(Number.isInteger(d.user.role.id)).toBe(true);
    expect(d.user.store_id).toBe(d.store_id);
    expect(d.permissions).toEqual(expect.arrayContaining(['pos.access', 'sales.create', 'sales.view', 'customers.view']));
    const [row] = await t.db.query('SELECT name, abilities, token_hash FROM access_tokens ORDER BY id DESC LIMIT 1');
    expect(row.name).toBe('Mobile POS');
    expect(JSON.parse(row.abilities)).toEqual(['*']);
    expect(row.token_hash).not.toBe(d.token);
    expect(row.token_hash).toHaveLength(64);
  });

  it('keeps the device name and honours an assigned preferred store', async () => {
    const stores = await t.db.query('SELECT id, code FROM stores ORDER BY id');
    const ap = stores.find((s: { code: string }) => s.code === 'AP').id;
    const res = await request(t.http).post('/api/v1/auth/login').send({ email: DEMO.manager, password: DEMO.password, device_name: 'Till 3', store_id: ap });
    expect(res.status).toBe(201);
    expect(res.body.data.store_id).toBe(ap);
    expect(res.body.data.user.store_name).toBe('Airport Store');
    const me = await request(t.http).get('/api/v1/auth/me').set(bearer(res.body.data.token));
    expect(me.body.data.store_id).toBe(ap);
  });

  it('refuses a store the user is not assigned (422 errors.store_id)', async () => {
    const [ap] = await t.db.query("SELECT id FROM stores WHERE code = 'AP'");
    const res = await request(t.http).post('/api/v1/auth/login').send({ email: DEMO.cashier, password: DEMO.password, store_id: ap.id });
    expectErrorEnvelope(res, 422, 'The given data was invalid.');
    expect(res.body.errors.store_id).toHaveLength(1);
    const unknown = await request(t.http).post('/api/v1/auth/login').send({ email: DEMO.cashier, password: DEMO.password, store_id: 424242 });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.store_id).toBeDefined();
  });

  it('answers wrong credentials with 422 errors.email, the same for unknown users', async () => {
    for (const body of [
      { email: DEMO.cashier, password: 'wrong' },
      { email: 'nobody@example.com', password: 'password' },
    ]) {
      const res = await request(t.http).post('/api/v1/auth/login').send(body);
      expectErrorEnvelope(res, 422, 'The given data was invalid.');
      expect(res.body.errors.email).toEqual(['These credentials do not match our records.']);
    }
  });

  it('validates the login body (422 naming each field)', async () => {
    const res = await request(t.http).post('/api/v1/auth/login').send({ email: 12, store_id: 'x' });
    expect(res.status).toBe(422);
    expect(res.body.errors.password).toEqual(['The password field is required.']);
    expect(res.body.errors.email).toBeDefined();
    expect(res.body.errors.store_id).toBeDefined();
  });

  it('returns /auth/me per part 2.4 with discount limits as numbers', async () => {
    const token = await login(t, DEMO.cashier);
    const res = await request(t.http).get('/api/v1/auth/me').set(bearer(token));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'Cass Cashier',
      email: DEMO.cashier,
      role: { name: 'Cashier' },
      discount_limits: { max_discount_percent: 10, max_discount_amount: 20 },
    });
    expect(Object.keys(res.body.data).sort()).toEqual(['discount_limits', 'email', 'id', 'name', 'permissions', 'role', 'store_id']);
  });

  it('logs out with 201 and the token stops working (401)', async () => {
    const token = await login(t, DEMO.cashier);
    expect((await request(t.http).get('/api/v1/auth/me').set(bearer(token))).status).toBe(200);
    const out = await request(t.http).post('/api/v1/auth/logout').set(bearer(token));
    expect(out.status).toBe(201);
    expect(typeof out.body.data.message).toBe('string');
    expectErrorEnvelope(await request(t.http).get('/api/v1/auth/me').set(bearer(token)), 401, 'Unauthorized.');
  });

  it('rejects an expired token with 401', async () => {
    const token = await login(t, DEMO.manager);
    await t.db.query('UPDATE access_tokens SET expires_at = ? WHERE id = (SELECT id FROM (SELECT MAX(id) AS id FROM access_tokens) x)', [
      '2020-01-01 00:00:00',
    ]);
    expectErrorEnvelope(await request(t.http).get('/api/v1/auth/me').set(bearer(token)), 401, 'Unauthorized.');
  });

  it('keeps integration tokens out of POS routes and staff tokens out of integration routes', async () => {
    const { token: integration } = await integrationToken(t, ['stores.view', 'sales.view']);
    expectErrorEnvelope(await request(t.http).get('/api/v1/auth/me').set(bearer(integration)), 403);
    expectErrorEnvelope(await request(t.http).get('/api/v1/stores').set(bearer(integration)), 403);
    const ok = await request(t.http).get('/api/v1/integration/data/stores').set(bearer(integration));
    expect(ok.status).toBe(200);
    const alias = await request(t.http).get('/api/v1/integrations/data/stores').set(bearer(integration));
    expect(alias.status).toBe(200);
    expect(alias.body.data).toEqual(ok.body.data);

    const admin = await login(t, DEMO.admin);
    expectErrorEnvelope(await request(t.http).get('/api/v1/integration/data/stores').set(bearer(admin)), 403);
  });

  it('needs the feed permission and the integration:read ability on integration routes', async () => {
    const { token: noPerm } = await integrationToken(t, ['items.view']);
    expectErrorEnvelope(await request(t.http).get('/api/v1/integration/data/stores').set(bearer(noPerm)), 403);
    const { token: noAbility } = await integrationToken(t, ['stores.view'], ['pos']);
    expectErrorEnvelope(await request(t.http).get('/api/v1/integration/data/stores').set(bearer(noAbility)), 403);
  });

  it('lets an administrator revoke an application token', async () => {
    const { appId, token, tokenId } = await integrationToken(t, ['stores.view']);
    expect((await request(t.http).get('/api/v1/integration/data/stores').set(bearer(token))).status).toBe(200);
    const admin = await login(t, DEMO.admin);
    const shown = await request(t.http).get(`/api/v1/api-applications/${appId}`).set(bearer(admin));
    expect(shown.body.data.tokens[0]).toMatchObject({ id: tokenId, abilities: ['integration:read'], revoked_at: null });
    expect(JSON.stringify(shown.body)).not.toContain(token);
    const del = await request(t.http).delete(`/api/v1/api-applications/${appId}/tokens/${tokenId}`).set(bearer(admin));
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true, message: 'Token revoked.' });
    expectErrorEnvelope(await request(t.http).get('/api/v1/integration/data/stores').set(bearer(token)), 401);
    expectErrorEnvelope(await request(t.http).delete(`/api/v1/api-applications/${appId}/tokens/999999`).set(bearer(admin)), 404);
    expectErrorEnvelope(
      await request(t.http)
        .post('/api/v1/api-applications/999999/tokens')
        .set(bearer(admin))
        .send({ name: 'x', abilities: ['integration:read'] }),
      404,
    );
  });

  it('does not let an API application log in with a password', async () => {
    const { appId } = await integrationToken(t, ['stores.view']);
    const [row] = await t.db.query('SELECT email FROM users WHERE id = ?', [appId]);
    const res = await request(t.http).post('/api/v1/auth/login').send({ email: row.email, password: 'password' });
    expect(res.status).toBe(422);
    expect(res.body.errors.email).toBeDefined();
  });

  it('runs the two-factor flow: enable, confirm, required at login, wrong code, disable', async () => {
    // Each code is accepted once (no replay within its step): use the previous, current and next step in turn.
    const at = (steps: number) => ({ timestamp: Date.now() + steps * 30_000 });
    const token = await login(t, DEMO.manager);
    const enabled = await request(t.http).post('/api/v1/auth/two-factor/enable').set(bearer(token)).send({ password: DEMO.password });
    expect(enabled.status).toBe(200);
    const secret: string = enabled.body.data.secret;
    expect(enabled.body.data.otpauth_url).toMatch(/^otpauth:\/\/totp\//);

    // not active until confirmed
    expect((await request(t.http).post('/api/v1/auth/login').send({ email: DEMO.manager, password: DEMO.password })).status).toBe(201);
    expect((await request(t.http).post('/api/v1/auth/two-factor/confirm').set(bearer(token)).send({ code: '000000' })).status).toBe(422);
    const confirmed = await request(t.http)
      .post('/api/v1/auth/two-factor/confirm')
      .set(bearer(token))
      .send({ code: totp(secret).generate(at(-1)) });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data.has_two_factor).toBe(true);

    const without = await request(t.http).post('/api/v1/auth/login').send({ email: DEMO.manager, password: DEMO.password });
    expectErrorEnvelope(without, 422, 'The given data was invalid.');
    expect(without.body.errors.two_factor_code).toHaveLength(1);
    const wrong = await request(t.http).post('/api/v1/auth/login').send({ email: DEMO.manager, password: DEMO.password, two_factor_code: '000000' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.two_factor_code).toHaveLength(1);
    const right = await request(t.http)
      .post('/api/v1/auth/login')
      .send({ email: DEMO.manager, password: DEMO.password, two_factor_code: totp(secret).generate(at(0)) });
    expect(right.status).toBe(201);
    expect(right.body.data.user.has_two_factor).toBe(true);

    const [stored] = await t.db.query('SELECT two_factor_secret FROM users WHERE email = ?', [DEMO.manager]);
    expect(stored.two_factor_secret).not.toContain(secret);

    expect(
      (
        await request(t.http)
          .post('/api/v1/auth/two-factor/disable')
          .set(bearer(token))
          .send({ password: 'nope', code: totp(secret).generate(at(1)) })
      ).status,
    ).toBe(422);
    const off = await request(t.http)
      .post('/api/v1/auth/two-factor/disable')
      .set(bearer(token))
      .send({ password: DEMO.password, code: totp(secret).generate(at(1)) });
    expect(off.status).toBe(200);
    expect((await request(t.http).post('/api/v1/auth/login').send({ email: DEMO.manager, password: DEMO.password })).status).toBe(201);
  });
});
