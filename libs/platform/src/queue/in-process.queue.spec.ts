import { defineJob } from './job-definition';
import { InProcessJobQueue } from './in-process.queue';
import { JobHandlerRegistry } from './job-handler.registry';

const FlakyJob = defineJob<{ n: number }>('test.flaky', { attempts: 3, backoffMs: 5 });

/** Polls until the condition holds (timers under a loaded CI machine run late; no fixed sleep). */
async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

function registryWith(handler: (payload: unknown) => Promise<void>): JobHandlerRegistry {
  return { get: () => handler, scan: () => undefined } as unknown as JobHandlerRegistry;
}

describe('InProcessJobQueue', () => {
  it('runs a job after the current tick and retries with backoff until it succeeds', async () => {
    let calls = 0;
    const queue = new InProcessJobQueue(
      registryWith(async () => {
        calls++;
        if (calls < 3) throw new Error('not yet');
      }),
    );
    await queue.enqueue(FlakyJob, { n: 1 });
    expect(calls).toBe(0);
    await until(() => calls >= 3);
    await queue.drain();
    expect(calls).toBe(3);
    expect((await queue.counts()).reduce((a, c) => a + c.failed, 0)).toBe(0);
    await queue.close();
  });

  it('gives up after the configured attempts', async () => {
    let calls = 0;
    const queue = new InProcessJobQueue(
      registryWith(async () => {
        calls++;
        throw new Error('always');
      }),
    );
    await queue.enqueue(FlakyJob, { n: 1 });
    // given up = counted as failed once, after exactly the configured attempts
    await until(async () => (await queue.counts()).reduce((a, c) => a + c.failed, 0) === 1);
    expect(calls).toBe(3);
    await queue.close();
  });

  it('runs a deterministic job id once while it is pending', async () => {
    let calls = 0;
    const queue = new InProcessJobQueue(registryWith(async () => void calls++));
    await queue.enqueue(FlakyJob, { n: 1 }, { jobId: 'same' });
    await queue.enqueue(FlakyJob, { n: 2 }, { jobId: 'same' });
    await queue.drain();
    expect(calls).toBe(1);
    await queue.close();
    await expect(queue.enqueue(FlakyJob, { n: 3 })).rejects.toThrow(/closed/);
  });
});
