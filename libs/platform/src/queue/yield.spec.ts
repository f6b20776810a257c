import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defineJob } from './job-definition';
import { InProcessJobQueue } from './in-process.queue';
import { JobHandlerRegistry } from './job-handler.registry';
import { chunkRowsFor, yieldToEventLoop } from './yield';

const ChunkedJob = defineJob<{ chunks: number }>('test.chunked', { attempts: 1 });
const CHUNKS = 50;

/** A chunk as better-sqlite3 runs it: statements whose promises are settled at once (microtasks only). */
async function syncChunk(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve(i);
}

/**
 * Runs a chunked job in the in-process queue while a loopback HTTP request is made, and returns
 * how many chunks had run when the answer arrived (CHUNKS: not before the job ended).
 */
async function chunksBeforeAnswer(between: () => Promise<void>): Promise<number> {
  let done = 0;
  const queue = new InProcessJobQueue({
    get: () => async () => {
      for (let i = 0; i < CHUNKS; i++) {
        await syncChunk();
        done++;
        if (i < CHUNKS - 1) await between();
      }
    },
    scan: () => undefined,
  } as unknown as JobHandlerRegistry);
  const server = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    // The request is sent before the job starts, as a till's scan would be.
    const answer = fetch(`http://127.0.0.1:${port}/`).then(async (r) => {
      await r.text();
      return done;
    });
    await queue.enqueue(ChunkedJob, { chunks: CHUNKS });
    const at = await answer;
    await queue.drain();
    expect(done).toBe(CHUNKS);
    return at;
  } finally {
    await queue.close();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('yieldToEventLoop (long in-process jobs on a synchronous driver)', () => {
  it('lets a request be served between chunks; awaiting settled promises alone does not', async () => {
    expect(await chunksBeforeAnswer(() => Promise.resolve())).toBe(CHUNKS);
    expect(await chunksBeforeAnswer(yieldToEventLoop)).toBeLessThan(CHUNKS);
  });

  it('makes chunks smaller on SQLite only, never empty', () => {
    expect(chunkRowsFor('mysql', 500)).toBe(500);
    expect(chunkRowsFor('sqlite', 500)).toBe(100);
    expect(chunkRowsFor('sqlite', 3)).toBe(1);
  });
});
