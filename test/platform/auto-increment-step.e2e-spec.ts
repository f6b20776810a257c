import request from 'supertest';
import { assumeInsertReturning, insertRows, OutboxEventEntity } from '@pos/platform';
import { bearer, DEMO, login, startTestApp, TestApp, usingMysql } from '../support/test-app';

/**
 * Issue 24 item 1: on a server whose `auto_increment_increment` is above 1 (Galera sets it to the
 * cluster size, multi-primary replication to the group's) a multi-row INSERT numbers its rows
 * `first, first + increment, ...`. Checkout used to answer `first, first + 1, ...`: wrong line and
 * payment ids in the response, its idempotent replay and the sale.completed payload, and a
 * return naming the line id it was given was refused. Here every connection of this suite's own
 * pool runs with increment 3, offset 2 (session scope: the server is shared), as on the second
 * node of a 3-node Galera cluster. Both ways insertRows learns the ids are checked: MariaDB's
 * RETURNING, and on MySQL the first id plus the per-connection increment (forced here by making
 * the driver believe the server is MySQL 8). MySQL-family only: SQLite has no increment.
 */
interface PooledConnection {
  query(sql: string, cb: (err: unknown, rows?: unknown) => void): unknown;
}
interface Pool {
  getConnection(cb: (err: unknown, conn?: PooledConnection) => void): void;
}

