import request from 'supertest';
import { startTestApp, TestApp } from '../support/test-app';

/** Issue 26 item 4: a back office in a browser (CORS_ORIGINS) can send If-Match / If-None-Match and read the ETag. */
describe('Conditional requests through CORS', () => {
  let c: TestApp;
  beforeAll(async () => {
    c = await startTestApp({ CORS_ORIGINS: 'https://backoffice.example.com' });
  });
  afterAll(() => c.close());

  it('preflight allows If-Match and If-None-Match; answers expose ETag', async () => {
    const preflight = await request(c.http)
      .options('/api/v1/items/1')
      .set('Origin', 'https://backoffice.example.com')
      .set('Access-Control-Request-Method', 'PUT')
      .set('Access-Control-Request-Headers', 'authorization, content-type, if-match, if-none-match');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toMatch(/(^|, *)If-Match(,|$)/i);
    expect(preflight.headers['access-control-allow-headers']).toMatch(/(^|, *)If-None-Match(,|$)/i);
    const answer = await request(c.http).get('/api/v1/health/live').set('Origin', 'https://backoffice.example.com');
    expect(answer.headers['access-control-expose-headers']).toMatch(/(^|, *)ETag(,|$)/i);
  });
});
