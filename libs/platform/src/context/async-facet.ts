import { ClsService, ClsServiceManager } from 'nestjs-cls';

/** nestjs-cls's one AsyncLocalStorage (its transactions are kept there): created when nestjs-cls is loaded. */
const cls: ClsService = ClsServiceManager.getClsService();

/**
 * A value carried through everything a piece of work awaits (a request's facts, a transaction's
 * commit scope, a read scope, a held moment), kept under its own key in the process's one async
 * context: nestjs-cls's store. On Node 20 every enabled AsyncLocalStorage does its own
 * propagation work for every promise the process creates, so each further storage would cost
 * every await of every request; one storage with a key per concern costs that once.
 *
 * `run` gives `work` a copy of the current store with this facet set, as a storage of its own
 * would: the outer work keeps its value, and the other facets (and an open transaction) carry on.
 * Work started with a fresh nestjs-cls context (`cls.run({ ifNested: 'override' })`: a queued
 * job's handler) starts with no facet set: it does not carry the enqueuing request's.
 */
export class AsyncFacet<T> {
  private readonly key: symbol;

  constructor(name: string) {
    this.key = Symbol(name);
  }

  run<R>(value: T, work: () => R): R {
    return cls.runWith({ ...cls.get(), [this.key]: value }, work);
  }

  get(): T | undefined {
    return (cls.get() as Record<symbol, T | undefined> | undefined)?.[this.key];
  }
}
