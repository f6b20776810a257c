import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { DbType } from '../config';
import { afterTry, isHeld, LeaseState, LeaseTiming, leaseTiming, nextStep, NOT_HELD } from './lease-state';

/** Where leases are decided: the `worker_leases` table, or nothing at all (the embedded database). */
export interface LeaseStore {
  /** Takes or renews `name` for `holder` until the store's now + ttlMs; true when this holder has it. */
  acquire(name: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Gives `name` up if `holder` has it, so a stand-by takes over at its next try. */
  release(name: string, holder: string): Promise<void>;
}

/**
 * `worker_leases` on MySQL/MariaDB: one row per lease name. Taking or renewing is ONE conditional
 * UPDATE, and its affected-row count says who won: the row is this holder's already, or its
 * expiry has passed. Row locks order the writers on one server; on a multi-primary Galera cluster
 * two nodes may both match the row locally, and certification lets exactly one commit (the other
 * gets a deadlock error, or with wsrep_retry_autocommit re-runs the statement and matches
 * nothing): either way one winner. Expiry is compared with the database's clock, in UTC
 * (UTC_TIMESTAMP(6), whatever a node's time zone), never an application host's: on a cluster the
 * statement runs on the node a process is connected to, so database nodes' clocks must agree to
 * well within TTL/2 (NTP, which Galera deployments run anyway). Each statement is autocommitted
 * on its own pooled connection of the write endpoint (DataSource.query: never a read replica),
 * never inside a use case's transaction.
 */
export class SqlLeaseStore implements LeaseStore {
  private readonly known = new Set<string>();

  constructor(private readonly db: DataSource) {}

  async acquire(name: string, holder: string, ttlMs: number): Promise<boolean> {
    if (!this.known.has(name)) {
      // the row appears on first use, free (INSERT IGNORE: a row already there is kept, no write)
      await this.db.query("INSERT IGNORE INTO worker_leases (name, holder, expires_at) VALUES (?, NULL, '1970-01-01 00:00:00')", [name]);
      this.known.add(name);
    }
    const result = (await this.db.query(
      'UPDATE worker_leases SET holder = ?, expires_at = UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND WHERE name = ? AND (holder = ? OR expires_at < UTC_TIMESTAMP(6))',
      [holder, Math.round(ttlMs * 1000), name, holder],
    )) as { affectedRows?: number };
    return result.affectedRows === 1;
  }

  async release(name: string, holder: string): Promise<void> {
    await this.db.query("UPDATE worker_leases SET holder = NULL, expires_at = '1970-01-01 00:00:00' WHERE name = ? AND holder = ?", [name, holder]);
  }
}

/** `host:pid:random`: unique per process, and says which process holds a lease when read in the table. */
export function newHolderId(): string {
  return `${hostname().slice(0, 60)}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

/**
 * The named leases of this process: which periodic singletons it runs (the rollup applier, the
 * outbox relay) when several workers or API replicas share one database. PeriodicScheduler asks
 * `runHolding` before each run of a task that names a lease; only the process holding it runs the
 * task, the others stand by and take over when it is released (graceful shutdown) or expires (a
 * crash: no renewal for WORKER_LEASE_TTL_MS). A run longer than a third of the TTL renews in the
 * background while it lasts. Queries are paced by lease-state.ts: at most three per TTL from a
 * holder, one a second from a stand-by, none per run in between.
 *
 * The lease only decides who does the work; correctness never rests on it: each task keeps its
 * own row locks and transactions (a run that outlives a lost lease, say after a long pause, is
 * still safe, at worst aborted or retried like today).
 *
 * On the embedded SQLite database there is no store: the database file belongs to one process
 * (the API runs the periodic work there), so every lease is this process's, at no cost.
 */
export class WorkerLeases {
  readonly holder = newHolderId();
  private readonly logger = new Logger('Leases');
  private readonly timing: LeaseTiming;
  private readonly states = new Map<string, LeaseState>();
  /** One query at a time per lease (the background renewal and a run's own ask never cross). */
  private readonly inFlight = new Map<string, Promise<boolean>>();
  private closed = false;

  constructor(
    private readonly store: LeaseStore | null,
    ttlMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.timing = leaseTiming(ttlMs);
  }

  static for(dbType: DbType, db: DataSource, ttlMs: number): WorkerLeases {
    return new WorkerLeases(dbType === 'sqlite' ? null : new SqlLeaseStore(db), ttlMs);
  }

  /** True when there is no store: every lease is held, nothing is queried. */
  get local(): boolean {
    return this.store === null;
  }

  /** Names this process has asked for, with whether it holds each now (the metrics gauge). */
  snapshot(): { name: string; held: boolean }[] {
    return [...this.states.keys()].map((name) => ({ name, held: this.holds(name) }));
  }

  /** Whether this process holds `name` now, from what it last heard (no query). */
  holds(name: string): boolean {
    if (this.local) return !this.closed && this.states.has(name);
    return isHeld(this.states.get(name) ?? NOT_HELD, this.now());
  }

  /** Asks for `name` if it is time to (see lease-state.ts); true when this process may act as its holder. */
  hold(name: string): Promise<boolean> {
    if (!this.states.has(name)) this.states.set(name, NOT_HELD);
    if (this.closed) return Promise.resolve(false);
    if (this.local) return Promise.resolve(true);
    const pending = this.inFlight.get(name);
    if (pending) return pending;
    const state = this.states.get(name)!;
    const step = nextStep(state, this.now(), this.timing);
    if (step === 'act') return Promise.resolve(true);
    if (step === 'stand-by') return Promise.resolve(false);
    const ask = this.ask(name).finally(() => this.inFlight.delete(name));
    this.inFlight.set(name, ask);
    return ask;
  }

  /** Runs `work` if this process holds `name`, renewing in the background while it runs; false when it stood by. */
  async runHolding(name: string, work: () => Promise<void>): Promise<boolean> {
    if (!(await this.hold(name))) return false;
    const renew = this.local ? undefined : setInterval(() => void this.hold(name), this.timing.renewAfterMs).unref();
    try {
      await work();
    } finally {
      if (renew) clearInterval(renew);
    }
    return true;
  }

  /** Gives up every lease this process holds (at shutdown, after its runs ended): stand-bys take over at once. */
  async releaseAll(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.inFlight.values()]);
    if (!this.store) return;
    for (const [name, state] of this.states) {
      this.states.set(name, NOT_HELD);
      // released even when not trusted any more: the row may still name this holder
      if (state.lastTryAt === -Infinity) continue;
      await this.store.release(name, this.holder).catch((error: unknown) => this.logger.warn(`lease ${name} not released: ${(error as Error).message}`));
    }
  }

  private async ask(name: string): Promise<boolean> {
    const before = this.states.get(name)!;
    const sentAt = this.now();
    let outcome: 'won' | 'lost' | 'failed';
    try {
      outcome = (await this.store!.acquire(name, this.holder, this.timing.ttlMs)) ? 'won' : 'lost';
    } catch (error) {
      // a certification conflict on Galera, or the database away: nothing new is known
      this.logger.debug(`lease ${name}: ${(error as Error).message}`);
      outcome = 'failed';
    }
    const after = afterTry(before, sentAt, outcome, this.timing);
    this.states.set(name, after);
    const was = isHeld(before, sentAt);
    const is = isHeld(after, this.now());
    if (was !== is) this.logger.log(`${is ? 'holds' : 'no longer holds'} the ${name} lease (${this.holder})`);
    return is;
  }
}
