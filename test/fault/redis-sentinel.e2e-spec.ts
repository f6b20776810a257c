import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { RATE_LIMIT_STORAGE, ReplicaBroadcast, ResilientRateLimitStorage } from '@pos/platform';
import { createApiApp } from '../../apps/api/src/bootstrap';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { bearer, DEMO, login, startTestApp, TestApp, usingMysql } from '../support/test-app';
import { SentinelTopology } from './redis-sentinel-tools';

/**
 * Issue 24 item 4: Redis behind Sentinels. A private master, replica and three Sentinels; two
 * API replicas and a worker configured with REDIS_SENTINELS only. The master is killed (-9),
 * then, back as a replica, failed over gracefully (SENTINEL FAILOVER). After each switch, with
 * no restart: every bulk price job submitted before, during and after it completes (none lost),
 * rate limits count in the new master (shared by both replicas), and a revocation on one
 * replica reaches the other through the broadcast (its cache TTL is a minute).
 */
const runs = usingMysql() && !!process.env.TEST_REDIS_URL;
const describeRun = runs ? describe : describe.skip;
if (!runs)
  console.info('redis-sentinel: skipped (needs the MariaDB + Redis run: TEST_DB=mysql and TEST_REDIS_URL; starts its own redis-server on ports 13500-13512)');

const STANDARD_LIMIT = 12;

