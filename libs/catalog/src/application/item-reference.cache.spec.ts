import type { AppConfig, ReplicaBroadcast } from '@pos/platform';
import type { ItemRepository } from './catalog.ports';
import { ItemReferenceCache } from './item-reference.cache';

/** A cache on a broadcast that echoes what it publishes to its own handler (as Redis does), and can deliver another replica's message. */
async function cache() {
  let handler: (message: unknown, own: boolean) => void = () => undefined;
  const broadcast = {
    subscribe: async (_topic: string, handle: typeof handler) => {
      handler = handle;
    },
    publish: (_topic: string, message: unknown) => handler(message, true),
  } as unknown as ReplicaBroadcast;
  const reads: number[][] = [];
  const items = {
    references: async (ids: number[]) => {
      reads.push(ids);
      return { items: ids.map((id) => ({ id })), units: [], barcodes: [] };
    },
  } as unknown as ItemRepository;
  const c = new ItemReferenceCache(items, broadcast, { referenceCacheTtlMs: 60_000 } as AppConfig);
  await c.onModuleInit();
  let told = 0;
  c.onChanged(() => told++);
  return { c, reads, told: () => told, fromAnother: (message: unknown) => handler(message, false) };
}

describe('ItemReferenceCache', () => {
  it('tells its listeners once for its own write, not again when Redis echoes it back', async () => {
    const t = await cache();
    await t.c.of([1]);
    t.c.changed([1]); // no transaction: runs at once, publishes, and the echo arrives
    expect(t.told()).toBe(1);
    await t.c.of([1]);
    expect(t.reads).toEqual([[1], [1]]);
  });

  it("forgets the ids and tells its listeners when another replica's write arrives", async () => {
    const t = await cache();
    await t.c.of([1, 2]);
    t.fromAnother({ ids: [2] });
    expect(t.told()).toBe(1);
    await t.c.of([1, 2]);
    expect(t.reads).toEqual([[1, 2], [2]]);
  });
});