(usingMysql() ? describe : describe.skip)('Ids on a server with auto_increment_increment 3 (MariaDB/MySQL; skipped on SQLite)', () => {
  let t: TestApp;
  let cashier: string;
  let items: Record<string, number>;
  /** Per physical connection: how many times the increment was asked (raw connection, not counted by TypeORM). */
  const incrementReads = new Map<PooledConnection, number>();
  const api = () => request(t.http);

  beforeAll(async () => {
    t = await startTestApp();
    const pool = (t.db.driver as unknown as { pool: Pool }).pool;
    const configured = new WeakSet<PooledConnection>();
    const getConnection = pool.getConnection.bind(pool);
    // Every connection handed out gets the session settings first (queued before anything the
    // application sends on it); connections made before this point get them on their next checkout.
    pool.getConnection = (cb) =>
      getConnection((err, conn) => {
        if (!err && conn && !configured.has(conn)) {
          configured.add(conn);
          conn.query('SET SESSION auto_increment_increment = 3, auto_increment_offset = 2', () => undefined);
          const query = conn.query.bind(conn);
          conn.query = (...args: Parameters<PooledConnection['query']>) => {
            if (typeof args[0] === 'string' && args[0].includes('@@session.auto_increment_increment'))
              incrementReads.set(conn, (incrementReads.get(conn) ?? 0) + 1);
            return query(...args);
          };
        }
        cb(err, conn);
      });
    cashier = await login(t, DEMO.cashier);
    items = Object.fromEntries(((await t.db.query('SELECT id, sku FROM items')) as { id: number; sku: string }[]).map((r) => [r.sku, Number(r.id)]));
    const session = await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 100 });
    expect(session.status).toBe(200);
  });
  afterAll(() => t.close());

  const checkout = (key: string) =>
    api()
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .send({
        store_id: 1,
        idempotency_key: key,
        items: [
          { id: items['BEV-003'], qty: 3 },
          { id: items['COF-002'], qty: 2 },
          { id: items['HSE-001'], qty: 1 },
        ],
        cart_discount_type: 'percent',
        cart_discount_value: 5,
        payments: [
          { payment_method_code: 'card', amount: 25 },
          { payment_method_code: 'cash', amount: 10 },
        ],
        total_amount: 33.31, // worked out in returns-workflow.e2e-spec.ts
      });
  const stored = async (saleId: number) => ({
    lines: ((await t.db.query('SELECT id FROM sale_items WHERE sale_id = ? ORDER BY id', [saleId])) as { id: number }[]).map((r) => Number(r.id)),
    payments: ((await t.db.query('SELECT id FROM sale_payments WHERE sale_id = ? ORDER BY id', [saleId])) as { id: number }[]).map((r) => Number(r.id)),
  });
  const idsOf = (sale: { items: { id: number }[]; payments: { id: number }[] }) => ({
    lines: sale.items.map((l) => l.id),
    payments: sale.payments.map((p) => p.id),
  });

  /** A three-line, two-payment checkout: ids answered, replayed, published and usable for a return equal the stored ones. */
  async function sellAndCheck(key: string): Promise<void> {
    const sale = await checkout(key);
    if (sale.status !== 201) throw new Error(JSON.stringify(sale.body));
    const saleId = Number(sale.body.data.id);
    const rows = await stored(saleId);
    expect(rows.lines).toHaveLength(3);
    expect(rows.payments).toHaveLength(2);
    // the setting took: the server spaced them by 3
    expect(rows.lines[1] - rows.lines[0]).toBe(3);
    expect(idsOf(sale.body.data)).toEqual(rows);

    const replay = await checkout(key);
    expect(replay.status).toBe(201);
    expect(Number(replay.body.data.id)).toBe(saleId);
    expect(idsOf(replay.body.data)).toEqual(rows);

    const [event] = (await t.db.query("SELECT payload FROM outbox_events WHERE type = 'sale.completed' AND payload LIKE ?", [
      `%"receipt_number":"${sale.body.data.receipt_number}"%`,
    ])) as {
      payload: string;
    }[];
    expect(event).toBeDefined();
    expect(idsOf((JSON.parse(event.payload) as { sale: { items: { id: number }[]; payments: { id: number }[] } }).sale)).toEqual(rows);

    // the last line's id as checkout gave it back: accepted, and it is that line that is returned
    const last = sale.body.data.items[2] as { id: number; sku: string };
    const ret = await api()
      .post('/api/v1/returns')
      .set(bearer(cashier))
      .send({ sale_id: saleId, items: [{ sale_item_id: last.id, quantity: 1 }] });
    expect(ret.status).toBe(200);
    expect(ret.body.data.items.map((l: { sku: string }) => l.sku)).toEqual([last.sku]);
  }

  it('MariaDB (INSERT ... RETURNING): line and payment ids in the answer, the replay and sale.completed are the stored ones; a return by line id is accepted', async () => {
    await sellAndCheck('aii-returning-1');
  });

  it('MySQL (first id + the connection’s increment, read once per connection): the same', async () => {
    assumeInsertReturning(t.db, false);
    try {
      await sellAndCheck('aii-increment-1');
      await sellAndCheck('aii-increment-2');
      // many multi-row inserts later, each connection was asked at most once
      for (let k = 0; k < 5; k++) {
        const rows = Array.from({ length: 4 }, (_, i) => ({ type: 'test.aii', storeId: null, payload: `${k}-${i}`, createdAt: new Date(), publishedAt: null }));
        const ids = await insertRows(t.db.manager, OutboxEventEntity, rows);
        const got = (await t.db.query("SELECT id FROM outbox_events WHERE type = 'test.aii' AND payload LIKE ? ORDER BY id", [`${k}-%`])) as { id: number }[];
        expect(got.map((r) => Number(r.id))).toEqual(ids);
      }
      expect(incrementReads.size).toBeGreaterThan(0);
      expect([...incrementReads.values()].every((n) => n === 1)).toBe(true);
    } finally {
      assumeInsertReturning(t.db, undefined);
      await t.db.query("DELETE FROM outbox_events WHERE type = 'test.aii'");
    }
  });

  it('rows that define different columns (TypeORM’s multi-row insert has the same flaw): exact ids, in row order', async () => {
    const rows: Partial<OutboxEventEntity>[] = [
      { type: 'test.aii_mixed', storeId: 1, payload: 'm-0', createdAt: new Date(), publishedAt: null },
      { type: 'test.aii_mixed', storeId: 1, payload: 'm-1', createdAt: new Date(), publishedAt: null },
      { type: 'test.aii_mixed', payload: 'm-2', createdAt: new Date(), publishedAt: null },
      { type: 'test.aii_mixed', payload: 'm-3', createdAt: new Date(), publishedAt: null },
      { type: 'test.aii_mixed', storeId: 1, payload: 'm-4', createdAt: new Date(), publishedAt: null },
    ];
    try {
      for (const returning of [undefined, false]) {
        assumeInsertReturning(t.db, returning);
        const ids = await insertRows(t.db.manager, OutboxEventEntity, rows);
        const got = (await t.db.query("SELECT id, payload FROM outbox_events WHERE type = 'test.aii_mixed' ORDER BY id")) as { id: number; payload: string }[];
        expect(got.map((r) => [Number(r.id), r.payload])).toEqual(ids.map((id, i) => [id, `m-${i}`]));
        await t.db.query("DELETE FROM outbox_events WHERE type = 'test.aii_mixed'");
      }
    } finally {
      assumeInsertReturning(t.db, undefined);
    }
  });

  it('MariaDB: a connection whose increment changes after its first insert (Galera: a node left) still gets the stored ids (the failover drill found this)', async () => {
    const [{ v }] = (await t.db.query('SELECT VERSION() AS v')) as { v: string }[];
    if (!/mariadb/i.test(v)) return; // MySQL keeps the increment until an explicit SET: nothing to test
    const runner = t.db.createQueryRunner();
    try {
      await runner.connect();
      const batch = async (k: number) => {
        const rows = Array.from({ length: 3 }, (_, i) => ({
          type: 'test.aii_step',
          storeId: null,
          payload: `${k}-${i}`,
          createdAt: new Date(),
          publishedAt: null,
        }));
        const ids = await insertRows(runner.manager, OutboxEventEntity, rows);
        const got = (await runner.query("SELECT id FROM outbox_events WHERE type = 'test.aii_step' AND payload LIKE ? ORDER BY id", [`${k}-%`])) as {
          id: number;
        }[];
        expect(ids).toEqual(got.map((r) => Number(r.id)));
      };
      await batch(1); // at the suite's increment 3
      await runner.query('SET SESSION auto_increment_increment = 2');
      await batch(2);
    } finally {
      await runner.query("DELETE FROM outbox_events WHERE type = 'test.aii_step'").catch(() => undefined);
      await runner.release();
    }
  });
});