describeRun('Redis Sentinel failover (MariaDB + Redis run, private Sentinels on 13500-13512)', () => {
  const topology = new SentinelTopology();
  let a: TestApp;
  let b: NestExpressApplication;
  let bHttp: Server;
  let worker: INestApplicationContext | undefined;
  let manager: string;
  const submitted: number[] = [];

  beforeAll(async () => {
    try {
      await topology.start();
      a = await startTestApp({
        REDIS_URL: '',
        REDIS_SENTINELS: topology.sentinels,
        REDIS_SENTINEL_NAME: topology.masterName,
        AUTH_CACHE_TTL_MS: '60000',
        RATE_LIMIT_STANDARD: String(STANDARD_LIMIT),
        // Jobs whose enqueue failed mid-failover (or that the old master took but never passed on) are queued again from the database.
        BULK_JOB_SWEEP_INTERVAL_MS: '1000',
      });
      b = await createApiApp(a.config, { logger: false });
      await b.init();
      bHttp = b.getHttpServer() as Server;
      worker = await NestFactory.createApplicationContext(WorkerModule.register(a.config), { logger: false });
      await worker.init();
      manager = await login(a, DEMO.manager);
    } catch (error) {
      await cleanUp();
      throw error;
    }
  });

  async function cleanUp(): Promise<void> {
    await worker?.close().catch(() => undefined);
    await b?.close().catch(() => undefined);
    await a?.close().catch(() => undefined);
    await topology.stop();
  }
  afterAll(cleanUp);

  /** A bulk price job (through the API's queue producer); its id is kept to check it completes. */
  async function submitBulk(): Promise<void> {
    const n = submitted.length;
    const res = await request(a.http)
      .post('/api/v1/prices/bulk')
      .set(bearer(manager))
      .send({ changes: [{ item_id: 10 + (n % 20), price_book_id: 1, min_quantity: 300 + n, price: 3 + n / 100 }] });
    expect(res.status).toBe(200);
    submitted.push(res.body.data.job_id as number);
  }

  async function unfinishedJobs(): Promise<number[]> {
    const rows: { id: number; status: string }[] = await a.db.query(`SELECT id, status FROM bulk_price_jobs WHERE id IN (${submitted.join(',')})`);
    return rows.filter((r) => r.status !== 'completed').map((r) => Number(r.id));
  }

  async function poll(what: string, check: () => Promise<boolean>, tries = 300, everyMs = 100): Promise<void> {
    for (let i = 0; i < tries; i++) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
    throw new Error(`gave up waiting for ${what}`);
  }

  /** Both replicas count on Redis again (a request counted in memory during the switch keeps fallbackCount above 0). */
  async function countersOnRedis(): Promise<void> {
    const warmUp = await login(a, DEMO.admin);
    for (const [app, http] of [
      [a.app, a.http],
      [b, bHttp],
    ] as const) {
      const storage = app.get<ResilientRateLimitStorage>(RATE_LIMIT_STORAGE);
      await poll('rate-limit counters on Redis', async () => {
        await request(http).get('/api/v1/auth/me').set(bearer(warmUp));
        return storage.fallbackCount === 0;
      });
    }
  }

  /** A message published on A reaches B (both broadcast connections are on the new master). */
  async function broadcastPathUp(): Promise<void> {
    const heard: unknown[] = [];
    const nonce = randomBytes(4).toString('hex');
    await b.get(ReplicaBroadcast).subscribe('e2e.probe', (m) => heard.push(m));
    await poll('a broadcast from A heard on B', async () => {
      a.app.get(ReplicaBroadcast).publish('e2e.probe', { nonce });
      return heard.some((m) => (m as { nonce: string }).nonce === nonce);
    });
  }

  /** `since`: when the switch began (performance.now()), for the figures printed. */
  async function everythingWorksOn(masterPort: number, label: string, since = performance.now()): Promise<void> {
    // Queues: every job, before, during and after the switch, completes (none lost).
    for (let i = 0; i < 3; i++) await submitBulk();
    await poll(`${submitted.length} bulk price jobs completed`, async () => (await unfinishedJobs()).length === 0, 400);
    const jobsDoneMs = Math.round(performance.now() - since);

    // Rate limits: one token's requests alternate between the replicas; the shared counter (in
    // the new master) refuses the one past the limit. Counted per process, neither would.
    await countersOnRedis();
    const token = await login(a, DEMO.cashier);
    const statuses: number[] = [];
    for (let i = 0; i <= STANDARD_LIMIT; i++)
      statuses.push(
        (
          await request(i % 2 ? bHttp : a.http)
            .get('/api/v1/auth/me')
            .set(bearer(token))
        ).status,
      );
    expect(statuses).toEqual([...Array(STANDARD_LIMIT).fill(200), 429]);
    const counters = await topology.withClient(masterPort, async (c) => {
      const keys = await c.keys(`${a.config.rateLimit.keyPrefix}:*`);
      return Promise.all(keys.map(async (k) => Number(await c.get(k))));
    });
    expect(Math.max(...counters)).toBeGreaterThanOrEqual(STANDARD_LIMIT + 1);

    // Revocation broadcast: B drops a token logged out on A long before its cache TTL (60 s).
    await broadcastPathUp();
    const revoked = await login(a, DEMO.cashier);
    await request(bHttp).get('/api/v1/auth/me').set(bearer(revoked)).expect(200);
    await request(a.http).post('/api/v1/auth/logout').set(bearer(revoked)).expect(201);
    let tries = 0;
    await poll(
      `${label}: B refuses the revoked token`,
      async () => {
        tries++;
        return (await request(bHttp).get('/api/v1/auth/me').set(bearer(revoked))).status === 401;
      },
      60,
      50,
    );
    console.info(
      `${label}: all ${submitted.length} bulk jobs completed ${jobsDoneMs} ms after the switch began; limit shared on master ${masterPort}; revocation reached B after ${tries} poll(s) of 50 ms`,
    );
  }

  it('works on the first master', async () => {
    await everythingWorksOn(topology.dataPorts[0], 'before any failover');
  });

  it('after the master is killed (-9): queues, rate limits and the revocation broadcast work on the new master, no job lost', async () => {
    const old = (await topology.masterPort())!;
    await submitBulk(); // just before the crash
    const since = performance.now();
    topology.kill(old);
    await submitBulk(); // during it: the producer fails fast, the row waits for the sweeper
    const promoted = await topology.awaitNewMaster(old);
    console.info(
      `kill -9: master ${old} -> ${promoted}, named by the Sentinels ${Math.round(performance.now() - since)} ms after the kill (down-after 1000 ms)`,
    );
    await everythingWorksOn(promoted, 'after kill -9', since);
  });

  it('after a graceful failover (SENTINEL FAILOVER) back to the restarted server: the same, no job lost', async () => {
    const old = (await topology.masterPort())!;
    const restarted = topology.dataPorts.find((p) => p !== old)!;
    await topology.restart(restarted);
    await submitBulk();
    const since = performance.now();
    await topology.failover();
    await submitBulk();
    const promoted = await topology.awaitNewMaster(old);
    expect(promoted).toBe(restarted);
    console.info(`SENTINEL FAILOVER: master ${old} -> ${promoted}, named by the Sentinels ${Math.round(performance.now() - since)} ms after the command`);
    await everythingWorksOn(promoted, 'after SENTINEL FAILOVER', since);
  });
});
