import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import request from 'supertest';
import { RollupApplier } from '@pos/integration';
import { AppConfig, Metrics, WorkerLeases } from '@pos/platform';
import { OutboxRelayService } from '@pos/webhooks';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { bearer, DEMO, login, startTestApp, TestApp, usingMysql } from '../support/test-app';

/**
 * Issue 24 item 5: the rollup applier and the outbox relay run in one process at a time across
 * every worker sharing a database (a `worker_leases` row), because their row locks exclude only
 * on one node of a multi-primary cluster. Two workers (two application contexts in this process,
 * one database): only the lease holder applies and relays, the other does nothing at all; a
 * holder that closes hands over at once, one that dies (no renewal, no release) is replaced once
 * its lease expires. On the embedded database (one process) the lease costs nothing.
 */
const LEASES = ['rollup-applier', 'outbox-relay'] as const;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => Promise<boolean> | boolean, tries = 300, everyMs = 50): Promise<number> {
  for (let i = 1; i <= tries; i++) {
    if (await check()) return i;
    await sleep(everyMs);
  }
  throw new Error(`condition not met after ${tries} tries`);
}

describe('Worker leases: one applier and one relay', () => {
  let t: TestApp;
  let cashier: string;
  let ids: Record<string, number>;
  let n = 0;
  const api = () => request(t.http);

  /** A sale: one journal row for the applier, outbox events for the relay. */
  const sell = async () => {
    const body = { store_id: 1, items: [{ id: ids['BEV-001'], qty: 1 }] };
    const priced = await api()
      .post('/api/v1/pos/checkout/validate')
      .set(bearer(cashier))
      .send({ ...body, idempotency_key: 'lease-price', payments: [{ payment_method_code: 'cash', amount: 0.01 }], total_amount: 0.01 });
    const amount = Number(priced.body.server_total);
    const sold = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .send({ ...body, idempotency_key: `lease-${++n}`, payments: [{ payment_method_code: 'cash', amount }], total_amount: amount });
    if (sold.status !== 201) throw new Error(JSON.stringify(sold.body));
  };
  const count = async (sql: string) => Number((await t.db.query(sql))[0].n);
  /** Nothing left for the applier or the relay. */
  const drained = async () =>
    (await count('SELECT COUNT(*) AS n FROM rpt_journal')) === 0 && (await count('SELECT COUNT(*) AS n FROM outbox_events WHERE published_at IS NULL')) === 0;

  beforeAll(async () => {
    t = await startTestApp({ ROLLUP_APPLY_INTERVAL_MS: '50', WEBHOOK_RELAY_INTERVAL_MS: '20' });
    cashier = await login(t, DEMO.cashier);
    ids = Object.fromEntries((await t.db.query('SELECT id, sku FROM items')).map((r: { id: number; sku: string }) => [r.sku, Number(r.id)]));
    await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 0 }).expect(200);
  });
  afterAll(() => t?.close());

  const embedded = usingMysql() ? it.skip : it;
  embedded('embedded database: the API process applies and relays with no lease query, and says it holds both', async () => {
    const leases = t.app.get(WorkerLeases);
    expect(leases.local).toBe(true);
    await sell();
    await until(drained);
    expect(await count('SELECT COUNT(*) AS n FROM worker_leases')).toBe(0);
    for (const name of LEASES) expect(leases.holds(name)).toBe(true);
    const text = await t.app.get(Metrics).text();
    for (const name of LEASES) expect(text).toContain(`pos_worker_lease_held{name="${name}"} 1`);
  });

  const cluster = usingMysql() ? describe : describe.skip;
  if (!usingMysql()) console.info('worker-leases: two-worker cases skipped (need TEST_DB=mysql: workers consume BullMQ)');

  cluster('two workers on one database (MySQL)', () => {
    const workers: INestApplicationContext[] = [];
    afterAll(async () => {
      for (const w of workers) await w.close().catch(() => undefined);
    });

    // On a Galera cluster (TEST_MYSQL_PORT: one node), TEST_MYSQL_OTHER_NODE_PORT puts every
    // second worker on another node: exclusion then rests on certification, not on row locks.
    const otherNode = process.env.TEST_MYSQL_OTHER_NODE_PORT;
    let started = 0;

    /** A worker with its own process-like identity and a spy on each singleton's periodic run. */
    async function startWorker(ttlMs: number) {
      const node = otherNode && started++ % 2 === 1 ? { db: { ...t.config.db, port: Number(otherNode) } } : {};
      const config: AppConfig = { ...t.config, ...node, workerLeaseTtlMs: ttlMs };
      const app = await NestFactory.createApplicationContext(WorkerModule.register(config), { logger: false });
      await app.init();
      workers.push(app);
      const runs = {
        'rollup-applier': jest.spyOn(app.get(RollupApplier), 'applyPending'),
        'outbox-relay': jest.spyOn(app.get(OutboxRelayService), 'drain'),
      };
      const leases = app.get(WorkerLeases);
      return {
        app,
        leases,
        runs,
        calls: (name: (typeof LEASES)[number]) => runs[name].mock.calls.length,
        holdsBoth: () => LEASES.every((name) => leases.holds(name)),
        close: async () => {
          await app.close();
          workers.splice(workers.indexOf(app), 1);
        },
      };
    }
    type Worker = Awaited<ReturnType<typeof startWorker>>;
    const leaseRow = async (name: string) =>
      (
        (await t.db.query('SELECT holder, expires_at > UTC_TIMESTAMP(6) AS live FROM worker_leases WHERE name = ?', [name])) as {
          holder: string | null;
          live: number | string;
        }[]
      )[0];

    /** Sells, waits until everything is applied and relayed, and checks that only `holder` ran either task. */
    async function onlyHolderWorks(holder: Worker, standBy: Worker): Promise<void> {
      const before = Object.fromEntries(LEASES.map((name) => [name, holder.calls(name)]));
      for (let i = 0; i < 3; i++) await sell();
      await until(drained);
      for (const name of LEASES) {
        expect(holder.calls(name)).toBeGreaterThan(before[name]);
        expect(standBy.calls(name)).toBe(0);
        expect((await leaseRow(name)).holder).toBe(holder.leases.holder);
      }
    }

    it('only the holder applies and relays; closing it hands both over at once', async () => {
      const a = await startWorker(30_000);
      await until(a.holdsBoth);
      const b = await startWorker(30_000);
      // the stand-by asks (and is refused) at least once a second: let it ask
      await until(() => LEASES.every((name) => b.leases.snapshot().some((l) => l.name === name)));
      await onlyHolderWorks(a, b);
      for (const name of LEASES) expect(b.leases.holds(name)).toBe(false);
      const gauges = [await a.app.get(Metrics).text(), await b.app.get(Metrics).text()];
      for (const name of LEASES) {
        expect(gauges[0]).toContain(`pos_worker_lease_held{name="${name}"} 1`);
        expect(gauges[1]).toContain(`pos_worker_lease_held{name="${name}"} 0`);
      }

      await a.close();
      // released (the row is free, or the stand-by has it already), not left to expire: the
      // stand-by retries once a second and takes over long before the 30 s TTL could run out
      for (const name of LEASES) expect((await leaseRow(name)).holder).not.toBe(a.leases.holder);
      const tries = await until(b.holdsBoth, 100);
      console.info(`worker leases: graceful handover after ${tries} tries of 50 ms (TTL 30000 ms)`);
      b.runs['rollup-applier'].mockClear();
      b.runs['outbox-relay'].mockClear();
      const c = await startWorker(30_000);
      await onlyHolderWorks(b, c);
      await c.close();
      await b.close();
    });

    it('a holder that dies (no renewal, no release) is replaced once its lease expires, not before', async () => {
      const ttl = 4000;
      const a = await startWorker(ttl);
      await until(a.holdsBoth);
      const b = await startWorker(ttl);
      await onlyHolderWorks(a, b);

      // a crash: the process stops (no more renewals) without giving its leases up
      jest.spyOn(a.leases, 'releaseAll').mockResolvedValue(undefined);
      await a.close();
      for (const name of LEASES) {
        const row = await leaseRow(name);
        expect(row.holder).toBe(a.leases.holder);
        expect(Number(row.live)).toBe(1);
      }
      await sell();
      // until the row expires the stand-by does nothing, then it takes both leases and the work
      let sawStandBy = false;
      const tries = await until(async () => {
        const held = b.holdsBoth();
        if (!held) {
          sawStandBy = true;
          const live = await Promise.all(
            LEASES.map(async (name) => Number((await leaseRow(name)).live) === 1 && (await leaseRow(name)).holder === a.leases.holder),
          );
          if (live.every(Boolean)) for (const name of LEASES) expect(b.calls(name)).toBe(0);
        }
        return held;
      }, 400);
      console.info(`worker leases: takeover after a crash in ${tries} tries of 50 ms (TTL ${ttl} ms)`);
      expect(sawStandBy).toBe(true);
      for (const name of LEASES) expect((await leaseRow(name)).holder).toBe(b.leases.holder);
      await until(drained);
      for (const name of LEASES) expect(b.calls(name)).toBeGreaterThan(0);
      await b.close();
    });
  });
});
