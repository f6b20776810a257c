import { execFile, spawn, ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Cluster, Redis } from 'ioredis';
import request from 'supertest';
import { RATE_LIMIT_STORAGE, ResilientRateLimitStorage } from '@pos/platform';
import { createApiApp } from '../../apps/api/src/bootstrap';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { bearer, DEMO, login, startTestApp, TestApp, usingMysql } from '../support/test-app';

/** Three masters with cluster-enabled on 13520-13522 (no replicas, no persistence), killed at the end or at exit. */
class PrivateCluster {
  readonly ports = [13520, 13521, 13522];
  private readonly dir = mkdtempSync('/tmp/pos-cluster-');
  private readonly children: ChildProcess[] = [];
  private readonly killAll = () => this.children.forEach((c) => c.exitCode === null && c.kill('SIGKILL'));

  get nodes(): string {
    return this.ports.map((p) => `127.0.0.1:${p}`).join(',');
  }

  async start(): Promise<void> {
    process.once('exit', this.killAll);
    for (const port of this.ports) {
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', this.dir, '--cluster-enabled', 'yes'];
      args.push('--cluster-config-file', join(this.dir, `nodes-${port}.conf`), '--logfile', join(this.dir, `${port}.log`));
      this.children.push(spawn('redis-server', args, { stdio: 'ignore' }));
      await this.until(`node ${port}`, async () => (await this.ask(port, (c) => c.ping())) === 'PONG');
    }
    const hosts = this.ports.map((p) => `127.0.0.1:${p}`);
    await promisify(execFile)('redis-cli', ['--cluster', 'create', ...hosts, '--cluster-replicas', '0', '--cluster-yes']);
    for (const port of this.ports)
      await this.until(`cluster_state:ok on ${port}`, async () => /cluster_state:ok/.test(String(await this.ask(port, (c) => c.call('CLUSTER', 'INFO')))));
  }

  async ask<T>(port: number, fn: (c: Redis) => Promise<T>): Promise<T | undefined> {
    const c = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    c.on('error', () => undefined);
    try {
      await c.connect();
      return await fn(c);
    } catch {
      return undefined;
    } finally {
      c.disconnect();
    }
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.children.map((c) =>
        c.exitCode !== null || c.signalCode !== null ? undefined : new Promise<void>((resolve) => c.once('exit', () => resolve()).kill('SIGKILL')),
      ),
    );
    process.removeListener('exit', this.killAll);
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async until(what: string, check: () => Promise<boolean>): Promise<void> {
    for (let i = 0; i < 200; i++) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`Cluster: gave up waiting for ${what}`);
  }
}

/**
 * Issue 24 item 4, where BullMQ allows it: Redis Cluster (REDIS_CLUSTER_NODES). The queue
 * prefix gets a hash tag so each queue's keys share a slot (BullMQ's scripts are multi-key);
 * jobs run in the worker, the rate-limit counters (a one-key script) are shared by two
 * replicas, and a revocation on one reaches the other through cluster pub/sub.
 */
const runs = usingMysql() && !!process.env.TEST_REDIS_URL;
const describeRun = runs ? describe : describe.skip;
if (!runs)
  console.info('redis-cluster: skipped (needs the MariaDB + Redis run: TEST_DB=mysql and TEST_REDIS_URL; starts its own cluster on ports 13520-13522)');

describeRun('Redis Cluster (MariaDB + Redis run, a private 3-master cluster on 13520-13522)', () => {
  const cluster = new PrivateCluster();
  let a: TestApp;
  let b: NestExpressApplication;
  let bHttp: Server;
  let worker: INestApplicationContext | undefined;

  beforeAll(async () => {
    try {
      await cluster.start();
      a = await startTestApp({ REDIS_URL: '', REDIS_CLUSTER_NODES: cluster.nodes, AUTH_CACHE_TTL_MS: '60000', RATE_LIMIT_STANDARD: '10' });
      b = await createApiApp(a.config, { logger: false });
      await b.init();
      bHttp = b.getHttpServer() as Server;
      worker = await NestFactory.createApplicationContext(WorkerModule.register(a.config), { logger: false });
      await worker.init();
    } catch (error) {
      await cleanUp();
      throw error;
    }
  });
  async function cleanUp(): Promise<void> {
    await worker?.close().catch(() => undefined);
    await b?.close().catch(() => undefined);
    await a?.close().catch(() => undefined);
    await cluster.stop();
  }
  afterAll(cleanUp);

  async function poll(what: string, check: () => Promise<boolean>, tries = 200, everyMs = 100): Promise<void> {
    for (let i = 0; i < tries; i++) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
    throw new Error(`gave up waiting for ${what}`);
  }

  it('runs queue jobs under a hash-tagged prefix (every queue key in one slot)', async () => {
    expect(a.config.queuePrefix).toMatch(/^\{pos-test-[0-9a-f]+\}$/);
    const manager = await login(a, DEMO.manager);
    const res = await request(a.http)
      .post('/api/v1/prices/bulk')
      .set(bearer(manager))
      .send({ changes: [{ item_id: 10, price_book_id: 1, min_quantity: 500, price: 4.5 }] })
      .expect(200);
    const id = res.body.data.job_id as number;
    await poll('the bulk price job completed', async () => {
      const [row] = (await a.db.query('SELECT status FROM bulk_price_jobs WHERE id = ?', [id])) as { status: string }[];
      return row?.status === 'completed';
    });
    // Every BullMQ key of the deployment hashes to the prefix's slot, on one node.
    const probe = new Cluster(cluster.ports.map((port) => ({ host: '127.0.0.1', port })));
    try {
      const slot = Number(await probe.call('CLUSTER', 'KEYSLOT', a.config.queuePrefix));
      const keys = (await Promise.all(probe.nodes('master').map((n) => n.keys(`${a.config.queuePrefix}:*`)))).flat();
      expect(keys.length).toBeGreaterThan(0);
      for (const k of keys) expect(Number(await probe.call('CLUSTER', 'KEYSLOT', k))).toBe(slot);
    } finally {
      probe.disconnect();
    }
  });

  it('shares the rate-limit counters between replicas and broadcasts a revocation to the other replica', async () => {
    for (const app of [a.app, b]) expect(app.get<ResilientRateLimitStorage>(RATE_LIMIT_STORAGE).fallbackCount).toBe(0);
    const token = await login(a, DEMO.cashier);
    const statuses: number[] = [];
    for (let i = 0; i <= 10; i++)
      statuses.push(
        (
          await request(i % 2 ? bHttp : a.http)
            .get('/api/v1/auth/me')
            .set(bearer(token))
        ).status,
      );
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
    for (const app of [a.app, b]) expect(app.get<ResilientRateLimitStorage>(RATE_LIMIT_STORAGE).fallbackCount).toBe(0);

    const revoked = await login(a, DEMO.cashier);
    await request(bHttp).get('/api/v1/auth/me').set(bearer(revoked)).expect(200);
    await request(a.http).post('/api/v1/auth/logout').set(bearer(revoked)).expect(201);
    await poll('B refuses the revoked token', async () => (await request(bHttp).get('/api/v1/auth/me').set(bearer(revoked))).status === 401, 60, 50);
  });
});
