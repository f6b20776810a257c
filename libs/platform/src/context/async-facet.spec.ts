import { AsyncLocalStorage } from 'node:async_hooks';
import { ClsServiceManager } from 'nestjs-cls';
import { AsyncFacet } from './async-facet';
import { RequestContext } from '../audit/request-context';
import { ambientNow, atMoment } from '../config/ambient-clock';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('AsyncFacet', () => {
  const a = new AsyncFacet<string>('a');
  const b = new AsyncFacet<number>('b');

  it('carries its value through everything the work awaits, and only there', async () => {
    expect(a.get()).toBeUndefined();
    const seen = await a.run('one', async () => {
      await tick();
      return a.get();
    });
    expect(seen).toBe('one');
    expect(a.get()).toBeUndefined();
  });

  it('keeps the outer value and the other facets around a nested run', async () => {
    await a.run('outer', async () => {
      await b.run(2, async () => {
        await tick();
        expect([a.get(), b.get()]).toEqual(['outer', 2]);
        await a.run('inner', async () => {
          await tick();
          expect([a.get(), b.get()]).toEqual(['inner', 2]);
        });
        expect(a.get()).toBe('outer');
      });
      expect(b.get()).toBeUndefined();
    });
  });

  it('goes on into a nested nestjs-cls context that inherits (a transaction) and not into a fresh one (a queued job)', async () => {
    const cls = ClsServiceManager.getClsService();
    await a.run('request', async () => {
      expect(await cls.run({ ifNested: 'inherit' }, async () => (await tick(), a.get()))).toBe('request');
      expect(await cls.run({ ifNested: 'override' }, async () => (await tick(), a.get()))).toBeUndefined();
    });
  });

  it("uses nestjs-cls's storage: the platform's contexts enable no AsyncLocalStorage of their own", async () => {
    const run = jest.spyOn(AsyncLocalStorage.prototype, 'run');
    try {
      await RequestContext.run({ requestId: 'r1' }, async () => {
        await atMoment({ at: new Date('2020-01-02T03:04:05Z') }, async () => {
          await tick();
          expect(ambientNow().toISOString()).toBe('2020-01-02T03:04:05.000Z');
          expect(RequestContext.get()?.requestId).toBe('r1');
        });
      });
      const storages = new Set(run.mock.contexts);
      expect(storages.size).toBe(1);
    } finally {
      run.mockRestore();
    }
  });
});
