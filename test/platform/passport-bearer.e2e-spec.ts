import { AuthGuard } from '@nestjs/passport';
import passport from 'passport';
import request from 'supertest';
import { TokenService } from '@pos/identity';
import { BearerStrategy, CredentialView } from '../../apps/api/src/access/bearer.strategy';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';

type Passport = typeof passport & { _strategy(name: string): unknown };

const globalGuards = (t: TestApp): object[] => (t.app as unknown as { config: { getGlobalGuards(): object[] } }).config.getGlobalGuards();

describe('Authentication runs on @nestjs/passport (issue 29)', () => {
  let t: TestApp;
  let validate: jest.SpyInstance;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_AUTH_FAILURES: '50' });
    validate = jest.spyOn(BearerStrategy.prototype, 'validate');
  });
  afterEach(() => validate.mockClear());
  afterAll(async () => {
    validate.mockRestore();
    await t.close();
  });

  it('registers the bearer strategy with passport under "bearer", and the global guard is AuthGuard("bearer")', () => {
    expect((passport as Passport)._strategy('bearer')).toBeInstanceOf(BearerStrategy);
    expect(globalGuards(t)).toHaveLength(1);
    expect(globalGuards(t)[0]).toBeInstanceOf(AuthGuard('bearer'));
  });

  it('a request authenticates through the strategy: validate is shown the Authorization header only', async () => {
    const token = await login(t, DEMO.cashier);
    const res = await request(t.http).get('/api/v1/auth/me?access_token=ignored&x=1').set(bearer(token));
    expect(res.status).toBe(200);
    expect(res.body.data.email).toBe(DEMO.cashier);
    expect(validate).toHaveBeenCalledTimes(1);
    const [view, presented] = validate.mock.calls[0] as [CredentialView, string];
    expect(presented).toBe(token);
    expect(view).toBeInstanceOf(CredentialView);
    expect(view.headers).toEqual({ authorization: `Bearer ${token}` });
    expect(view).not.toHaveProperty('query');
    expect(view).not.toHaveProperty('body');
  });

  it('?access_token= and a body access_token do not authenticate (401, counted, never validated)', async () => {
    const token = await login(t, DEMO.manager);
    const query = await request(t.http).get(`/api/v1/auth/me?access_token=${encodeURIComponent(token)}`);
    expectErrorEnvelope(query, 401, 'Unauthorized.');
    const body = await request(t.http).post('/api/v1/auth/logout').send({ access_token: token });
    expectErrorEnvelope(body, 401, 'Unauthorized.');
    // Each failure is counted against the client's budget (the failure limiter's headers).
    expect(query.headers['x-ratelimit-limit']).toBe('50');
    expect(Number(body.headers['x-ratelimit-remaining'])).toBe(Number(query.headers['x-ratelimit-remaining']) - 1);
    expect(validate).not.toHaveBeenCalled();
    // The token itself was fine: it still works from the header (the logout above did not happen).
    expect((await request(t.http).get('/api/v1/auth/me').set(bearer(token))).status).toBe(200);
  });

  it('an unknown token is validated, refused with 401 and counted', async () => {
    const res = await request(t.http).get('/api/v1/auth/me').set(bearer('made-up-token-0123456789'));
    expectErrorEnvelope(res, 401, 'Unauthorized.');
    expect(res.headers['x-ratelimit-limit']).toBe('50');
    expect(validate).toHaveBeenCalledTimes(1);
  });

  it('with two applications in one process, each one\'s requests go to its own token service (passport keeps one "bearer")', async () => {
    const other = await startTestApp();
    try {
      // `other` registered its strategy last: a request to `t` is still resolved by t's services.
      const mine = jest.spyOn(t.app.get(TokenService), 'authenticateHash');
      const theirs = jest.spyOn(other.app.get(TokenService), 'authenticateHash');
      // (Only the strategy's own services are asserted: the data layer's transaction context is
      // process-wide too, so the first application's lookup may read the other's database.)
      await request(t.http)
        .get('/api/v1/auth/me')
        .set(bearer(await login(t, DEMO.admin)));
      expect(mine).toHaveBeenCalledTimes(1);
      expect(theirs).not.toHaveBeenCalled();
      const otherToken = await login(other, DEMO.cashier);
      expect((await request(other.http).get('/api/v1/auth/me').set(bearer(otherToken))).status).toBe(200);
      expect(theirs).toHaveBeenCalledTimes(1);
      expect(mine).toHaveBeenCalledTimes(1);
    } finally {
      await other.close();
    }
  });
});
