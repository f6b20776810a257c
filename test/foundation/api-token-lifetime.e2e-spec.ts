import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 25 item 10: partner (API application) tokens expired after TOKEN_TTL_MINUTES (30 days)
 * with nothing telling the partner. Policy: they live APP_TOKEN_TTL_MINUTES (365 days by default,
 * 0: never) unless the issuer names a lifetime; `expires_at` shows at issue and in the
 * application's token list; every response to such a token carries X-Token-Expires-At, and a
 * Warning header in the last APP_TOKEN_EXPIRY_WARNING_DAYS (30). Staff tokens are unchanged.
 */
const DAY_MS = 86_400_000;
const near = (iso: string, expectedMs: number) => Math.abs(new Date(iso).getTime() - expectedMs) < 10 * 60_000;

async function application(t: TestApp, admin: string, permissions = ['stores.view', 'reports.view']): Promise<number> {
  const app = await request(t.http).post('/api/v1/api-applications').set(bearer(admin)).send({ name: 'Lifetime partner', permissions });
  expect(app.status).toBe(201);
  return app.body.data.id as number;
}

const issue = (t: TestApp, admin: string, appId: number, extra: Record<string, unknown> = {}) =>
  request(t.http)
    .post(`/api/v1/api-applications/${appId}/tokens`)
    .set(bearer(admin))
    .send({ name: 'feed', abilities: ['integration:read'], ...extra });

describe('API application tokens: lifetime, expiry warning, rotation (defaults)', () => {
  let t: TestApp;
  let admin: string;
  let appId: number;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await login(t, DEMO.admin);
    appId = await application(t, admin);
  });
  afterAll(() => t.close());

  it('issues a token for 365 days by default (not TOKEN_TTL_MINUTES), shown at issue and in the token list', async () => {
    const issued = await issue(t, admin, appId);
    expect(issued.status).toBe(201);
    expect(near(issued.body.data.expires_at, Date.now() + 365 * DAY_MS)).toBe(true);
    const shown = await request(t.http).get(`/api/v1/api-applications/${appId}`).set(bearer(admin));
    expect(shown.status).toBe(200);
    expect(shown.body.data.tokens.find((k: { id: number }) => k.id === issued.body.data.id).expires_at).toBe(issued.body.data.expires_at);
    // An explicit lifetime still wins.
    const week = await issue(t, admin, appId, { expires_in_minutes: 7 * 24 * 60 });
    expect(near(week.body.data.expires_at, Date.now() + 7 * DAY_MS)).toBe(true);
  });

  it('says when the token expires on every response to it, success or error, without a warning while far off', async () => {
    const token = (await issue(t, admin, appId)).body.data;
    const ok = await request(t.http).get('/api/v1/integration/data/stores').set(bearer(token.token));
    expect(ok.status).toBe(200);
    expect(ok.headers['x-token-expires-at']).toBe(token.expires_at);
    expect(ok.headers.warning).toBeUndefined();
    const report = await request(t.http).get('/api/v1/integration/reports/overview').set(bearer(token.token));
    expect(report.status).toBe(200);
    expect(report.headers['x-token-expires-at']).toBe(token.expires_at);
    const missing = await request(t.http).get('/api/v1/integration/data/stores/999999').set(bearer(token.token));
    expectErrorEnvelope(missing, 404);
    expect(missing.headers['x-token-expires-at']).toBe(token.expires_at);
  });

  it('warns on every response within 30 days of expiry, with the way to rotate', async () => {
    const token = (await issue(t, admin, appId, { expires_in_minutes: 10 * 24 * 60 + 12 * 60 })).body.data; // 10.5 days: 10 whole days left
    for (const path of ['/api/v1/integration/data/stores', '/api/v1/integration/reports/overview', '/api/v1/integration/data/stores/999999']) {
      const res = await request(t.http).get(path).set(bearer(token.token));
      expect(res.headers['x-token-expires-at']).toBe(token.expires_at);
      expect(res.headers.warning).toBe(
        `299 - "This API token expires at ${token.expires_at} (in 10 days): issue a new token, switch to it, then revoke this one"`,
      );
    }
  });

  it('rotates without a gap: the new token works beside the old one until the old one is revoked', async () => {
    const old = (await issue(t, admin, appId, { expires_in_minutes: 60 })).body.data;
    const fresh = (await issue(t, admin, appId)).body.data;
    const before = await request(t.http).get('/api/v1/integration/data/stores').set(bearer(old.token));
    expect(before.status).toBe(200);
    expect(before.headers.warning).toMatch(/in less than a day\): issue a new token, switch to it, then revoke this one"$/);
    expect((await request(t.http).get('/api/v1/integration/data/stores').set(bearer(fresh.token))).status).toBe(200);
    expect((await request(t.http).delete(`/api/v1/api-applications/${appId}/tokens/${old.id}`).set(bearer(admin))).status).toBe(200);
    expectErrorEnvelope(await request(t.http).get('/api/v1/integration/data/stores').set(bearer(old.token)), 401);
    const after = await request(t.http).get('/api/v1/integration/data/stores').set(bearer(fresh.token));
    expect(after.status).toBe(200);
    expect(after.headers.warning).toBeUndefined();
    const list = (await request(t.http).get(`/api/v1/api-applications/${appId}`).set(bearer(admin))).body.data.tokens as {
      id: number;
      revoked_at: string | null;
    }[];
    expect(list.find((k) => k.id === old.id)!.revoked_at).not.toBeNull();
  });

  it('leaves staff tokens as they were: TOKEN_TTL_MINUTES, no expiry headers', async () => {
    const staff = await login(t, DEMO.manager);
    const me = await request(t.http).get('/api/v1/auth/me').set(bearer(staff));
    expect(me.status).toBe(200);
    expect(me.headers['x-token-expires-at']).toBeUndefined();
    const [row] = await t.db.query('SELECT expires_at FROM access_tokens ORDER BY id DESC LIMIT 1');
    const expires = row.expires_at instanceof Date ? row.expires_at : new Date(`${String(row.expires_at).replace(' ', 'T')}Z`);
    expect(near(expires.toISOString(), Date.now() + 30 * DAY_MS)).toBe(true);
  });
});

describe('API application tokens with APP_TOKEN_TTL_MINUTES=0 (never expire)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ APP_TOKEN_TTL_MINUTES: '0' });
  });
  afterAll(() => t.close());

  it('issues tokens without an expiry, says so, and sends no expiry header', async () => {
    const admin = await login(t, DEMO.admin);
    const appId = await application(t, admin);
    const issued = await issue(t, admin, appId);
    expect(issued.status).toBe(201);
    expect(issued.body.data.expires_at).toBeNull();
    const res = await request(t.http).get('/api/v1/integration/data/stores').set(bearer(issued.body.data.token));
    expect(res.status).toBe(200);
    expect(res.headers['x-token-expires-at']).toBeUndefined();
    expect(res.headers.warning).toBeUndefined();
    const shown = await request(t.http).get(`/api/v1/api-applications/${appId}`).set(bearer(admin));
    expect(shown.body.data.tokens[0].expires_at).toBeNull();
  });
});
