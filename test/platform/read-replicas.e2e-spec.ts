import { randomBytes } from 'node:crypto';
import { createConnection, Connection } from 'mysql2/promise';
import request from 'supertest';
import { ReadReplicas } from '@pos/platform';
import { bearer, DEMO, integrationToken, login, startTestApp, TestApp, usingMysql } from '../support/test-app';
import { FaultProxy } from '../fault/fault-tools';

/**
 * Issue 24 item 3: read replicas. The replica is a test double that can be told apart: a second
 * database on the same MariaDB (DB_READ_URLS=mysql://.../<copy>), a copy of the primary's
 * tables and rows made after boot, with one item renamed, reached through a TCP proxy the test
 * can cut or freeze. Its lag is its copy of the heartbeat row, which the test sets (nothing
 * replicates into it). So: a name or a missing sale says which database answered.
 */
const describeMysql = usingMysql() ? describe : describe.skip;
if (!usingMysql()) console.info('read-replicas: skipped on SQLite (needs TEST_DB=mysql: the replica is a second MariaDB database)');

const REPLICA_NAME = 'Eggs (replica copy)';

describeMysql('Read replicas (MariaDB only; skipped on SQLite)', () => {
  let t: TestApp;
  let proxy: FaultProxy;
  let server: Connection;
  let cashier: string;
  let admin: string;
  let feeds: string;
  let eggsId: number;
  let eggsName: string;
  const replicaDb = `pos_e2e_rr_${process.pid}_${randomBytes(3).toString('hex')}`;
  const api = () => request(t.http);
  const host = process.env.TEST_MYSQL_HOST ?? '127.0.0.1';
  const port = Number(process.env.TEST_MYSQL_PORT ?? 3306);
  const user = process.env.TEST_MYSQL_USER ?? 'root';
  const password = process.env.TEST_MYSQL_PASSWORD ?? '';

  /** The replica's data is as fresh as the primary `secondsAgo` (its copy of the heartbeat row). */
  async function replicaBeat(secondsAgo: number): Promise<Date> {
    const at = new Date(Date.now() - secondsAgo * 1000);
    await server.query(`UPDATE \`${replicaDb}\`.replica_heartbeat SET beat_at = ? WHERE id = 1`, [at.toISOString().replace('T', ' ').replace('Z', '')]);
    return at;
  }

  /** Every table of the primary, rows included, into the replica database (generated columns left to the server). */
  async function copyPrimaryToReplica(): Promise<void> {
    const primary = t.config.db.database;
    await server.query(`CREATE DATABASE \`${replicaDb}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await server.query('SET SESSION foreign_key_checks = 0');
    const [tables] = await server.query("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = ? AND table_type = 'BASE TABLE'", [
      primary,
    ]);
    for (const { name } of tables as { name: string }[]) {
      await server.query(`CREATE TABLE \`${replicaDb}\`.\`${name}\` LIKE \`${primary}\`.\`${name}\``);
      const [cols] = await server.query(
        "SELECT column_name AS c FROM information_schema.columns WHERE table_schema = ? AND table_name = ? AND extra NOT LIKE '%GENERATED%'",
        [primary, name],
      );
      const list = (cols as { c: string }[]).map((r) => `\`${r.c}\``).join(', ');
      await server.query(`INSERT INTO \`${replicaDb}\`.\`${name}\` (${list}) SELECT ${list} FROM \`${primary}\`.\`${name}\``);
    }
    await server.query('SET SESSION foreign_key_checks = 1');
    await server.query(`UPDATE \`${replicaDb}\`.items SET name = ? WHERE id = ?`, [REPLICA_NAME, eggsId]);
  }

  beforeAll(async () => {
    proxy = await FaultProxy.start(host, port);
    const auth = password ? `${encodeURIComponent(user)}:${encodeURIComponent(password)}` : encodeURIComponent(user);
    t = await startTestApp({
      DB_READ_URLS: `mysql://${auth}@127.0.0.1:${proxy.port}/${replicaDb}`,
      DB_READ_MAX_LAG_SECONDS: '60',
      DB_READ_CHECK_INTERVAL_MS: '0', // measured on every read: each step below is seen at once
      DB_STATEMENT_TIMEOUT_MS: '0', // no statement bound: only the check's own bound (1 s) saves a read from a frozen replica
      DB_CONNECT_TIMEOUT_MS: '2000',
      DB_ACQUIRE_TIMEOUT_MS: '2000',
      REFERENCE_CACHE_TTL_MS: '0',
      AUTH_CACHE_TTL_MS: '0',
    });
    server = await createConnection({ host, port, user, password });
    const rows = (await t.db.query("SELECT id, name FROM items WHERE sku = 'GRO-003'")) as { id: number; name: string }[];
    eggsId = Number(rows[0].id);
    eggsName = rows[0].name;
    cashier = await login(t, DEMO.cashier);
    admin = await login(t, DEMO.admin);
    feeds = (await integrationToken(t, ['sales.view', 'items.view', 'reports.sales'])).token;
    await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 100 }).expect(200);
    await copyPrimaryToReplica();
    await replicaBeat(10);
  });
  afterAll(async () => {
    proxy?.thaw();
    proxy?.up();
    await t?.close();
    await server?.query(`DROP DATABASE IF EXISTS \`${replicaDb}\``);
    await server?.end();
    await proxy?.close();
  });

  const lookup = () => api().get(`/api/v1/pos/products/${eggsId}`).set(bearer(cashier)).query({ store_id: 1 });
  const nameSeen = async () => {
    const res = await lookup();
    expect(res.status).toBe(200);
    return (res.body.data as { name: string }).name;
  };
  const salesReport = () => api().get('/api/v1/integration/reports/sales').set(bearer(feeds));

  async function sell(key: string): Promise<number> {
    const res = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .send({
        store_id: 1,
        idempotency_key: key,
        items: [{ id: eggsId, qty: 1 }],
        payments: [{ payment_method_code: 'card', amount: 4.38 }],
        total_amount: 4.38,
      });
    if (res.status !== 201) throw new Error(`checkout ${res.status} ${JSON.stringify(res.body)}`);
    return Number(res.body.data.id);
  }

  it('boots with a replication pool: every pool bounded, pool metrics per pool (primary, replica)', async () => {
    expect(t.app.get(ReadReplicas).enabled).toBe(true);
    await replicaBeat(10);
    await nameSeen(); // a replica connection exists, its lag measured
    const res = await api().get('/metrics');
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/pos_db_pool_connections\{pool="primary",state="total"\} [1-9]/);
    expect(res.text).toMatch(/pos_db_pool_connections\{pool="replica",replica="1",state="total"\} [1-9]/);
    expect(res.text).toMatch(/pos_db_replica_usable\{replica="1"\} 1/);
    expect(res.text).toMatch(/pos_db_replica_lag_seconds\{replica="1"\} 1[01](\.\d+)?\n/); // the test's heartbeat: 10 s behind
    // the replica's connections are read-only sessions: a write that strays there fails loudly
    const cluster = (t.db.driver as unknown as { poolCluster: { getConnection(p: string, cb: (e: unknown, c: PoolConn) => void): void } }).poolCluster;
    const conn = await new Promise<PoolConn>((resolve, reject) => cluster.getConnection('SLAVE0', (e, c) => (e ? reject(e) : resolve(c))));
    const primary = await new Promise<PoolConn>((resolve, reject) => cluster.getConnection('MASTER', (e, c) => (e ? reject(e) : resolve(c))));
    primary.release();
    // both pools hand out connections under the statement bound (db-timeouts.ts wraps their query)
    expect(Object.prototype.hasOwnProperty.call(primary, 'query')).toBe(true);
    expect(Object.prototype.hasOwnProperty.call(conn, 'query')).toBe(true);
    try {
      const err = await new Promise<unknown>((resolve) => conn.query('UPDATE replica_heartbeat SET beat_at = beat_at WHERE id = 1', (e) => resolve(e)));
      expect((err as { code?: string } | null)?.code).toBe('ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION');
    } finally {
      conn.release();
    }
  });

  it('lookups, the catalog list, feeds, sync downloads and reports read the replica (as_of = its heartbeat)', async () => {
    const beat = await replicaBeat(10);
    expect(await nameSeen()).toBe(REPLICA_NAME);
    const list = await api().get('/api/v1/items').set(bearer(admin)).query({ q: 'Eggs' });
    expect(list.status).toBe(200);
    expect((list.body.data as { id: number; name: string }[]).find((i) => i.id === eggsId)?.name).toBe(REPLICA_NAME);
    const feed = await api().get('/api/v1/integration/data/items').set(bearer(feeds)).query({ q: 'Eggs' });
    expect(feed.status).toBe(200);
    expect((feed.body.data as { id: number; name: string }[]).find((i) => i.id === eggsId)?.name).toBe(REPLICA_NAME);

    const devicesBefore = await count('SELECT COUNT(*) AS n FROM sync_devices');
    const sync = await api().get('/api/v1/sync/initial').set(bearer(cashier)).query({ store_id: 1, limit: 5000 });
    expect(sync.status).toBe(200);
    expect((sync.body.data.records.items as { id: number; name: string }[]).find((i) => i.id === eggsId)?.name).toBe(REPLICA_NAME);
    // the download's one write (the device's last sync) went to the primary
    expect(await count('SELECT COUNT(*) AS n FROM sync_devices')).toBe(devicesBefore + 1);

    const report = await salesReport();
    expect(report.status).toBe(200);
    const { as_of, generated_at } = report.body.meta as { as_of: string; generated_at: string };
    expect(Date.parse(as_of)).toBeLessThanOrEqual(beat.getTime());
    expect(Date.parse(generated_at)).toBeGreaterThan(beat.getTime());
  });

  it('writes and the GETs that follow them (the sale just rung, the return just made) use the primary', async () => {
    await replicaBeat(10);
    const saleId = await sell('rr-sale-1');
    const sale = await api().get(`/api/v1/sales/${saleId}`).set(bearer(cashier));
    expect(sale.status).toBe(200);
    const lineId = Number(sale.body.data.items[0].id);
    // the same sale through the integration feed: the replica has not got it (proof the feed reads there)
    expect((await api().get(`/api/v1/integration/data/sales/${saleId}`).set(bearer(feeds))).status).toBe(404);
    const ret = await api()
      .post('/api/v1/returns')
      .set(bearer(cashier))
      .send({ sale_id: saleId, items: [{ sale_item_id: lineId, quantity: 1 }] });
    expect(ret.status).toBe(200);
    const returnId = Number(ret.body.data.id);
    expect((await api().get(`/api/v1/returns/${returnId}`).set(bearer(cashier))).status).toBe(200);
    // nothing was written on the replica
    expect(await count(`SELECT COUNT(*) AS n FROM \`${replicaDb}\`.sales WHERE id = ${saleId}`, true)).toBe(0);
  });

  it('a replica lagging beyond DB_READ_MAX_LAG_SECONDS is not read: the primary answers (as_of now)', async () => {
    const saleId = await sell('rr-sale-lag');
    const beat = await replicaBeat(600);
    expect(await nameSeen()).toBe(eggsName);
    expect((await api().get(`/api/v1/integration/data/sales/${saleId}`).set(bearer(feeds))).status).toBe(200);
    const report = await salesReport();
    expect(report.status).toBe(200);
    expect(Date.parse((report.body.meta as { as_of: string }).as_of)).toBeGreaterThan(beat.getTime());
    expect(t.app.get(ReadReplicas).snapshot()[0]).toMatchObject({ usable: false });
    await replicaBeat(10);
    expect(await nameSeen()).toBe(REPLICA_NAME); // caught up: read again
  });

  it('a replica that is down or frozen: reads are served by the primary (2xx, never 5xx), then go back to it', async () => {
    const saleId = await sell('rr-sale-down');
    await replicaBeat(10);
    proxy.down();
    try {
      expect(await nameSeen()).toBe(eggsName);
      expect((await api().get(`/api/v1/integration/data/sales/${saleId}`).set(bearer(feeds))).status).toBe(200);
      expect((await salesReport()).status).toBe(200);
      expect((await api().get('/api/v1/sync/initial').set(bearer(cashier)).query({ store_id: 1, limit: 5000 })).status).toBe(200);
      expect(t.app.get(ReadReplicas).snapshot()[0]).toMatchObject({ usable: false });
    } finally {
      proxy.up();
    }
    expect(await nameSeen()).toBe(REPLICA_NAME);

    // frozen: its check does not answer within 1 s, the primary answers
    proxy.freeze();
    try {
      expect(await nameSeen()).toBe(eggsName);
    } finally {
      proxy.thaw();
    }
    let back = '';
    for (let i = 0; i < 20 && back !== REPLICA_NAME; i++) back = await nameSeen(); // (the check interval is 0 here: no back-off)
    expect(back).toBe(REPLICA_NAME);
  });

  async function count(sql: string, onServer = false): Promise<number> {
    if (onServer) {
      const [rows] = await server.query(sql);
      return Number((rows as { n: number }[])[0].n);
    }
    return Number(((await t.db.query(sql)) as { n: number }[])[0].n);
  }
});

interface PoolConn {
  query(sql: string, cb: (err: unknown) => void): void;
  release(): void;
}
