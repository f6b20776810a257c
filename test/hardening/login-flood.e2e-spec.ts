import { TransactionHost } from '@nestjs-cls/transactional';
import request from 'supertest';
import { Secret, TOTP } from 'otpauth';
import { PasswordHasher } from '../../libs/identity/src/application/ports';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 25 item 1: wrong passwords must not hold database connections while argon2 runs, and
 * hash verifications are bounded process-wide. The real hasher is wrapped by a gate that holds
 * every verification until the test releases it, so "while the logins are verifying" is a state
 * the test controls, not a moment it hopes to hit; each verification records whether a
 * transaction (and so a pooled connection, or SQLite's single transaction slot) was held.
 */
const totp = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
const POOL_SIZE = 4;
const CONCURRENCY = 3;
const QUEUE = 5;

interface Seen {
  inTransaction: boolean;
}

interface MysqlPoolInternals {
  _allConnections: { length: number };
  _freeConnections: { length: number };
  _connectionQueue: { length: number };
}

describe('Wrong-password floods and the database pool (issue 25 item 1)', () => {
  let t: TestApp;
  let hasher: PasswordHasher;
  let realVerify: PasswordHasher['verify'];
  let seen: Seen[] = [];
  let inside = 0;
  let mostInside = 0;
  let release: () => void = () => undefined;

  beforeAll(async () => {
    t = await startTestApp({
      DB_POOL_SIZE: String(POOL_SIZE),
      // A request that cannot get a connection fails within this instead of hanging the suite.
      DB_ACQUIRE_TIMEOUT_MS: '3000',
      PASSWORD_VERIFY_CONCURRENCY: String(CONCURRENCY),
      PASSWORD_VERIFY_QUEUE: String(QUEUE),
    });
    hasher = t.app.get(PasswordHasher, { strict: false });
    realVerify = hasher.verify.bind(hasher);
    const txHost = t.app.get(TransactionHost, { strict: false });
    hasher.verify = async (hash, plain) => {
      seen.push({ inTransaction: txHost.isTransactionActive() });
      inside++;
      mostInside = Math.max(mostInside, inside);
      try {
        await gate;
        return await realVerify(hash, plain);
      } finally {
        inside--;
      }
    };
  });
  afterAll(async () => {
    release();
    if (hasher) hasher.verify = realVerify;
    await t?.close();
  });

  let gate: Promise<void> = Promise.resolve();
  /** From now on every verification waits until `release()`. */
  function closeGate(): void {
    seen = [];
    mostInside = 0;
    gate = new Promise<void>((r) => (release = r));
  }
  afterEach(() => release());

  /** Polls (bounded) until `ready` holds; the assertions that follow say what was missing. */
  async function until(ready: () => boolean): Promise<void> {
    for (let i = 0; i < 200 && !ready(); i++) await new Promise((r) => setTimeout(r, 25));
  }

  /** `promise`'s value if it settles while the gate is still closed (bounded wait), else 'still waiting'. */
  async function whileHeld<T>(promise: Promise<T>): Promise<T | 'still waiting'> {
    let settled: { value: T } | undefined;
    void promise.then((value) => (settled = { value }));
    await until(() => settled !== undefined);
    return settled ? settled.value : 'still waiting';
  }

  function pool(): { inUse: number; queued: number } | null {
    if (!t.isMysql) return null;
    const p = (t.db.driver as unknown as { pool: MysqlPoolInternals }).pool;
    return { inUse: p._allConnections.length - p._freeConnections.length, queued: p._connectionQueue.length };
  }

  const wrongLogin = (i: number) =>
    request(t.http)
      .post('/api/v1/auth/login')
      .send({ email: i % 2 ? DEMO.cashier : `nobody-${i}@example.com`, password: `wrong-${i}` })
      .then((r) => r);

  it('verifies wrong passwords with no connection held: the tills keep working while more logins than the pool verify', async () => {
    // Tokens obtained before the flood (their principals are not cached yet: each use reads the database).
    const meToken = await login(t, DEMO.manager);
    const spareToken = await login(t, DEMO.admin);
    const n = POOL_SIZE + CONCURRENCY + 1; // more than the pool, all within the gate's queue
    expect(n).toBeLessThanOrEqual(CONCURRENCY + QUEUE);
    closeGate();
    const logins = Array.from({ length: n }, (_, i) => wrongLogin(i));
    await until(() => seen.length >= CONCURRENCY);

    expect(seen.length).toBe(CONCURRENCY);
    expect(seen.filter((s) => s.inTransaction)).toEqual([]);
    const during = pool();
    if (during) {
      expect(during.queued).toBe(0);
      expect(during.inUse).toBeLessThan(POOL_SIZE);
    }
    // A read and a transaction both complete while every verification is still held.
    const me = await whileHeld(
      request(t.http)
        .get('/api/v1/auth/me')
        .set(bearer(meToken))
        .then((r) => r.status),
    );
    expect(me).toBe(200);
    const logout = await whileHeld(
      request(t.http)
        .post('/api/v1/auth/logout')
        .set(bearer(spareToken))
        .then((r) => r.status),
    );
    expect(logout).toBe(201);
    expect(inside).toBe(CONCURRENCY);

    release();
    const answers = await Promise.all(logins);
    expect(answers.map((r) => r.status)).toEqual(Array(n).fill(422));
    for (const r of answers) expect(r.body.errors.email).toEqual(['These credentials do not match our records.']);
    // One verification each, whether the email exists or not (the dummy hash), never more at once than configured.
    expect(seen.length).toBe(n);
    expect(mostInside).toBe(CONCURRENCY);
  });

  it('bounds verifications process-wide: past the queue a login gets 429 with Retry-After, before any database work', async () => {
    const n = CONCURRENCY + QUEUE + 4;
    closeGate();
    const settled: request.Response[] = [];
    const logins = Array.from({ length: n }, (_, i) =>
      wrongLogin(100 + i).then((r) => {
        settled.push(r);
        return r;
      }),
    );
    await until(() => seen.length >= CONCURRENCY && settled.length >= n - CONCURRENCY - QUEUE);
    expect(settled.map((r) => r.status)).toEqual(Array(n - CONCURRENCY - QUEUE).fill(429));
    for (const r of settled) {
      expect(r.body).toMatchObject({ success: false, code: 'password_checks_busy' });
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(inside).toBe(CONCURRENCY);

    release();
    const answers = await Promise.all(logins);
    expect(answers.filter((r) => r.status === 422)).toHaveLength(CONCURRENCY + QUEUE);
    expect(mostInside).toBe(CONCURRENCY);
    // The right password still logs in once the flood has passed.
    expect((await request(t.http).post('/api/v1/auth/login').send({ email: DEMO.cashier, password: DEMO.password })).status).toBe(201);
  });

  it('checks the password of two-factor enable and disable with no transaction held', async () => {
    const token = await login(t, DEMO.cashier);
    closeGate();
    const enable = request(t.http)
      .post('/api/v1/auth/two-factor/enable')
      .set(bearer(token))
      .send({ password: 'wrong' })
      .then((r) => r);
    await until(() => seen.length >= 1);
    expect(seen).toEqual([{ inTransaction: false }]);
    release();
    const refused = await enable;
    expect(refused.status).toBe(422);
    expect(refused.body.errors.password).toEqual(['The password is incorrect.']);

    // Turn it on for real (the gate is open), then try to turn it off with a wrong password behind a closed gate.
    const enabled = await request(t.http).post('/api/v1/auth/two-factor/enable').set(bearer(token)).send({ password: DEMO.password });
    expect(enabled.status).toBe(200);
    const code = (steps: number) => totp(enabled.body.data.secret).generate({ timestamp: Date.now() + steps * 30_000 });
    expect(
      (
        await request(t.http)
          .post('/api/v1/auth/two-factor/confirm')
          .set(bearer(token))
          .send({ code: code(-1) })
      ).status,
    ).toBe(200);
    closeGate();
    const disable = request(t.http)
      .post('/api/v1/auth/two-factor/disable')
      .set(bearer(token))
      .send({ password: 'wrong', code: code(0) })
      .then((r) => r);
    await until(() => seen.length >= 1);
    expect(seen).toEqual([{ inTransaction: false }]);
    release();
    const kept = await disable;
    expect(kept.status).toBe(422);
    expect(kept.body.errors.password).toEqual(['The password is incorrect.']);
    // The code was not spent by the refused attempt: the right password and the same code turn it off.
    const off = await request(t.http)
      .post('/api/v1/auth/two-factor/disable')
      .set(bearer(token))
      .send({ password: DEMO.password, code: code(0) });
    expect(off.status).toBe(200);
  });
});
