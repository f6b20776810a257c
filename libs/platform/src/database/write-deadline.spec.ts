import { RequestContext } from '../audit/request-context';
import { boundMysqlPool } from './db-timeouts';
import { armWriteDeadline, assertWithinWriteDeadline, isWriteDeadlineExceeded, writeDeadlineCap, writeDeadlineLeftMs } from './write-deadline';

type Cb = (err: unknown, ...rest: unknown[]) => void;

/** A mysql2-like pool whose one connection records what is sent and answers only when told. */
function fakePool() {
  const sent: { sql: string; answer: (err: unknown, rows?: unknown) => void }[] = [];
  const conn = {
    destroyed: false,
    query: (sql: string, cb: Cb) => void sent.push({ sql, answer: (err, rows) => cb(err, rows) }),
    release: () => undefined,
    destroy() {
      this.destroyed = true;
    },
  };
  const pool = {
    getConnection: (cb: (err: unknown, c?: typeof conn) => void) => cb(null, conn),
    on: () => pool,
  };
  return { pool, conn, sent };
}

const connectionOf = (pool: ReturnType<typeof fakePool>['pool']) =>
  new Promise<{ err: unknown; conn?: ReturnType<typeof fakePool>['conn'] }>((resolve) => pool.getConnection((err, conn) => resolve({ err, conn })));

/** Runs `fn` inside a request that arrived `agoMs` ago, with a write deadline of `deadlineMs`. */
function inRequest<T>(agoMs: number, deadlineMs: number, fn: () => T): T {
  return RequestContext.run({ requestId: 'r', arrivedAt: performance.now() - agoMs }, () => {
    armWriteDeadline(deadlineMs);
    return fn();
  });
}

describe('write deadline', () => {
  it('counts from arrival and is absent outside a request or on a route without one', () => {
    expect(writeDeadlineLeftMs()).toBeUndefined();
    expect(() => assertWithinWriteDeadline()).not.toThrow();
    RequestContext.run({ requestId: 'r', arrivedAt: performance.now() }, () => {
      expect(writeDeadlineCap()).toBeUndefined();
      armWriteDeadline(0); // 0: off
      expect(writeDeadlineLeftMs()).toBeUndefined();
    });
    inRequest(100, 8000, () => {
      expect(writeDeadlineLeftMs()).toBeLessThanOrEqual(7900);
      expect(() => assertWithinWriteDeadline()).not.toThrow();
    });
    RequestContext.run({ requestId: 'r', arrivedAt: performance.now() - 9000 }, () => {
      const disarm = armWriteDeadline(8000);
      expect(() => assertWithinWriteDeadline()).toThrow();
      disarm(); // the answer was sent: what the request left behind runs without it
      expect(writeDeadlineLeftMs()).toBeUndefined();
      expect(() => assertWithinWriteDeadline()).not.toThrow();
    });
    inRequest(9000, 8000, () => {
      let caught: unknown;
      try {
        assertWithinWriteDeadline();
      } catch (e) {
        caught = e;
      }
      expect(isWriteDeadlineExceeded(caught)).toBe(true);
      expect(isWriteDeadlineExceeded({ driverError: caught })).toBe(true); // as TypeORM wraps it
    });
  });

  describe('on the MySQL pool (db-timeouts cap)', () => {
    afterEach(() => jest.useRealTimers());

    it('never sends a statement (a COMMIT) asked for past the deadline: the connection is closed instead', async () => {
      const { pool, conn, sent } = fakePool();
      boundMysqlPool(pool, { acquireMs: 5000, statementMs: 30000, cap: writeDeadlineCap });
      const { conn: c } = await connectionOf(pool);
      const err = await inRequest(9000, 8000, () => new Promise<unknown>((resolve) => c!.query('COMMIT', (e: unknown) => resolve(e))));
      expect(sent).toHaveLength(0);
      expect(conn.destroyed).toBe(true);
      expect(isWriteDeadlineExceeded(err)).toBe(true);
    });

    it('cuts a statement still unanswered at the deadline, shorter than the statement bound', async () => {
      jest.useFakeTimers();
      const { pool, conn, sent } = fakePool();
      boundMysqlPool(pool, { acquireMs: 5000, statementMs: 30000, cap: writeDeadlineCap });
      const { conn: c } = await connectionOf(pool);
      const answered = inRequest(0, 1000, () => new Promise<unknown>((resolve) => c!.query('UPDATE x', (e: unknown) => resolve(e))));
      expect(sent.map((s) => s.sql)).toEqual(['UPDATE x']);
      jest.advanceTimersByTime(1000);
      const err = await answered;
      expect(conn.destroyed).toBe(true);
      expect(isWriteDeadlineExceeded(err)).toBe(true);
      sent[0].answer(null, []); // a late answer changes nothing
    });

    it('keeps the statement bound (and its error) when it is the shorter, and leaves requests without a deadline alone', async () => {
      jest.useFakeTimers();
      const { pool, sent } = fakePool();
      boundMysqlPool(pool, { acquireMs: 5000, statementMs: 500, cap: writeDeadlineCap });
      const { conn: c } = await connectionOf(pool);
      const answered = inRequest(0, 8000, () => new Promise<unknown>((resolve) => c!.query('SELECT 1', (e: unknown) => resolve(e))));
      jest.advanceTimersByTime(500);
      expect((await answered) as { code?: string }).toMatchObject({ code: 'DB_STATEMENT_TIMEOUT' });
      const plain = new Promise<unknown>((resolve) => c!.query('SELECT 2', (e: unknown, rows: unknown) => resolve(e ?? rows)));
      sent[1].answer(null, ['ok']);
      expect(await plain).toEqual(['ok']);
    });

    it('refuses a connection asked for past the deadline at once', async () => {
      const { pool } = fakePool();
      boundMysqlPool(pool, { acquireMs: 5000, statementMs: 30000, cap: writeDeadlineCap });
      const { err, conn } = await inRequest(9000, 8000, () => connectionOf(pool));
      expect(conn).toBeUndefined();
      expect(isWriteDeadlineExceeded(err)).toBe(true);
    });
  });
});
