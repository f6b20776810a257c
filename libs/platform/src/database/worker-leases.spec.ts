import { Logger } from '@nestjs/common';
import { LeaseStore, WorkerLeases } from './worker-leases';

/** The store's contract (one conditional UPDATE) over an in-memory row, on a clock the test moves. */
class MemoryLeaseStore implements LeaseStore {
  readonly rows = new Map<string, { holder: string | null; expiresAt: number }>();
  queries = 0;
  failNext = false;

  constructor(private readonly clock: { now: number }) {}

  async acquire(name: string, holder: string, ttlMs: number): Promise<boolean> {
    this.queries++;
    if (this.failNext) {
      this.failNext = false;
      throw Object.assign(new Error('Deadlock found when trying to get lock'), { code: 'ER_LOCK_DEADLOCK' });
    }
    const row = this.rows.get(name) ?? { holder: null, expiresAt: 0 };
    if (row.holder !== holder && !(row.expiresAt < this.clock.now)) return false;
    this.rows.set(name, { holder, expiresAt: this.clock.now + ttlMs });
    return true;
  }

  async release(name: string, holder: string): Promise<void> {
    this.queries++;
    if (this.rows.get(name)?.holder === holder) this.rows.set(name, { holder: null, expiresAt: 0 });
  }
}

describe('WorkerLeases', () => {
  const TTL = 9000;
  let clock: { now: number };
  let store: MemoryLeaseStore;
  let a: WorkerLeases;
  let b: WorkerLeases;

  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose']));

  beforeEach(() => {
    clock = { now: 1000 };
    store = new MemoryLeaseStore(clock);
    a = new WorkerLeases(store, TTL, () => clock.now);
    b = new WorkerLeases(store, TTL, () => clock.now);
  });

  it('has a distinct holder id per process: host, pid, random', () => {
    expect(a.holder).not.toBe(b.holder);
    expect(a.holder).toMatch(new RegExp(`:${process.pid}:[0-9a-f]{8}$`));
  });

  it('one holder at a time; the stand-by runs nothing while the holder renews', async () => {
    const runs = { a: 0, b: 0 };
    for (let i = 0; i < 200; i++) {
      await a.runHolding('relay', async () => void runs.a++);
      await b.runHolding('relay', async () => void runs.b++);
      clock.now += 250;
    }
    expect(runs).toEqual({ a: 200, b: 0 });
    expect(a.snapshot()).toEqual([{ name: 'relay', held: true }]);
    expect(b.snapshot()).toEqual([{ name: 'relay', held: false }]);
    // 50 s: the holder renewed every TTL/3 (not every run), the stand-by tried once a second
    expect(store.queries).toBeLessThan(50_000 / 3000 + 1 + 50 + 1);
  });

  it('a crashed holder (no renewal, no release) is replaced once its row expires, not before', async () => {
    expect(await a.hold('applier')).toBe(true);
    const expiresAt = store.rows.get('applier')!.expiresAt;
    let tries = 0;
    while (!(await b.hold('applier'))) {
      clock.now += 100;
      expect(++tries).toBeLessThan(200);
    }
    expect(clock.now).toBeGreaterThan(expiresAt); // never before the expiry
    expect(clock.now - expiresAt).toBeLessThanOrEqual(1000); // within one stand-by retry after it
    expect(store.rows.get('applier')!.holder).toBe(b.holder);
    // the old holder, back, finds it lost (it stopped trusting it TTL/2 before anyway)
    expect(a.holds('applier')).toBe(false);
    expect(await a.hold('applier')).toBe(false);
  });

  it("a graceful release hands over at the stand-by's next try", async () => {
    expect(await a.hold('applier')).toBe(true);
    expect(await b.hold('applier')).toBe(false);
    await a.releaseAll();
    expect(a.holds('applier')).toBe(false);
    expect(await a.hold('applier')).toBe(false); // a closed process asks for nothing again
    clock.now += 1000;
    expect(await b.hold('applier')).toBe(true);
  });

  it('renews in the background while a long run lasts, so the stand-by never starts meanwhile', async () => {
    jest.useFakeTimers({ doNotFake: ['performance'] });
    try {
      let finish!: () => void;
      const run = a.runHolding('applier', () => new Promise<void>((r) => (finish = r)));
      await Promise.resolve();
      for (let i = 0; i < 30; i++) {
        clock.now += 1000;
        await jest.advanceTimersByTimeAsync(1000);
        expect(await b.hold('applier')).toBe(false);
        expect(a.holds('applier')).toBe(true);
      }
      finish();
      expect(await run).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });

  it('an error while renewing keeps the lease only as long as already trusted', async () => {
    expect(await a.hold('applier')).toBe(true);
    clock.now += TTL / 3;
    store.failNext = true;
    expect(await a.hold('applier')).toBe(true); // still within TTL/2 of the last win
    clock.now += TTL / 2 - TTL / 3;
    expect(a.holds('applier')).toBe(false);
    expect(await a.hold('applier')).toBe(true); // asks again: the row is still its own
  });

  it('asks once when a run and the background renewal ask together', async () => {
    const [x, y] = await Promise.all([a.hold('applier'), a.hold('applier')]);
    expect([x, y]).toEqual([true, true]);
    expect(store.queries).toBe(1);
  });

  it('without a store (embedded SQLite) every lease is held and nothing is queried', async () => {
    const local = new WorkerLeases(null, TTL);
    let runs = 0;
    for (let i = 0; i < 5; i++) expect(await local.runHolding('relay', async () => void runs++)).toBe(true);
    expect(runs).toBe(5);
    expect(local.snapshot()).toEqual([{ name: 'relay', held: true }]);
    await local.releaseAll();
    expect(local.holds('relay')).toBe(false);
  });
});
