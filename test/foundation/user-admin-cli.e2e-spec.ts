import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Secret, TOTP } from 'otpauth';
import request from 'supertest';
import { Clock } from '@pos/kernel';
import { CliModule } from '../../apps/cli/src/cli.module';
import { runCommand } from '../../apps/cli/src/commands';
import { describeRefusal } from '../../apps/cli/src/cli/run';
import { ALL_FEATURES } from '../../apps/cli/src/runtime/full';
import { bearer, DEMO, integrationToken, login, startTestApp, TestApp, usingMysql } from '../support/test-app';

const totp = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });

/**
 * The operator's user commands, run as the CLI runs them: in a Nest context of their own (another
 * process in production), so the API learns of a change only through the database (and Redis, when
 * configured). The API keeps its auth cache (AUTH_CACHE_TTL_MS, 5 s): a revoked token must be
 * refused at the latest when its cache entry ends, which the test reaches by moving the API's clock.
 */
describe('user administration from the CLI', () => {
  let t: TestApp;
  let cli: INestApplicationContext;
  const dir = mkdtempSync(join(tmpdir(), 'pos-user-cli-'));
  const api = () => request(t.http);
  let seq = 0;

  beforeAll(async () => {
    t = await startTestApp(usingMysql() ? {} : { DB_SQLITE_PATH: join(dir, 'pos.sqlite') });
    cli = await NestFactory.createApplicationContext(CliModule.register(t.config, ALL_FEATURES), { logger: false });
  });
  afterAll(async () => {
    await cli?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A new cashier of its own per test (so tests do not share tokens), and its email. */
  async function newUser(password = 'first-pass-1'): Promise<string> {
    const email = `staff${++seq}@example.com`;
    await runCommand(cli, 'user:create', { email, name: `Staff ${seq}`, password, role: 'cashier', stores: '1' });
    return email;
  }

  async function loginAs(email: string, password = 'first-pass-1', extra: Record<string, unknown> = {}): Promise<string> {
    const res = await api()
      .post('/api/v1/auth/login')
      .send({ email, password, ...extra });
    expect(res.status).toBe(201);
    return res.body.data.token as string;
  }

  /** GET /auth/me once the API's cache entries made before now have ended (its clock moved past AUTH_CACHE_TTL_MS). */
  async function meAfterCache(token: string): Promise<number> {
    const clock = t.app.get(Clock);
    const later = new Date(clock.now().getTime() + t.config.authCacheTtlMs + 1000);
    const spy = jest.spyOn(clock, 'now').mockImplementation(() => later);
    try {
      return (await api().get('/api/v1/auth/me').set(bearer(token))).status;
    } finally {
      spy.mockRestore();
    }
  }

  const audits = async (action: string, targetId: number) =>
    Number((await t.db.query('SELECT COUNT(*) AS n FROM audit_log WHERE action = ? AND target_id = ?', [action, String(targetId)]))[0].n);
  const userId = async (email: string) => Number((await t.db.query('SELECT id FROM users WHERE email = ?', [email]))[0].id);

  it('user:reset-password revokes every token of the user', async () => {
    const email = await newUser();
    const till = await loginAs(email);
    const phone = await loginAs(email);
    expect((await api().get('/api/v1/auth/me').set(bearer(till))).status).toBe(200); // now in the API's cache
    const out = await runCommand(cli, 'user:reset-password', { email, password: 'second-pass-2' });
    expect(out).toEqual({ reset: true, tokens_revoked: 2 });
    expect(await meAfterCache(till)).toBe(401);
    expect(await meAfterCache(phone)).toBe(401);
    expect((await api().post('/api/v1/auth/login').send({ email, password: 'first-pass-1' })).status).toBe(422);
    const fresh = await loginAs(email, 'second-pass-2');
    expect(await meAfterCache(fresh)).toBe(200);
    expect(await audits('user.password_reset', await userId(email))).toBe(1);
  });

  it('user:revoke-tokens signs a user out everywhere; they log in again', async () => {
    const email = await newUser();
    const tills = [await loginAs(email), await loginAs(email)];
    expect(await runCommand(cli, 'user:revoke-tokens', { email })).toEqual({ tokens_revoked: 2 });
    for (const token of tills) expect(await meAfterCache(token)).toBe(401);
    // Nothing left to revoke: nothing changes, nothing more is audited.
    expect(await runCommand(cli, 'user:revoke-tokens', { email })).toEqual({ tokens_revoked: 0 });
    expect(await audits('user.tokens_revoked', await userId(email))).toBe(1);
    expect(await meAfterCache(await loginAs(email))).toBe(200);
  });

  it('user:deactivate refuses logins and revokes the tokens; user:activate lets the user log in again', async () => {
    const email = await newUser();
    const till = await loginAs(email);
    expect(await runCommand(cli, 'user:deactivate', { email })).toEqual({ is_active: false, tokens_revoked: 1 });
    expect(await meAfterCache(till)).toBe(401);
    const refused = await api().post('/api/v1/auth/login').send({ email, password: 'first-pass-1' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.email).toBeDefined();
    expect(await runCommand(cli, 'user:deactivate', { email })).toEqual({ is_active: false, tokens_revoked: 0 });
    expect(await audits('user.deactivated', await userId(email))).toBe(1);

    expect(await runCommand(cli, 'user:activate', { email })).toEqual({ is_active: true, tokens_revoked: 0 });
    expect(await meAfterCache(till)).toBe(401); // the old token stays revoked
    expect(await meAfterCache(await loginAs(email))).toBe(200);
    expect(await audits('user.activated', await userId(email))).toBe(1);
  });

  it('user:reset-2fa turns two-factor off so a user who lost the phone logs in and enrols again', async () => {
    const email = await newUser();
    const token = await loginAs(email);
    const enabled = await api().post('/api/v1/auth/two-factor/enable').set(bearer(token)).send({ password: 'first-pass-1' });
    expect(enabled.status).toBe(200);
    expect(
      (
        await api()
          .post('/api/v1/auth/two-factor/confirm')
          .set(bearer(token))
          .send({ code: totp(enabled.body.data.secret).generate() })
      ).status,
    ).toBe(200);
    expect((await api().post('/api/v1/auth/login').send({ email, password: 'first-pass-1' })).body.errors.two_factor_code).toBeDefined();

    expect(await runCommand(cli, 'user:reset-2fa', { email })).toEqual({ has_two_factor: false });
    const again = await api().post('/api/v1/auth/login').send({ email, password: 'first-pass-1' });
    expect(again.status).toBe(201);
    expect(again.body.data.user.has_two_factor).toBe(false);
    expect((await api().post('/api/v1/auth/two-factor/enable').set(bearer(again.body.data.token)).send({ password: 'first-pass-1' })).status).toBe(200);
    expect(await audits('two_factor.reset', await userId(email))).toBe(1);
    // A user without two-factor (the enrolment above is pending, not confirmed, so reset it first): refused, exit 65.
    await runCommand(cli, 'user:reset-2fa', { email });
    const refused = await runCommand(cli, 'user:reset-2fa', { email }).catch((e: unknown) => e);
    expect(describeRefusal(refused)).toEqual({ message: 'Two-factor authentication is not enabled.', code: 65 });
  });

  it('refuses an unknown user and an API application (exit 65), changing nothing', async () => {
    const { appId, token } = await integrationToken(t, ['stores.view']);
    const [app] = await t.db.query('SELECT email FROM users WHERE id = ?', [appId]);
    for (const command of ['user:deactivate', 'user:activate', 'user:revoke-tokens', 'user:reset-2fa']) {
      for (const email of ['nobody@example.com', app.email as string]) {
        const refused = await runCommand(cli, command, { email }).catch((e: unknown) => e);
        expect(describeRefusal(refused)?.code).toBe(65);
      }
    }
    expect((await api().get('/api/v1/integration/data/stores').set(bearer(token))).status).toBe(200);
    expect(Number((await t.db.query('SELECT is_active FROM users WHERE id = ?', [appId]))[0].is_active)).toBe(1);
  });

  it('a repeated revoke of an API application token is audited once', async () => {
    const admin = await login(t, DEMO.admin);
    const { appId, tokenId } = await integrationToken(t, ['stores.view']);
    for (let i = 0; i < 3; i++) expect((await api().delete(`/api/v1/api-applications/${appId}/tokens/${tokenId}`).set(bearer(admin))).status).toBe(200);
    expect(await audits('token.revoked', tokenId)).toBe(1);
  });
});
