import request from 'supertest';
import { DomainEvents } from '@pos/platform';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp, usingMysql } from '../support/test-app';
import { FaultProxy } from './fault-tools';

/**
 * Issue 24 item 7: a write route (checkout, upload, returns, session and cash movements) commits
 * within its deadline from arrival or not at all, and answers 503 `deadline_exceeded` with
 * Retry-After; the till's retry with the same idempotency key then sells exactly once.
 *  - both databases: a step inside the sale's transaction that outlasts the deadline (injected)
 *    is rolled back, never committed (the check before COMMIT; on MySQL also the statement cap);
 *  - MariaDB behind a TCP proxy: frozen longer than the deadline but far shorter than the
 *    statement bound, a checkout and an upload answer 503 while the database is still frozen, and
 *    nothing of them commits once it runs again.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const count = async (t: TestApp, sql: string, params: unknown[] = []) => Number(((await t.db.query(sql, params)) as { n: unknown }[])[0].n);

async function firstItem(t: TestApp): Promise<number> {
  return Number(((await t.db.query("SELECT id FROM items WHERE sku = 'GRO-003'")) as { id: unknown }[])[0].id); // eggs 4.29 + 2% food tax
}

const sale = (itemId: number, key: string) => ({
  store_id: 1,
  idempotency_key: key,
  items: [{ id: itemId, qty: 1 }],
  payments: [{ payment_method_code: 'card', amount: 4.38 }],
  total_amount: 4.38,
});

function expectDeadlineExceeded(res: request.Response): void {
  expectErrorEnvelope(res, 503);
  expect(res.body.code).toBe('deadline_exceeded');
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
}

describe('Write deadline: a step inside the transaction outlasting it', () => {
  let t: TestApp;
  let cashier: string;
  let itemId: number;
  const api = () => request(t.http);
  const DEADLINE_MS = 2000;

  beforeAll(async () => {
    t = await startTestApp({ POS_WRITE_DEADLINE_MS: String(DEADLINE_MS) });
    cashier = await login(t, DEMO.cashier);
    itemId = await firstItem(t);
    await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 0 }).expect(200);
  });
  afterAll(() => t?.close());

  it('rolls the sale back instead of committing it past the deadline; the retry with the same key sells once', async () => {
    const events = t.app.get(DomainEvents);
    const publish = events.publish.bind(events);
    // The sale's last step before its commit, made slower than the whole deadline once.
    const slow = jest.spyOn(events, 'publish').mockImplementationOnce(async (def, facts) => {
      await sleep(DEADLINE_MS + 500);
      return publish(def, facts);
    });
    const before = await count(t, 'SELECT COUNT(*) AS n FROM sales');
    try {
      const late = await api().post('/api/v1/pos/checkout').set(bearer(cashier)).send(sale(itemId, 'deadline-slow-1'));
      expect(slow).toHaveBeenCalled();
      expectDeadlineExceeded(late);
    } finally {
      slow.mockRestore();
    }
    expect(await count(t, 'SELECT COUNT(*) AS n FROM sales')).toBe(before);
    expect(await count(t, "SELECT COUNT(*) AS n FROM sales WHERE idempotency_key = 'deadline-slow-1'")).toBe(0);
    expect(await count(t, "SELECT COUNT(*) AS n FROM idempotency_keys WHERE idem_key = 'deadline-slow-1'")).toBe(0);

    const retry = await api().post('/api/v1/pos/checkout').set(bearer(cashier)).send(sale(itemId, 'deadline-slow-1'));
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    const again = await api().post('/api/v1/pos/checkout').set(bearer(cashier)).send(sale(itemId, 'deadline-slow-1'));
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data.id).toBe(retry.body.data.id);
    expect(await count(t, "SELECT COUNT(*) AS n FROM sales WHERE idempotency_key = 'deadline-slow-1'")).toBe(1);
  });
});

const describeMysql = usingMysql() ? describe : describe.skip;
if (!usingMysql()) console.info('write-deadline (freeze): skipped (needs TEST_DB=mysql: the freeze is a MariaDB behind a TCP proxy)');

describeMysql('Write deadline: the database frozen longer than it, shorter than the statement bound', () => {
  let t: TestApp;
  let proxy: FaultProxy;
  let cashier: string;
  let itemId: number;
  const api = () => request(t.http);
  const DEADLINE_MS = 1500;
  const FREEZE_MS = 4 * DEADLINE_MS; // well under the statement bound (30 s)

  beforeAll(async () => {
    proxy = await FaultProxy.start(process.env.TEST_MYSQL_HOST ?? '127.0.0.1', Number(process.env.TEST_MYSQL_PORT ?? 3306));
    t = await startTestApp({
      DB_HOST: '127.0.0.1',
      DB_PORT: String(proxy.port),
      POS_WRITE_DEADLINE_MS: String(DEADLINE_MS),
      SYNC_UPLOAD_DEADLINE_MS: String(DEADLINE_MS),
      DB_STATEMENT_TIMEOUT_MS: '30000',
      DB_ACQUIRE_TIMEOUT_MS: '30000',
      // Token and store from the caches: the write itself is what meets the freeze.
      AUTH_CACHE_TTL_MS: '600000',
      REFERENCE_CACHE_TTL_MS: '600000',
    });
    cashier = await login(t, DEMO.cashier);
    itemId = await firstItem(t);
    await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 0 }).expect(200);
    await api().post('/api/v1/pos/checkout').set(bearer(cashier)).send(sale(itemId, 'deadline-warm-up')).expect(201);
  });
  afterAll(async () => {
    proxy?.thaw();
    await t?.close();
    await proxy?.close();
  });

  /** Sends `send()` with the database frozen: its answer, and whether it came before the thaw. */
  async function duringFreeze(label: string, send: () => request.Test): Promise<{ res: request.Response; beforeThaw: boolean }> {
    let thawed = false;
    let answered = false;
    proxy.freeze();
    const started = performance.now();
    const pending = send().then((res) => {
      answered = true;
      console.info(`${label}: ${res.status} ${res.body.code ?? ''} after ${Math.round(performance.now() - started)} ms (deadline ${DEADLINE_MS} ms)`);
      return { res, beforeThaw: !thawed };
    });
    try {
      // Frozen for FREEZE_MS, or until a little after the answer (still longer than the deadline).
      for (let waited = 0; waited < FREEZE_MS && !answered; waited += 100) await sleep(100);
      if (answered) await sleep(DEADLINE_MS);
    } finally {
      thawed = true;
      proxy.thaw();
    }
    return pending;
  }

  /** Once the server runs again it sees the closed connections and rolls their transactions back. */
  async function afterThaw(): Promise<void> {
    for (let i = 0; i < 20; i++) {
      const ok = await t.db.query('SELECT 1').then(
        () => true,
        () => false,
      );
      if (ok) return;
      await sleep(250);
    }
  }

  it('answers a checkout 503 while still frozen, commits nothing after the thaw, and the retry sells once', async () => {
    const before = await count(t, 'SELECT COUNT(*) AS n FROM sales');
    const { res, beforeThaw } = await duringFreeze('frozen: checkout', () =>
      api().post('/api/v1/pos/checkout').set(bearer(cashier)).send(sale(itemId, 'deadline-frozen-1')),
    );
    expectDeadlineExceeded(res);
    expect(beforeThaw).toBe(true);
    await afterThaw();
    for (let i = 0; i < 3; i++) {
      // A commit that was going to land late would have landed by now (checked a few times).
      expect(await count(t, "SELECT COUNT(*) AS n FROM sales WHERE idempotency_key = 'deadline-frozen-1'")).toBe(0);
      await sleep(300);
    }
    expect(await count(t, 'SELECT COUNT(*) AS n FROM sales')).toBe(before);

    const retry = await api().post('/api/v1/pos/checkout').set(bearer(cashier)).send(sale(itemId, 'deadline-frozen-1'));
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    const again = await api().post('/api/v1/pos/checkout').set(bearer(cashier)).send(sale(itemId, 'deadline-frozen-1'));
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data.id).toBe(retry.body.data.id);
    expect(await count(t, "SELECT COUNT(*) AS n FROM sales WHERE idempotency_key = 'deadline-frozen-1'")).toBe(1);
  });

  it('answers an offline upload 503 while still frozen; sent again it is accepted once, then a duplicate', async () => {
    const offline = {
      idempotency_key: 'deadline-upload-1',
      type: 'sale',
      offline_created_at: new Date(Date.now() - 60_000).toISOString(),
      data: { items: [{ id: itemId, qty: 1, price: 4.29 }], payments: [{ payment_method_code: 'cash', amount: 4.38 }], total_amount: 4.38 },
    };
    const upload = () =>
      api()
        .post('/api/v1/sync/upload')
        .set(bearer(cashier))
        .send({ store_id: 1, transactions: [offline] });
    const { res, beforeThaw } = await duringFreeze('frozen: upload', upload);
    expectDeadlineExceeded(res);
    expect(beforeThaw).toBe(true);
    await afterThaw();
    expect(await count(t, "SELECT COUNT(*) AS n FROM sales WHERE idempotency_key = 'deadline-upload-1'")).toBe(0);

    const retry = await upload();
    expect(retry.status).toBe(200);
    expect(retry.body.data.results[0].status).toBe('accepted');
    const again = await upload();
    expect(again.body.data.results[0].status).toBe('duplicate');
    expect(await count(t, "SELECT COUNT(*) AS n FROM sales WHERE idempotency_key = 'deadline-upload-1'")).toBe(1);
  });
});
