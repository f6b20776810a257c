import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { NestExpressApplication } from '@nestjs/platform-express';
import { getDataSourceToken } from '@nestjs/typeorm';
import { createConnection } from 'mysql2/promise';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { AppConfig, loadConfig } from '@pos/platform';
import { createApiApp } from '../../apps/api/src/bootstrap';
import { copyOfTemplate, removeCopy } from './sqlite-template';
import { copyMysqlTemplate } from './mysql-template';

/**
 * Boots the real API (same bootstrap as production) for one suite.
 *   default            SQLite: a file copy of the run's migrated, seeded template (sqlite-template.ts;
 *                      removed at close), in-process queue, in-memory rate-limit counters. Overriding
 *                      one of SEED_SHAPING, or naming an existing DB_SQLITE_PATH, starts from that
 *                      database as given instead (migrated and seeded by the app as configured).
 *   TEST_DB=mysql      a MariaDB/MySQL database of its own, a table-by-table copy of the run's
 *                      template (mysql-template.ts; dropped at close; the same overrides, or
 *                      DB_DATABASE / DATABASE_URL, skip the copy) and, with
 *                      TEST_REDIS_URL (default redis://127.0.0.1:6379), BullMQ + Redis counters
 * Demo data is loaded on start. Rate limits are raised so suites do not trip each other; the
 * rate-limit suite passes its own.
 */
export interface TestApp {
  app: NestExpressApplication;
  http: Server;
  config: AppConfig;
  db: DataSource;
  isMysql: boolean;
  close(): Promise<void>;
}

export const usingMysql = (): boolean => process.env.TEST_DB === 'mysql';

function mysqlServer() {
  return {
    host: process.env.TEST_MYSQL_HOST ?? '127.0.0.1',
    port: Number(process.env.TEST_MYSQL_PORT ?? 3306),
    user: process.env.TEST_MYSQL_USER ?? 'root',
    password: process.env.TEST_MYSQL_PASSWORD ?? '',
  };
}

/** Overrides that change what the database starts with: a suite passing one skips the shared template. */
const SEED_SHAPING = ['DB_TYPE', 'DB_MIGRATE_ON_START', 'SEED_DEMO_ON_FIRST_START', 'DEMO_HISTORY_DAYS', 'DB_DATABASE', 'DATABASE_URL'];

export async function startTestApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    RATE_LIMIT_LOGIN: '10000',
    RATE_LIMIT_LOGIN_IP: '100000',
    RATE_LIMIT_STANDARD: '100000',
    RATE_LIMIT_POS: '100000',
    RATE_LIMIT_BULK: '100000',
    RATE_LIMIT_AUTH_FAILURES: '100000',
    SEED_DEMO_ON_FIRST_START: 'true',
    DEMO_HISTORY_DAYS: '0',
    DB_MIGRATE_ON_START: 'true',
    OPENAPI: 'true',
    RATE_LIMIT_KEY_PREFIX: `pos-rl-test-${randomBytes(6).toString('hex')}`,
    QUEUE_PREFIX: `pos-test-${randomBytes(6).toString('hex')}`,
  };
  let dropDatabase: (() => Promise<void>) | undefined;
  const own = overrides.DB_SQLITE_PATH;
  const asGiven = SEED_SHAPING.some((k) => k in overrides) || (own !== undefined && (own === ':memory:' || existsSync(own)));
  if (usingMysql()) {
    const server = mysqlServer();
    const name = `pos_e2e_${process.pid}_${randomBytes(3).toString('hex')}`;
    const conn = await createConnection(server);
    await conn.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await conn.end();
    Object.assign(env, {
      DB_TYPE: 'mysql',
      DB_HOST: server.host,
      DB_PORT: String(server.port),
      DB_USERNAME: server.user,
      DB_PASSWORD: server.password,
      DB_DATABASE: name,
    });
    env.REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    if (!asGiven) await copyMysqlTemplate(server, name, async (db) => (await boot(loadConfig({ ...env, DB_DATABASE: db }))).close());
    dropDatabase = async () => {
      const c = await createConnection(server);
      await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await c.end();
    };
  } else {
    Object.assign(env, { DB_TYPE: 'sqlite', DB_SQLITE_PATH: ':memory:' });
    const copy = asGiven ? undefined : await copyOfTemplate(async (path) => (await boot(loadConfig({ ...env, DB_SQLITE_PATH: path }))).close(), own);
    if (copy && own === undefined) {
      env.DB_SQLITE_PATH = copy;
      dropDatabase = async () => removeCopy(copy);
    }
  }
  const config = loadConfig({ ...env, ...overrides });
  const app = await boot(config);
  const db = app.get<DataSource>(getDataSourceToken());
  return {
    app,
    http: app.getHttpServer() as Server,
    config,
    db,
    isMysql: usingMysql(),
    close: async () => {
      await app.close();
      await dropDatabase?.();
    },
  };
}

async function boot(config: AppConfig): Promise<NestExpressApplication> {
  const app = await createApiApp(config, { logger: false });
  await app.init();
  return app;
}

export const DEMO = {
  admin: 'admin@example.com',
  manager: 'manager@example.com',
  cashier: 'cashier@example.com',
  password: 'password',
} as const;

export async function login(t: TestApp, email: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await request(t.http)
    .post('/api/v1/auth/login')
    .send({ email, password: DEMO.password, ...extra });
  if (res.status !== 201) throw new Error(`login ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { data: { token: string } }).data.token;
}

export function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

/** Counts `quantity` of an item on hand in a warehouse (an inventory count adjustment by a token that may adjust). */
export async function countStock(t: TestApp, token: string, itemId: number, quantity: number, warehouseId = 1): Promise<void> {
  await request(t.http)
    .post('/api/v1/inventory/adjustments')
    .set(bearer(token))
    .send({ type: 'count', warehouse_id: warehouseId, items: [{ item_id: itemId, quantity }] })
    .expect(201);
}

/** An API application with permissions and a token carrying the given abilities. */
export async function integrationToken(
  t: TestApp,
  permissions: string[],
  abilities = ['integration:read'],
): Promise<{ appId: number; token: string; tokenId: number }> {
  const admin = await login(t, DEMO.admin);
  const app = await request(t.http).post('/api/v1/api-applications').set(bearer(admin)).send({ name: 'Test integration', permissions });
  if (app.status !== 201) throw new Error(`create app failed: ${app.status} ${JSON.stringify(app.body)}`);
  const appId = (app.body as { data: { id: number } }).data.id;
  const tok = await request(t.http).post(`/api/v1/api-applications/${appId}/tokens`).set(bearer(admin)).send({ name: 'test', abilities });
  if (tok.status !== 201) throw new Error(`issue token failed: ${tok.status} ${JSON.stringify(tok.body)}`);
  const body = tok.body as { data: { token: string; id: number } };
  return { appId, token: body.data.token, tokenId: body.data.id };
}

/** Asserts the error envelope of contract part 7. */
export function expectErrorEnvelope(res: request.Response, status: number, message?: string): void {
  expect(res.status).toBe(status);
  expect(res.body.success).toBe(false);
  expect(typeof res.body.message).toBe('string');
  expect(res.body.data).toBeUndefined();
  if (message !== undefined) expect(res.body.message).toBe(message);
  expect(res.headers['x-request-id']).toBeTruthy();
}
