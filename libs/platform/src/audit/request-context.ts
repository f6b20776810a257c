import { AsyncFacet } from '../context/async-facet';

/** What the audit trail needs to know about the request a change runs in. */
export interface RequestFacts {
  requestId: string;
  /** Set once the request is authenticated. */
  actor?: { userId: number; name?: string };
  /** When the request arrived (performance.now(), set by the first middleware): write deadlines count from it. */
  arrivedAt?: number;
  /** Set on write routes (database/write-deadline.ts): the moment past which nothing of the request may commit. */
  writeDeadline?: { at: number; ms: number };
}

const storage = new AsyncFacet<RequestFacts>('request facts');

/**
 * A deliberately small request context: one async facet (context/async-facet.ts) entered by the first middleware
 * (one `run` per request, nothing else), holding the request id and, once the access guard has
 * authenticated the caller, who it is. The audit log reads it; nothing else depends on it, so a
 * use case called outside a request (a job, the CLI) simply names its actor itself. Write routes
 * also keep their deadline here (database/write-deadline.ts): outside a request there is none.
 */
export const RequestContext = {
  run<T>(facts: RequestFacts, fn: () => T): T {
    return storage.run(facts, fn);
  },
  get(): RequestFacts | undefined {
    return storage.get();
  },
  /** Records the authenticated caller on the current request's facts (no-op outside a request). */
  setActor(actor: { userId: number; name?: string }): void {
    const facts = storage.get();
    if (facts) facts.actor = actor;
  },
};
