import request from 'supertest';
import { CREDIT_NOTES_TABLE, LAST_SALE_TABLE, ROLLUP_TABLES, RollupApplier, RollupRebuildService } from '@pos/integration';
import { SqlRollupStore } from '../../libs/integration/src/infrastructure/sql-rollup.store';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 24 item 8: `reports:rebuild` commits in chunks of a bounded number of rows (a Galera
 * write set, a replica's apply) instead of one transaction over every rollup row, and ends where
 * the applier's rollups (and the one-transaction rebuild) end: drifted rows put right, rows that
 * should not exist deleted. While it runs it holds a lease that keeps the applier out, so a sale
 * made meanwhile is counted once, after it; a rebuild that fails half-way leaves the rollups
 * exact once the applier carries on; a second rebuild is refused while one runs.
 */
describe('reports:rebuild in chunks', () => {
  let t: TestApp;
  let cashier: string;
  let ids: Record<string, number>;
  let n = 0;
  const api = () => request(t.http);
  const rebuilder = () => t.app.get(RollupRebuildService);
  const apply = () => t.app.get(RollupApplier).applyPending();
  const journalRows = async () => Number(((await t.db.query('SELECT COUNT(*) AS n FROM rpt_journal')) as { n: number }[])[0].n);

  /** A sale at the server's price (the total comes from a validation with a wrong one). */
  const sell = async (sku: string, qty: number) => {
    const body = { store_id: 1, items: [{ id: ids[sku], qty }] };
    const priced = await api()
      .post('/api/v1/pos/checkout/validate')
      .set(bearer(cashier))
      .send({ ...body, idempotency_key: 'chunks-price', payments: [{ payment_method_code: 'cash', amount: 0.01 }], total_amount: 0.01 });
    const amount = Number(priced.body.server_total);
    const sold = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .send({ ...body, idempotency_key: `chunks-${++n}`, payments: [{ payment_method_code: 'cash', amount }], total_amount: amount });
    expect(sold.status).toBe(201);
  };

  /** Every rollup table, the last-sale days and the credit notes, as sorted text. */
  const dump = async () => {
    const out: Record<string, string[]> = {};
    for (const table of [...ROLLUP_TABLES.map((r) => r.name), LAST_SALE_TABLE, CREDIT_NOTES_TABLE]) {
      const rows = (await t.db.query(`SELECT * FROM ${table}`)) as Record<string, unknown>[];
      out[table] = rows
        .map((r) =>
          JSON.stringify(
            Object.fromEntries(
              Object.entries(r)
                .sort(([a], [b]) => (a < b ? -1 : 1))
                .map(([k, v]) => [k, v instanceof Date ? v.toISOString() : Number.isNaN(Number(v)) ? v : Number(v)]),
            ),
          ),
        )
        .sort();
    }
    return out;
  };

  /** COMMITs sent through TypeORM while `work` runs (every runner reports each statement to the logger). */
  const commitsDuring = async <T>(work: () => Promise<T>): Promise<{ result: T; commits: number }> => {
    const logger = t.db.logger;
    const original = logger.logQuery;
    let commits = 0;
    logger.logQuery = function (this: unknown, query, parameters, runner) {
      if (/^\s*COMMIT\b/i.test(query)) commits++;
      return original.call(logger, query, parameters, runner);
    };
    try {
      return { result: await work(), commits };
    } finally {
      logger.logQuery = original;
    }
  };

  beforeAll(async () => {
    t = await startTestApp({ ROLLUP_APPLY_INTERVAL_MS: '3600000' });
    cashier = await login(t, DEMO.cashier);
    ids = Object.fromEntries(((await t.db.query('SELECT id, sku FROM items')) as { id: number; sku: string }[]).map((r) => [r.sku, Number(r.id)]));
    await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 0 }).expect(200);
    for (const [sku, qty] of [
      ['BEV-003', 2],
      ['COF-002', 1],
      ['HSE-001', 3],
    ] as const)
      await sell(sku, qty);
    // the demo's opening stock is in the ledger without a journal row: a rebuild takes it in
    await rebuilder().rebuild(() => undefined);
    await apply();
  });
  afterAll(() => t.close());

  it('commits every few rows, and puts drifted, missing and stray rows right: the same rollups as before', async () => {
    const kept = await dump();
    const rows = Object.values(kept).reduce((s, r) => s + r.length, 0);
    expect(rows).toBeGreaterThan(50);
    await t.db.query('UPDATE rpt_sales SET total = total + 1');
    await t.db.query('DELETE FROM rpt_item_last_sale');
    await t.db.query(
      "INSERT INTO rpt_hours (span, day, store_id, warehouse_id, weekday, hour, currency_code, sales_count, net, total) VALUES (0, 1, 1, 1, 0, 3, 'USD', 1, 5, 5)",
    );
    expect(await dump()).not.toEqual(kept);

    const { result, commits } = await commitsDuring(() => rebuilder().rebuild(() => undefined, { chunkRows: 7 }));
    expect(result.rows).toBe(rows);
    // at least one transaction per 7 rows written, each committed on its own
    expect(result.transactions).toBeGreaterThanOrEqual(Math.ceil(rows / 7));
    expect(commits).toBeGreaterThanOrEqual(result.transactions);
    expect(await dump()).toEqual(kept);

    // and one chunk per table when the chunks are large: the same result
    const large = await rebuilder().rebuild(() => undefined, { chunkRows: 1_000_000 });
    expect(large.transactions).toBeLessThan(result.transactions);
    expect(await dump()).toEqual(kept);
  });

  it('keeps the applier out while it runs: a sale made meanwhile is counted once, after it', async () => {
    const report = await rebuilder().rebuild(
      async (message) => {
        if (!message.startsWith('writing')) return;
        await sell('BEV-003', 1);
        expect(await apply()).toBe(0); // the lease: the applier skips
        expect(await journalRows()).toBe(1);
      },
      { chunkRows: 11 },
    );
    expect(report.transactions).toBeGreaterThan(10);
    expect(await journalRows()).toBe(1);
    expect(await apply()).toBe(1);
    const applied = await dump();
    await rebuilder().rebuild(() => undefined);
    expect(await dump()).toEqual(applied);
  });

  it('refuses a second rebuild while one runs', async () => {
    let second: unknown;
    await rebuilder().rebuild(async (message) => {
      if (message.startsWith('writing'))
        second = await rebuilder()
          .rebuild(() => undefined)
          .catch((e: unknown) => e);
    });
    expect(second).toBeInstanceOf(Error);
    expect((second as Error).message).toMatch(/Another reports:rebuild is running/);
  });

  it('a rebuild that fails half-way leaves the rollups exact once the applier carries on (nothing counted twice or lost)', async () => {
    await sell('COF-002', 2); // pending when the rebuild starts: it applies it first
    await t.db.query('UPDATE rpt_items SET units = units + 5');
    const real = SqlRollupStore.prototype.upsert;
    let calls = 0;
    const spy = jest.spyOn(SqlRollupStore.prototype, 'upsert').mockImplementation(async function (this: SqlRollupStore, ...args) {
      if (++calls === 4) throw new Error('the node went away');
      return real.apply(this, args);
    });
    try {
      await expect(rebuilder().rebuild(() => undefined, { chunkRows: 5 })).rejects.toThrow('the node went away');
    } finally {
      spy.mockRestore();
    }
    // the lease was given up: the applier carries on with what came after
    await sell('HSE-001', 1);
    expect(await apply()).toBe(1);
    const carried = await dump();
    // the drift not yet rewritten stays (a rebuild is what fixes it); nothing else differs from a full rebuild
    await rebuilder().rebuild(() => undefined);
    const rebuilt = await dump();
    const undrift = (rows: string[]) => rows.map((r) => JSON.stringify({ ...(JSON.parse(r) as Record<string, unknown>), units: null }));
    expect({ ...carried, rpt_items: undrift(carried.rpt_items) }).toEqual({ ...rebuilt, rpt_items: undrift(rebuilt.rpt_items) });
  });
});
