import { randomBytes } from 'node:crypto';
import request from 'supertest';
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
