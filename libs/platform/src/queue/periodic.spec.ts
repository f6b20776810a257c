import { InProcessJobQueue } from './in-process.queue';
import { JobQueue } from './job-definition';
import { JobHandlerRegistry } from './job-handler.registry';
import { LeaseStore, WorkerLeases } from '../database/worker-leases';
import { PeriodicScheduler, QueueRole } from './periodic';

const inProcess = () => new InProcessJobQueue({ get: () => async () => undefined, scan: () => undefined } as unknown as JobHandlerRegistry);
const bullLike = () => ({ enqueue: async () => undefined, close: async () => undefined }) as unknown as JobQueue;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PeriodicScheduler', () => {
  it('runs where the jobs run: the worker, or the API with the in-process queue; never the CLI or a BullMQ producer', () => {
    const cases: [QueueRole, JobQueue, boolean][] = [
      ['consumer', bullLike(), true],
      ['producer', inProcess(), true],
      ['producer', bullLike(), false],
      ['cli', inProcess(), false],
      ['cli', bullLike(), false],
    ];
    for (const [role, queue, active] of cases) expect(new PeriodicScheduler(queue, role).active).toBe(active);
  });

  it('repeats a task without overlapping runs, keeps going after a failure, and stops at shutdown', async () => {
    const scheduler = new PeriodicScheduler(inProcess(), 'producer');
    let running = 0;
    let maxRunning = 0;
    let runs = 0;
    scheduler.register({
      name: 'slow',
      everyMs: 5,
      firstAfterMs: 0,
      run: async () => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        runs++;
        await sleep(20);
        running--;
        if (runs === 2) throw new Error('one bad run');
      },
    });
    expect(() => scheduler.register({ name: 'slow', everyMs: 5, run: async () => undefined })).toThrow(/twice/);
    scheduler.onApplicationBootstrap();
    // Bounded by runs, not by time (a busy CI machine made 2 runs in 150 ms): the third run is the
    // one after the failing second.
    while (runs < 3) await sleep(5);
    await scheduler.beforeApplicationShutdown();
    const after = runs;
    expect(after).toBeGreaterThanOrEqual(3);
    expect(maxRunning).toBe(1);
    expect(running).toBe(0); // shutdown waited for the run in progress
    await sleep(50);
    expect(runs).toBe(after);
  });

  it('does not start tasks in an inactive process', async () => {
    const scheduler = new PeriodicScheduler(bullLike(), 'producer');
    let runs = 0;
    scheduler.register({ name: 'never', everyMs: 1, firstAfterMs: 0, run: async () => void runs++ });
    scheduler.onApplicationBootstrap();
    await sleep(30);
    await scheduler.beforeApplicationShutdown();
    expect(runs).toBe(0);
  });

  it('runs a task that names a lease only in the process holding it, and releases it at shutdown', async () => {
    let holder: string | null = null;
    const released: string[] = [];
    const store: LeaseStore = {
      acquire: async (_name, who) => (holder ??= who) === who,
      release: async (name, who) => {
        released.push(name);
        if (holder === who) holder = null;
      },
    };
    const processes = [0, 1].map(() => ({ scheduler: new PeriodicScheduler(inProcess(), 'consumer', new WorkerLeases(store, 60_000)), runs: 0 }));
    for (const p of processes) p.scheduler.register({ name: 'relay', everyMs: 2, firstAfterMs: 0, lease: 'outbox-relay', run: async () => void p.runs++ });
    for (const p of processes) p.scheduler.onApplicationBootstrap();
    for (let i = 0; i < 500 && processes.every((p) => p.runs < 5); i++) await sleep(5);
    const [first, second] = processes[0].runs > 0 ? processes : [processes[1], processes[0]];
    expect(first.runs).toBeGreaterThanOrEqual(5);
    expect(second.runs).toBe(0);
    await first.scheduler.beforeApplicationShutdown();
    expect(released).toEqual(['outbox-relay']);
    for (let i = 0; i < 500 && second.runs === 0; i++) await sleep(5); // its next try (at most a second) wins
    expect(second.runs).toBeGreaterThan(0);
    await second.scheduler.beforeApplicationShutdown();
  });

  it('refuses a task that names a lease where there are no leases', () => {
    const scheduler = new PeriodicScheduler(inProcess(), 'producer');
    expect(() => scheduler.register({ name: 'relay', everyMs: 5, lease: 'outbox-relay', run: async () => undefined })).toThrow(/needs the outbox-relay lease/);
  });
});
