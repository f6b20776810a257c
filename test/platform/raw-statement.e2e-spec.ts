import { randomUUID } from 'node:crypto';
import { QueryFailedError } from 'typeorm';
import { insertRows, isUniqueViolation, OutboxEventEntity, runStatement } from '@pos/platform';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * runStatement (the checkout's statements inside its transaction: straight to the transaction's
 * connection on MySQL, `em.query` elsewhere) answers, logs and fails exactly as `em.query` does,
 * on both databases: the same raw result, each statement told to the data source's logger (what
 * the statement budgets count), a failure a QueryFailedError carrying the driver's code.
 */
/** A DATETIME both drivers bind as is (SQLite binds no Date). */
const AT = '2026-01-01 00:00:00';

describe('runStatement', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  /** Every statement the data source's logger is told of while `work` runs. */
  async function logged(work: () => Promise<void>): Promise<string[]> {
    const statements: string[] = [];
    const original = t.db.logger.logQuery;
    t.db.logger.logQuery = (query, parameters, runner) => {
      statements.push(query);
      return original.call(t.db.logger, query, parameters, runner);
    };
    try {
      await work();
    } finally {
      t.db.logger.logQuery = original;
    }
    return statements;
  }

  /** Runs `work` in a transaction that is always rolled back (nothing it writes stays). */
  async function inRolledBackTransaction(work: (em: TestApp['db']['manager']) => Promise<void>): Promise<void> {
    const runner = t.db.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      await work(runner.manager);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  }

  it('answers what em.query answers, in the transaction, and logs every statement', async () => {
    const key = `rs-${randomUUID()}`;
    const write = 'INSERT INTO outbox_events (type, store_id, payload, created_at) VALUES (?, NULL, ?, ?)';
    const count = 'SELECT COUNT(*) AS n FROM outbox_events WHERE payload = ?';
    await inRolledBackTransaction(async (em) => {
      const sql = 'SELECT id, code FROM stores ORDER BY id';
      expect(await runStatement(em, sql, [])).toEqual(await em.query(sql, []));
      // an INSERT's answer (MySQL: the OK packet with insertId; SQLite: no rows without RETURNING)
      let ours: unknown;
      const statements = await logged(async () => {
        ours = await runStatement(em, write, ['test.raw_statement', key, AT]);
      });
      expect(statements).toEqual([write]);
      const theirs = (await em.query(write, ['test.raw_statement', key, AT])) as Record<string, unknown>;
      expect(Object.keys((ours ?? {}) as object).sort()).toEqual(Object.keys(theirs ?? {}).sort());
      if (ours && typeof ours === 'object' && 'insertId' in ours) expect(Number(theirs.insertId)).toBe(Number(ours.insertId) + 1);
      // both writes in this transaction, seen by it
      expect(Number(((await runStatement(em, count, [key])) as { n: number | string }[])[0].n)).toBe(2);
    });
    // and rolled back with it
    expect(Number(((await t.db.query(count, [key])) as { n: number | string }[])[0].n)).toBe(0);
  });

  it('fails as em.query fails: a QueryFailedError with the driver error, logged', async () => {
    const failed: string[] = [];
    const original = t.db.logger.logQueryError;
    t.db.logger.logQueryError = (error, query, parameters, runner) => {
      failed.push(query);
      return original.call(t.db.logger, error, query, parameters, runner);
    };
    const duplicate = 'INSERT INTO outbox_events (id, type, payload, created_at) SELECT id, type, payload, created_at FROM outbox_events WHERE id = ?';
    try {
      await inRolledBackTransaction(async (em) => {
        const [id] = await insertRows(em, OutboxEventEntity, [
          { type: 'test.raw_statement', storeId: null, payload: 'dup', createdAt: new Date(), publishedAt: null },
        ]);
        const ours = await runStatement(em, duplicate, [id]).catch((e: unknown) => e);
        const theirs = await em.query(duplicate, [id]).catch((e: unknown) => e);
        expect(ours).toBeInstanceOf(QueryFailedError);
        expect(isUniqueViolation(ours)).toBe(true);
        expect((ours as QueryFailedError).query).toBe(duplicate);
        expect((ours as QueryFailedError).message).toBe((theirs as QueryFailedError).message);
      });
    } finally {
      t.db.logger.logQueryError = original;
    }
    expect(failed).toEqual([duplicate, duplicate]);
  });

  it('is what insertRows writes with in a transaction: the rows and their ids in order, one statement', async () => {
    const tag = randomUUID();
    await inRolledBackTransaction(async (em) => {
      let ids: number[] = [];
      const rows = [0, 1, 2].map((i) => ({ type: 'test.raw_statement', storeId: null, payload: `${tag}-${i}`, createdAt: new Date(), publishedAt: null }));
      const statements = await logged(async () => {
        ids = await insertRows(em, OutboxEventEntity, rows);
      });
      expect(statements).toHaveLength(1);
      const stored = (await em.query('SELECT id, payload FROM outbox_events WHERE payload LIKE ? ORDER BY id', [`${tag}-%`])) as {
        id: number;
        payload: string;
      }[];
      expect(stored.map((r) => [Number(r.id), r.payload])).toEqual(ids.map((id, i) => [id, `${tag}-${i}`]));
    });
  });
});
