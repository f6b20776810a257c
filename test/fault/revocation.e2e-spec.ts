import type { Server } from 'node:http';
import { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { createApiApp } from '../../apps/api/src/bootstrap';
import { bearer, DEMO, integrationToken, login, startTestApp, TestApp, usingMysql } from '../support/test-app';
import { PrivateRedis, timed, until } from './fault-tools';

/**
 * Issue 14 item 11: two API replicas on one MySQL database and one Redis, each with its own
 * token cache. A token revoked through one is refused by the other through the revocation
 * broadcast (the contract: within about a second; the time is printed), never by its cache
 * expiring: the test's cache TTL outlasts the run, so no clock is raced.
 */
const describeMysql = usingMysql() ? describe : describe.skip;
/** Longer than any run: only the revocation broadcast can make replica B refuse a cached token. */
const CACHE_TTL_MS = 600_000;
if (!usingMysql()) console.info('revocation: skipped (needs TEST_DB=mysql: two replicas share a MySQL database and a Redis)');

describeMysql('Revocation across two replicas (MySQL + private Redis)', () => {
  const redis = new PrivateRedis(6394);
  let a: TestApp;
  let b: NestExpressApplication;
  let bHttp: Server;

  beforeAll(async () => {
    await redis.start();
    a = await startTestApp({ REDIS_URL: redis.url, AUTH_CACHE_TTL_MS: String(CACHE_TTL_MS) });
    // replica B: the same configuration, so the same database, Redis and prefixes
    b = await createApiApp(a.config, { logger: false });
    await b.init();
    bHttp = b.getHttpServer() as Server;
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await redis.stop();
  });

  async function refusedOnB(label: string, token: string, revoke: () => Promise<unknown>): Promise<void> {
    await request(bHttp).get('/api/v1/auth/me').set(bearer(token)).expect(200); // B has it cached now
    await revoke();
    const { value: res, ms } = await timed(() =>
      until(
        () => request(bHttp).get('/api/v1/auth/me').set(bearer(token)),
        (r) => r.status === 401,
        CACHE_TTL_MS,
        50,
      ),
    );
    console.info(`${label}: replica B refused the token ${ms} ms after the revocation on A (cache TTL ${CACHE_TTL_MS} ms)`);
    // B's cached entry outlives the jest backstop (10 minutes): a 401 at all means the revocation
    // reached B through the broadcast, not by its cache expiring. The time is reported, not raced.
    expect(res.status).toBe(401);
  }

  it('logout on replica A: replica B refuses the token within the bound', async () => {
    const token = await login(a, DEMO.cashier);
    await refusedOnB('logout', token, () => request(a.http).post('/api/v1/auth/logout').set(bearer(token)).expect(201));
  });

  it('an admin revoking an API token on replica A: replica B refuses it within the bound', async () => {
    const { appId, token, tokenId } = await integrationToken(a, ['reports.view'], ['*']);
    const admin = await login(a, DEMO.admin);
    await refusedOnB('admin revoke', token, () => request(a.http).delete(`/api/v1/api-applications/${appId}/tokens/${tokenId}`).set(bearer(admin)));
  });
});
