import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import request from 'supertest';
import { CliModule } from '../../apps/cli/src/cli.module';
import { runCommand, UsageError } from '../../apps/cli/src/commands';
import { ALL_FEATURES } from '../../apps/cli/src/runtime/full';
import { describeRefusal } from '../../apps/cli/src/cli/run';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { bearer, DEMO, login, startTestApp, TestApp, usingMysql } from '../support/test-app';

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not met in time');
}

describe('CLI commands and background jobs', () => {
  let t: TestApp;
  let cli: INestApplicationContext;
  // The CLI (and worker) contexts must see the API's database: on SQLite that means a file, not
  // :memory: (and @Transactional resolves one transaction host per process, so both must agree).
  const dir = mkdtempSync(join(tmpdir(), 'pos-cli-'));

  beforeAll(async () => {
    t = await startTestApp({ AUTH_CACHE_TTL_MS: '0', ...(usingMysql() ? {} : { DB_SQLITE_PATH: join(dir, 'pos.sqlite') }) });
    cli = await NestFactory.createApplicationContext(CliModule.register(t.config, ALL_FEATURES), { logger: false });
  });
  afterAll(async () => {
    await cli.close();
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates a user that can log in, and resets the password', async () => {
    const [dt] = await t.db.query("SELECT id FROM stores WHERE code = 'DT'");
    const created = (await runCommand(cli, 'user:create', {
      email: 'New.Cashier@Example.com',
      name: 'New Cashier',
      password: 'secret-pass-1',
      role: 'cashier',
      stores: String(dt.id),
    })) as { id: number; email: string };
    expect(created.email).toBe('new.cashier@example.com');
    const ok = await request(t.http).post('/api/v1/auth/login').send({ email: 'new.cashier@example.com', password: 'secret-pass-1' });
    expect(ok.status).toBe(201);
    expect(ok.body.data.store_id).toBe(dt.id);
    await runCommand(cli, 'user:reset-password', { email: 'new.cashier@example.com', password: 'another-pass-2' });
    expect((await request(t.http).post('/api/v1/auth/login').send({ email: 'new.cashier@example.com', password: 'secret-pass-1' })).status).toBe(422);
    expect((await request(t.http).post('/api/v1/auth/login').send({ email: 'new.cashier@example.com', password: 'another-pass-2' })).status).toBe(201);
    await expect(
      runCommand(cli, 'user:create', { email: 'new.cashier@example.com', name: 'Dup', password: 'secret-pass-1', role: 'cashier' }),
    ).rejects.toThrow();
    await expect(runCommand(cli, 'user:create', { email: 'x@example.com', name: 'X', password: 'secret-pass-1', role: 'emperor' })).rejects.toThrow();
  });

  it('creates an API application, issues a token the API accepts, and revokes it', async () => {
    const app = (await runCommand(cli, 'app:create', { name: 'Warehouse sync', permissions: 'stores.view,warehouses.view' })) as {
      id: number;
      permissions: string[];
    };
    expect(app.permissions).toEqual(['stores.view', 'warehouses.view']);
    const issued = (await runCommand(cli, 'token:issue', { app: String(app.id), name: 'cli', abilities: 'integration:read', 'expires-in': '60' })) as {
      id: number;
      token: string;
      expires_at: string;
    };
    expect(new Date(issued.expires_at).getTime()).toBeGreaterThan(Date.now() + 59 * 60_000);
    expect((await request(t.http).get('/api/v1/integration/data/warehouses').set(bearer(issued.token))).status).toBe(200);
    await runCommand(cli, 'token:revoke', { app: String(app.id), token: String(issued.id) });
    expect((await request(t.http).get('/api/v1/integration/data/warehouses').set(bearer(issued.token))).status).toBe(401);
  });

  it('refuses a made-up permission as the API does, naming it, and stores nothing', async () => {
    const apps = async () => Number((await t.db.query('SELECT COUNT(*) AS n FROM users WHERE is_api_application = 1'))[0].n);
    const before = await apps();
    const refused = await runCommand(cli, 'app:create', { name: 'Made up', permissions: 'stores.view,stores.teleport' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UsageError);
    expect(describeRefusal(refused)).toEqual({ message: expect.stringMatching(/^unknown permission "stores\.teleport" in --permissions/), code: 65 });
    await expect(runCommand(cli, 'token:issue', { app: '1', name: 'x', abilities: 'integration:write' })).rejects.toThrow(
      /unknown ability "integration:write"/,
    );
    expect(await apps()).toBe(before);
  });

  it("sets per-user discount limits over the role's, and back", async () => {
    const token = await login(t, DEMO.cashier);
    expect((await request(t.http).get('/api/v1/auth/me').set(bearer(token))).body.data.discount_limits).toEqual({
      max_discount_percent: 10,
      max_discount_amount: 20,
    });
    await runCommand(cli, 'user:discount-limits', { email: DEMO.cashier, 'max-percent': '15', 'max-amount': '35.50' });
    const after = await login(t, DEMO.cashier);
    expect((await request(t.http).get('/api/v1/auth/me').set(bearer(after))).body.data.discount_limits).toEqual({
      max_discount_percent: 15,
      max_discount_amount: 35.5,
    });
    await runCommand(cli, 'user:discount-limits', { email: DEMO.cashier, 'max-percent': 'role', 'max-amount': 'role' });
    const back = await login(t, DEMO.cashier);
    expect((await request(t.http).get('/api/v1/auth/me').set(bearer(back))).body.data.discount_limits).toEqual({
      max_discount_percent: 10,
      max_discount_amount: 20,
    });
    await expect(runCommand(cli, 'user:discount-limits', { email: DEMO.cashier, 'max-percent': 'lots' })).rejects.toBeInstanceOf(UsageError);
    await expect(runCommand(cli, 'user:discount-limits', { email: DEMO.cashier, 'max-percent': '150' })).rejects.toThrow();
  });

  it('refuses unknown commands and missing flags', async () => {
    await expect(runCommand(cli, 'explode', {})).rejects.toBeInstanceOf(UsageError);
    await expect(runCommand(cli, 'token:issue', { name: 'x' })).rejects.toBeInstanceOf(UsageError);
  });

  it('seeds the demo data idempotently', async () => {
    const count = async () => {
      const rows = await Promise.all(
        ['users', 'items', 'stock_levels', 'stock_movements', 'serial_numbers', 'price_book_entries', 'role_permissions'].map((table) =>
          t.db.query(`SELECT COUNT(*) AS n FROM ${table}`),
        ),
      );
      return rows.map((r) => Number(r[0].n));
    };
    const before = await count();
    const report = (await runCommand(cli, 'seed:demo', {})) as { created: Record<string, number> };
    expect(report.created).toEqual({});
    expect(await count()).toEqual(before);
  });

  it('loads the demo data set of decisions.md', async () => {
    const one = async (sql: string) => Number((await t.db.query(sql))[0].n);
    expect(await one('SELECT COUNT(*) AS n FROM stores')).toBe(2);
    expect(await one('SELECT COUNT(*) AS n FROM warehouses')).toBe(3);
    expect(await one('SELECT COUNT(*) AS n FROM warehouses WHERE store_id IS NULL')).toBe(1);
    expect((await t.db.query('SELECT code FROM payment_methods ORDER BY code')).map((r: { code: string }) => r.code)).toEqual(['card', 'cash', 'on_account']);
    expect(await one('SELECT COUNT(*) AS n FROM currencies WHERE is_base = 1')).toBe(1);
    expect(await one('SELECT COUNT(*) AS n FROM currencies')).toBeGreaterThanOrEqual(2);
    expect(await one('SELECT COUNT(*) AS n FROM items WHERE is_active = 1')).toBeGreaterThanOrEqual(30);
    expect(await one('SELECT COUNT(*) AS n FROM items WHERE is_serial_tracked = 1')).toBeGreaterThan(0);
    expect(await one('SELECT COUNT(*) AS n FROM item_units WHERE factor = 12')).toBe(1);
    expect(await one('SELECT COUNT(DISTINCT item_id) AS n FROM item_barcodes')).toBeGreaterThanOrEqual(30);
    expect(await one('SELECT COUNT(*) AS n FROM price_books')).toBeGreaterThanOrEqual(1);
    expect(await one('SELECT COUNT(*) AS n FROM tax_classes')).toBeGreaterThanOrEqual(1);
    expect(await one('SELECT COUNT(*) AS n FROM customers WHERE is_walk_in = 0')).toBeGreaterThanOrEqual(1);
    // every stock level equals its ledger
    const drift = await t.db.query(
      'SELECT s.item_id FROM stock_levels s WHERE s.quantity <> (SELECT COALESCE(SUM(m.quantity), 0) FROM stock_movements m WHERE m.item_id = s.item_id AND m.warehouse_id = s.warehouse_id)',
    );
    expect(drift).toEqual([]);
    for (const email of [DEMO.admin, DEMO.manager, DEMO.cashier]) expect(typeof (await login(t, email))).toBe('string');
  });

  it('records token use through the queue (in-process, or BullMQ consumed by the worker app)', async () => {
    const worker = t.isMysql ? await NestFactory.createApplicationContext(WorkerModule.register(t.config), { logger: false }) : undefined;
    try {
      await worker?.init();
      const token = await login(t, DEMO.cashier);
      expect((await request(t.http).get('/api/v1/auth/me').set(bearer(token))).status).toBe(200);
      await waitFor(async () => {
        const [row] = await t.db.query('SELECT last_used_at FROM access_tokens WHERE id = (SELECT id FROM (SELECT MAX(id) AS id FROM access_tokens) x)');
        return row.last_used_at !== null;
      });
    } finally {
      await worker?.close(); // drains: waits for running jobs
    }
  });
});
