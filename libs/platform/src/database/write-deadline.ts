import { RequestContext } from '../audit/request-context';

/** A shorter limit on one connection wait or statement (db-timeouts.ts): the time left, and the error past it. */
export interface BoundCap {
  ms: number;
  error: () => Error;
}

/** The code of the error a write past its deadline fails with (the HTTP edge answers 503 `deadline_exceeded`). */
export const WRITE_DEADLINE_EXCEEDED = 'DB_WRITE_DEADLINE';

export class WriteDeadlineExceededError extends Error {
  readonly code = WRITE_DEADLINE_EXCEEDED;

  constructor(readonly deadlineMs: number) {
    super(`The request did not finish its writes within ${deadlineMs} ms of arriving; nothing of it may commit now.`);
    this.name = 'WriteDeadlineExceededError';
  }
}

/**
 * Write deadlines (issue 24 item 7). A till gives up on a request after its own timeout and the
 * cashier rings the sale again; a sale that the database commits after that moment (it was frozen
 * or stalled for less than the statement bound) is sold twice. So a write route arms a deadline,
 * counted from the request's arrival, and nothing of the request commits after it:
 *
 * - MySQL: every connection wait and every statement of the request is capped to the time left
 *   (db-timeouts.ts applies `writeDeadlineCap`). A statement still running at the deadline fails
 *   and its connection is closed, so the server rolls the transaction back, as the statement
 *   bound does; a statement asked for after the deadline (a COMMIT included) is never sent.
 * - Both databases: the ambient transaction (transactional.ts) checks the deadline before its
 *   work and again just before COMMIT, and rolls back past it. On SQLite that check is the bound
 *   (no statement there can be interrupted).
 * The one case nobody can know: a COMMIT sent before the deadline and unanswered at it may still
 * commit once the server resumes. The till's retry with the same idempotency key then replays
 * that sale; it never makes a second one.
 *
 * The deadline lives in the request's facts (RequestContext), so a job, the CLI or anything run
 * outside a request has none (a queued job's handler starts in a fresh context, in process too:
 * job-handler.registry.ts). Other work the request leaves behind inherits its context (a promise
 * it did not await): call the returned `disarm` once the response is sent, so that work is not
 * refused for a deadline that was never its own.
 */
export function armWriteDeadline(ms: number): () => void {
  const facts = RequestContext.get();
  if (!facts || ms <= 0) return () => undefined;
  const deadline = { at: (facts.arrivedAt ?? performance.now()) + ms, ms };
  facts.writeDeadline = deadline;
  return () => {
    if (facts.writeDeadline === deadline) facts.writeDeadline = undefined;
  };
}

/** Milliseconds left before the current request's write deadline (negative past it); undefined without one. */
export function writeDeadlineLeftMs(): number | undefined {
  const deadline = RequestContext.get()?.writeDeadline;
  return deadline ? deadline.at - performance.now() : undefined;
}

/** Throws WriteDeadlineExceededError when the current request's write deadline has passed. */
export function assertWithinWriteDeadline(): void {
  const deadline = RequestContext.get()?.writeDeadline;
  if (deadline && performance.now() >= deadline.at) throw new WriteDeadlineExceededError(deadline.ms);
}

/** The cap db-timeouts puts on each connection wait and statement: what is left of the request's deadline. */
export function writeDeadlineCap(): BoundCap | undefined {
  const deadline = RequestContext.get()?.writeDeadline;
  if (!deadline) return undefined;
  return { ms: deadline.at - performance.now(), error: () => new WriteDeadlineExceededError(deadline.ms) };
}

/** The error of a write stopped by its deadline, as thrown or wrapped by TypeORM (QueryFailedError.driverError). */
export function isWriteDeadlineExceeded(error: unknown): boolean {
  const e = error as { code?: unknown; driverError?: { code?: unknown } } | null;
  return (e?.driverError?.code ?? e?.code) === WRITE_DEADLINE_EXCEEDED;
}
