import { InProcessJobQueue } from './in-process.queue';
import { JobQueue } from './job-definition';
import { JobHandlerRegistry } from './job-handler.registry';
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
    await sleep(150);
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
});
