import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { loadConfig } from '@pos/platform';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 25 item 5: X-Forwarded-For names the client only when it comes through a proxy the
 * operator listed (TRUST_PROXY). Otherwise anyone could pick a fresh address per attempt and
 * never meet the login limits, which key on the client's address.
 */
describe('Client address behind proxies (issue 25 item 5)', () => {
  const LOGIN_PER_IP = 3;
  /** Wrong-password logins, one per email, each claiming a different forwarded address; the statuses. */
  const spoofedLogins = async (t: TestApp, count: number, forwardedFor: (i: number) => string): Promise<number[]> => {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) {
      const res = await request(t.http)
        .post('/api/v1/auth/login')
        .set('X-Forwarded-For', forwardedFor(i))
        .send({ email: `nobody-${i}@example.com`, password: 'wrong-password' });
      statuses.push(res.status);
    }
    return statuses;
  };

  describe('by default (no proxy trusted)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ RATE_LIMIT_LOGIN_IP: String(LOGIN_PER_IP) });
    });
    afterAll(() => t?.close());

    it('ignores X-Forwarded-For: logins claiming different addresses share one per-IP budget', async () => {
      const statuses = await spoofedLogins(t, LOGIN_PER_IP + 2, (i) => `203.0.113.${i + 1}`);
      expect(statuses.slice(0, LOGIN_PER_IP)).not.toContain(429);
      expect(statuses.slice(LOGIN_PER_IP)).toEqual([429, 429]);
    });
  });

  describe('with TRUST_PROXY=127.0.0.1 (the test client is that proxy)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ RATE_LIMIT_LOGIN_IP: String(LOGIN_PER_IP), TRUST_PROXY: '127.0.0.1' });
    });
    afterAll(() => t?.close());

    it('keys on the forwarded address: different clients have their own budgets, one client still has one', async () => {
      const different = await spoofedLogins(t, LOGIN_PER_IP + 2, (i) => `198.51.100.${i + 1}`);
      expect(different).not.toContain(429);
      const same = await spoofedLogins(t, LOGIN_PER_IP + 1, () => '192.0.2.7');
      expect(same.slice(0, LOGIN_PER_IP)).not.toContain(429);
      expect(same[LOGIN_PER_IP]).toBe(429);
    });
  });

  it("the compose file's environment passes the production checks (no TRUST_PROXY=true, no public /metrics without a token)", () => {
    const compose = readFileSync(join(__dirname, '../../docker/compose.yml'), 'utf8');
    const block = /^x-app-env: &app-env\n((?:[ \t]+.*\n)+)/m.exec(compose)?.[1] ?? '';
    const env: Record<string, string> = {};
    for (const [, name, raw] of block.matchAll(/^\s+([A-Z_]+):\s*(.*)$/gm)) {
      const value = raw.replace(/^'(.*)'$/, '$1');
      // ${VAR:?message} must be supplied by the operator; ${VAR:-default} falls back to its default.
      env[name] = value.startsWith('${') ? (/:-([^}]*)\}$/.exec(value)?.[1] ?? 'k'.repeat(40)) : value;
    }
    expect(env.NODE_ENV).toBe('production');
    expect(() => loadConfig(env)).not.toThrow();
    expect(loadConfig(env).trustProxy).not.toBe(true);
  });
});
