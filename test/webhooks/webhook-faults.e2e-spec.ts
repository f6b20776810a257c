import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import request from 'supertest';
import { bearer, DEMO, login, startTestApp, TestApp, usingMysql } from '../support/test-app';
import { eventually, WebhookReceiver } from './receiver';

/**
 * Fault tests of the webhook pipeline on MySQL + Redis with the real worker process
 * (`node dist/apps/worker/src/main.js`, so `npm run build` first; CI builds before this stage).
 * The worker uses a PRIVATE redis-server on port 6390 that this suite starts and stops; the
 * API under test keeps the shared Redis for its own rate-limit counters (what an API does while
 * its Redis is down is issue 14's subject; here: sales never need the webhook queue).
 */
const REDIS_PORT = 6390;
const WORKER = join(__dirname, '../../dist/apps/worker/src/main.js');
const maybe = usingMysql() ? describe : describe.skip;

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitPort(port: number, open: boolean, timeoutMs = 10_000): Promise<void> {
  await eventually(
    () => portOpen(port),
    (o) => o === open,
    timeoutMs,
  );
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once('exit', () => r()));
}

maybe('Webhook faults (MySQL + Redis + worker process)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let redis: ChildProcess | undefined;
  let worker: ChildProcess | undefined;
  let admin: string;
  const workerOutput: string[] = [];
  const secrets: string[] = [];
  const queuePrefix = `pos-faults-${process.pid}`;

  const startRedis = async () => {
    if (await portOpen(REDIS_PORT)) throw new Error(`port ${REDIS_PORT} is taken: this suite needs its own redis-server there`);
    redis = spawn('redis-server', ['--port', String(REDIS_PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await waitPort(REDIS_PORT, true);
  };
  const stopRedis = async () => {
    const r = redis;
    redis = undefined;
    if (!r) return;
    r.kill('SIGKILL');
    await exited(r);
    await waitPort(REDIS_PORT, false);
  };
  const startWorker = () => {
    const db = t.config.db;
    const child = spawn(process.execPath, [WORKER], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        LOG_LEVEL: 'debug',
        DB_TYPE: 'mysql',
        DB_HOST: db.host,
        DB_PORT: String(db.port),
        DB_USERNAME: db.username,
        DB_PASSWORD: db.password,
        DB_DATABASE: db.database,
        REDIS_URL: `redis://127.0.0.1:${REDIS_PORT}`,
        QUEUE_PREFIX: queuePrefix,
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1',
        WEBHOOK_RELAY_INTERVAL_MS: '100',
        WEBHOOK_SWEEP_INTERVAL_MS: '1000',
        WEBHOOK_TIMEOUT_MS: '2000',
        WEBHOOK_CONCURRENCY: '4',
        SHUTDOWN_TIMEOUT_MS: '5000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (c: Buffer) => workerOutput.push(c.toString()));
    child.stderr!.on('data', (c: Buffer) => workerOutput.push(c.toString()));
    worker = child;
    return child;
  };
  const stopWorker = async (signal: NodeJS.Signals) => {
    const w = worker;
    worker = undefined;
    if (!w) return;
    w.kill(signal);
    await exited(w);
  };
  const endpoint = async (path: string, events: string[]) => {
    const res = await request(t.http)
      .post('/api/v1/webhooks')
      .set(bearer(admin))
      .send({ url: receiver.url(path), events });
    expect(res.status).toBe(201);
    secrets.push(res.body.data.secret);
    return res.body.data.id as number;
  };
  const statuses = async (endpointId: number) =>
    Object.fromEntries(
      (await t.db.query('SELECT status, COUNT(*) AS n FROM webhook_deliveries WHERE endpoint_id = ? GROUP BY status', [endpointId])).map(
        (r: { status: string; n: number | string }) => [r.status, Number(r.n)],
      ),
    ) as Record<string, number>;

  beforeAll(async () => {
    if (!existsSync(WORKER)) throw new Error(`${WORKER} is missing: run \`npm run build\` before the MySQL e2e suites`);
    receiver = await new WebhookReceiver().start();
    await startRedis();
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    admin = await login(t, DEMO.admin);
  });
  afterAll(async () => {
    await stopWorker('SIGKILL');
    await stopRedis();
    await t?.close();
    await receiver?.close();
  });

  it('kill -9 of the worker in the middle of 200 deliveries: every event arrives, every delivery ends delivered, ids stay the same', async () => {
    receiver.on('/bulk', () => ({ status: 200, delayMs: 40 }));
    const id = await endpoint('/bulk', ['customer.updated']);
    const [{ maxId }] = await t.db.query('SELECT COALESCE(MAX(id), 0) AS maxId FROM outbox_events');
    const values = Array.from({ length: 200 }, (_, i) => `('customer.updated', NULL, '{"n":${i}}', NOW(3), NULL)`).join(', ');
    await t.db.query(`INSERT INTO outbox_events (type, store_id, payload, created_at, published_at) VALUES ${values}`);
    const eventIds = (await t.db.query("SELECT id FROM outbox_events WHERE id > ? AND type = 'customer.updated' ORDER BY id", [maxId])).map(
      (r: { id: number }) => Number(r.id),
    );
    expect(eventIds).toHaveLength(200);

    startWorker();
    await receiver.waitFor('/bulk', (g) => g.length >= 40, 30_000);
    await stopWorker('SIGKILL');
    const atKill = receiver.at('/bulk').length;
    expect(atKill).toBeLessThan(200);
    const before = await statuses(id);
    expect(before.delivered ?? 0).toBeLessThan(200);

    startWorker();
    const final = await eventually(
      () => statuses(id),
      (s) => s.delivered === 200,
      60_000,
    );
    expect(final).toEqual({ delivered: 200 });
    const got = receiver.at('/bulk');
    const byEvent = new Map<number, Set<string>>();
    for (const r of got) byEvent.set(r.body.id, (byEvent.get(r.body.id) ?? new Set()).add(r.deliveryId));
    expect([...byEvent.keys()].sort((a, b) => a - b)).toEqual(eventIds);
    for (const ids of byEvent.values()) expect(ids.size).toBe(1); // a re-send keeps its delivery id
    // at-least-once: the attempts cut by the kill may arrive twice, nothing more
    expect(got.length - 200).toBeLessThanOrEqual(atKill + 8);
    process.stdout.write(`kill -9 test: ${atKill} received before the kill, ${got.length} requests for 200 events\n`);
  });

  it('Redis stopped during sales: the sales succeed, the events wait, and are delivered after Redis returns', async () => {
    const id = await endpoint('/sales', ['sale.completed']);
    const cashier = await login(t, DEMO.cashier);
    expect((await request(t.http).post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 10 })).status).toBe(200);
    const item = Number((await t.db.query("SELECT id FROM items WHERE sku = 'BEV-001'"))[0].id);
    let n = 0;
    const sell = () =>
      request(t.http)
        .post('/api/v1/pos/checkout')
        .set(bearer(cashier))
        .send({
          store_id: 1,
          idempotency_key: `fault-sale-${++n}-${Date.now()}`,
          items: [{ id: item, qty: 1 }],
          payments: [{ payment_method_code: 'cash', amount: 2 }],
          total_amount: 1.32,
        });
    const first = await sell();
    expect(first.status).toBe(201);
    await receiver.waitFor('/sales', (g) => g.length >= 1, 20_000);

    await stopRedis();
    const saleIds: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await sell();
      expect(res.status).toBe(201);
      saleIds.push(res.body.data.id);
    }
    await new Promise((r) => setTimeout(r, 3000));
    const arrived = () => new Set(receiver.at('/sales').map((r) => (r.body.data.sale as { id: number }).id));
    expect(saleIds.filter((s) => arrived().has(s))).toEqual([]);
    expect((await statuses(id)).delivered).toBe(1);

    await startRedis(); // empty: every queued job is gone
    await receiver.waitFor('/sales', () => saleIds.every((s) => arrived().has(s)), 45_000);
    await eventually(
      () => statuses(id),
      (s) => s.delivered === 6,
      20_000,
    );
  });

  it('the worker never logged a signing secret', async () => {
    const text = workerOutput.join('');
    expect(text).toContain('POS worker consuming jobs');
    for (const secret of secrets) expect(text).not.toContain(secret.slice('whsec_'.length));
  });
});
