import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import request from 'supertest';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';

/** One GET with raw bytes (no client-side decompression), so the encoding on the wire is visible. */
function rawGet(server: http.Server, path: string, headers: Record<string, string>): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  const port = (server.address() as AddressInfo).port;
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
  });
}

/** Issue 13, HTTP hygiene: helmet headers with a CSP per kind of answer, gzip above ~1 KB (never twice), CORS by allow-list. */
describe('HTTP hygiene: security headers, compression, CORS', () => {
  let t: TestApp;
  let admin: string;
  let server: http.Server;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await login(t, DEMO.admin);
    server = t.http;
    if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => t.close());

  it('sends helmet headers; JSON answers allow nothing, the pages only their own scripts', async () => {
    const res = await request(t.http).get('/api/v1/auth/me').set(bearer(admin));
    expect(res.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none';frame-ancestors 'none'",
    });
    expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(res.headers['x-powered-by']).toBeUndefined();
    // headers that only concern an HTML document go on pages, not on JSON answers
    const documentOnly = ['x-dns-prefetch-control', 'x-download-options', 'x-permitted-cross-domain-policies', 'x-xss-protection', 'origin-agent-cluster'];
    for (const h of documentOnly) expect(res.headers[h]).toBeUndefined();
    const docs = await request(t.http).get('/api/docs');
    for (const h of documentOnly) expect(docs.headers[h]).toBeDefined();
    for (const path of ['/api/docs', '/dashboard/']) {
      const page = await request(t.http).get(path);
      const csp = page.headers['content-security-policy'];
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    }
  });

  it('gzips JSON above 1 KB when accepted, leaves small answers and other encodings alone', async () => {
    const big = await rawGet(server, '/api/v1/items?per_page=50', { authorization: `Bearer ${admin}`, 'accept-encoding': 'gzip' });
    expect(big.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(big.body).toString('utf8')).success).toBe(true);
    const plain = await rawGet(server, '/api/v1/items?per_page=50', { authorization: `Bearer ${admin}` });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(big.body.length).toBeLessThan(plain.body.length);
    const small = await rawGet(server, '/api/v1/health/live', { 'accept-encoding': 'gzip' });
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('compresses a sync page once: one gunzip gives the JSON', async () => {
    const cashier = await login(t, DEMO.cashier);
    const res = await rawGet(server, '/api/v1/sync/initial?store_id=1&limit=200', { authorization: `Bearer ${cashier}`, 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    const body = JSON.parse(gunzipSync(res.body).toString('utf8'));
    expect(body.success).toBe(true);
  });

  it('answers no CORS headers by default', async () => {
    const res = await request(t.http).get('/api/v1/health/live').set('Origin', 'https://shop.example.com');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await request(t.http)
      .options('/api/v1/stores')
      .set('Origin', 'https://shop.example.com')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization');
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  describe('with CORS_ORIGINS', () => {
    let c: TestApp;
    beforeAll(async () => {
      c = await startTestApp({ CORS_ORIGINS: 'https://shop.example.com, http://localhost:5173' });
    });
    afterAll(() => c.close());

    it('allows the listed origins only, preflight included', async () => {
      const allowed = await request(c.http).get('/api/v1/health/live').set('Origin', 'https://shop.example.com');
      expect(allowed.headers['access-control-allow-origin']).toBe('https://shop.example.com');
      expect(allowed.headers['access-control-expose-headers']).toContain('X-Request-Id');
      expect(allowed.headers['access-control-allow-credentials']).toBeUndefined();
      const other = await request(c.http).get('/api/v1/health/live').set('Origin', 'https://evil.example.net');
      expect(other.headers['access-control-allow-origin']).toBeUndefined();

      const preflight = await request(c.http)
        .options('/api/v1/stores')
        .set('Origin', 'http://localhost:5173')
        .set('Access-Control-Request-Method', 'GET')
        .set('Access-Control-Request-Headers', 'authorization');
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('http://localhost:5173');
      expect(preflight.headers['access-control-allow-headers']).toMatch(/Authorization/i);
      expect(preflight.headers['access-control-allow-methods']).toContain('GET');
    });
  });
});
