import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import request from 'supertest';
import { countQueries, QueryCounter } from '../support/query-count';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';

describe('Rate limiting (part 8)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_LOGIN: '5', RATE_LIMIT_STANDARD: '8' });
  });
  afterAll(() => t.close());

  it('gives the 6th login in a minute 429 with Retry-After, per IP and email', async () => {
    const email = `nobody-${randomBytes(4).toString('hex')}@example.com`;
    for (let i = 1; i <= 5; i++) {
      const res = await request(t.http).post('/api/v1/auth/login').send({ email, password: 'wrong' });
      expect(res.status).toBe(422);
      expect(res.headers['x-ratelimit-limit']).toBe('5');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(5 - i));
    }
    const sixth = await request(t.http).post('/api/v1/auth/login').send({ email, password: 'wrong' });
    expectErrorEnvelope(sixth, 429);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(sixth.headers['retry-after'])).toBeLessThanOrEqual(60);
    // another email from the same IP still gets its own allowance
    const other = await request(t.http)
      .post('/api/v1/auth/login')
      .send({ email: `x-${email}`, password: 'wrong' });
    expect(other.status).toBe(422);
  });

  it('limits the standard tier per token and sets the headers on every response', async () => {
    const token = await login(t, DEMO.cashier);
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) {
      const res = await request(t.http).get('/api/v1/auth/me').set(bearer(token));
      statuses.push(res.status);
      expect(res.headers['x-ratelimit-limit']).toBe('8');
      expect(res.headers['x-ratelimit-remaining']).toBeDefined();
    }
    expect(statuses.slice(0, 8).every((s) => s === 200)).toBe(true);
    expect(statuses[8]).toBe(429);
    // a different token has its own counter
    const other = await login(t, DEMO.manager);
    expect((await request(t.http).get('/api/v1/auth/me').set(bearer(other))).status).toBe(200);
  });
});

/**
 * Issue 25 item 2: made-up bearer tokens were never rate-limited (each got a fresh bucket keyed
 * on itself) and each cost a database lookup. Failures are now counted per client IP
 * (RATE_LIMIT_AUTH_FAILURES), a client past its budget is refused before any lookup, a token
 * known not to resolve is remembered briefly, and valid tokens from the same IP keep working.
 */
describe('Rate limiting of failed authentications per IP (issue 25 item 2)', () => {
  const BUDGET = 10;
  let t: TestApp;
  let queries: QueryCounter;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_AUTH_FAILURES: String(BUDGET), RATE_LIMIT_STANDARD: '1000' });
    queries = countQueries(t.db);
  });
  afterAll(async () => {
    queries.stop();
    await t.close();
  });

  const randomToken = () => `pos_${randomBytes(30).toString('base64url')}`;
  const tokenLookups = () => queries.statements.filter((q) => /access_tokens/.test(q)).length;
  const rateLimitKeys = async (): Promise<number | null> => {
    if (t.config.redis?.mode !== 'standalone') return null;
    const redis = new Redis(t.config.redis.url, { lazyConnect: true });
    try {
      await redis.connect();
      return (await redis.keys(`${t.config.rateLimit.keyPrefix}:*`)).length;
    } finally {
      redis.disconnect();
    }
  };

  it('answers 80 random tokens from one IP with 401 up to the budget, then 429 with Retry-After, with a bounded number of lookups', async () => {
    const valid = await login(t, DEMO.cashier);
    expect((await request(t.http).get('/api/v1/auth/me').set(bearer(valid))).status).toBe(200);
    const keysBefore = await rateLimitKeys();
    queries.reset();

    const answers: request.Response[] = [];
    for (let i = 0; i < 80; i++) answers.push(await request(t.http).get('/api/v1/auth/me').set(bearer(randomToken())));

    expect(answers.slice(0, BUDGET).map((r) => r.status)).toEqual(Array(BUDGET).fill(401));
    expect(answers.slice(BUDGET).map((r) => r.status)).toEqual(Array(80 - BUDGET).fill(429));
    for (const [i, r] of answers.entries()) {
      expect(r.headers['x-ratelimit-limit']).toBe(String(BUDGET));
      expect(r.headers['x-ratelimit-remaining']).toBe(String(Math.max(0, BUDGET - i - 1)));
    }
    for (const r of answers.slice(BUDGET)) {
      expectErrorEnvelope(r, 429);
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(r.headers['retry-after'])).toBeLessThanOrEqual(60);
    }
    // Each failure within the budget was looked up once, and the one that crossed it; none after.
    expect(tokenLookups()).toBeLessThanOrEqual(BUDGET + 1);
    // No rate-limit key per made-up token (Redis): one failure counter for the IP.
    const keysAfter = await rateLimitKeys();
    if (keysBefore !== null && keysAfter !== null) expect(keysAfter - keysBefore).toBeLessThanOrEqual(1);

    // Only the failures are limited: terminals behind the same address keep working, with the
    // token they had and with one logged in meanwhile; a request with no token is a failure.
    expect((await request(t.http).get('/api/v1/auth/me').set(bearer(valid))).status).toBe(200);
    const fresh = await login(t, DEMO.manager);
    expect((await request(t.http).get('/api/v1/auth/me').set(bearer(fresh))).status).toBe(200);
    expectErrorEnvelope(await request(t.http).get('/api/v1/auth/me'), 429);
  });
});

describe('Negative token lookups are cached briefly (issue 25 item 2)', () => {
  let t: TestApp;
  let queries: QueryCounter;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_AUTH_FAILURES: '1000' });
    queries = countQueries(t.db);
  });
  afterAll(async () => {
    queries.stop();
    await t.close();
  });

  const tokenLookups = () => queries.statements.filter((q) => /access_tokens/.test(q)).length;

  it('looks a repeated unknown or revoked token up once', async () => {
    const unknown = `pos_${randomBytes(30).toString('base64url')}`;
    queries.reset();
    for (let i = 0; i < 20; i++) expectErrorEnvelope(await request(t.http).get('/api/v1/auth/me').set(bearer(unknown)), 401);
    expect(tokenLookups()).toBe(1);

    const token = await login(t, DEMO.cashier);
    expect((await request(t.http).post('/api/v1/auth/logout').set(bearer(token))).status).toBe(201);
    queries.reset();
    for (let i = 0; i < 20; i++) expectErrorEnvelope(await request(t.http).get('/api/v1/auth/me').set(bearer(token)), 401);
    expect(tokenLookups()).toBeLessThanOrEqual(1);
  });
});
