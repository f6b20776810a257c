import type { DbType } from '../config';

/**
 * Gives the event loop back: resolves in the check phase after the next poll phase, so every
 * request, timer and socket event that is waiting is served first. Long work calls it between
 * its chunks (bulk price jobs, outbox relay batches, rollup batches, retention purges).
 *
 * Why a macrotask and not just `await`: on SQLite, better-sqlite3 answers every statement
 * synchronously, so an async loop of transactions only ever waits on promises that are already
 * settled (microtasks). Such a loop never lets the event loop reach its poll phase until it is
 * done, and in the embedded default (in-process queue, periodic work in the API process) every
 * till's request waits for the whole job. With MySQL the driver's I/O yields anyway; the extra
 * turn costs microseconds.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Rows a long job writes per transaction. On SQLite a chunk blocks the whole process for its
 * duration (the driver is synchronous, see yieldToEventLoop) and holds the single writer lock,
 * so chunks there are a fifth of the size: a till waits at most one small chunk (tens of
 * milliseconds), not one of 500 rows (about half a second on a 2-core machine). On MySQL the
 * event loop stays free and bigger transactions amortize their round trips.
 */
export function chunkRowsFor(db: DbType, rows: number): number {
  return db === 'sqlite' ? Math.max(1, Math.ceil(rows / 5)) : rows;
}
