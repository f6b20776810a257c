import { ReplicaBroadcast } from '@pos/platform';
import { ActivePricingCache } from './active-pricing.cache';
import { PricingRepository } from './pricing.ports';
import { ReferenceRepository } from './reference.ports';

describe('ActivePricingCache (with fake repositories)', () => {
  const setup = (rules: () => Promise<unknown[]> = async () => [], broadcast = new ReplicaBroadcast('test')) => {
    const reads: string[] = [];
    const pricing = {
      activeRules: async () => (reads.push('rules'), rules()),
      activeBundles: async () => (reads.push('bundles'), []),
    } as unknown as PricingRepository;
    const reference = {
      taxRates: async (classes: number[], storeId: number | null) => (reads.push(`rates ${storeId}:${classes.join(',')}`), []),
    } as unknown as ReferenceRepository;
    const cache = new ActivePricingCache(pricing, reference, broadcast);
    return { cache, reads };
  };

  it('reads rules, bundles and rates once for concurrent and later carts, and again after a clear', async () => {
    const { cache, reads } = setup();
    const cart = () => Promise.all([cache.activeRules(), cache.activeBundles(), cache.taxRates([2, 1], 1)]);
    await Promise.all([cart(), cart()]);
    await cache.taxRates([1, 2], 1);
    await cache.taxRates([1, 2], null);
    expect(reads).toEqual(['rules', 'bundles', 'rates 1:2,1', 'rates null:1,2']);
    cache.clear();
    await cart();
    expect(reads.slice(4)).toEqual(['rules', 'bundles', 'rates 1:2,1']);
  });

  it('keeps nothing from a failed read', async () => {
    let fail = true;
    const { cache } = setup(async () => {
      if (fail) throw new Error('database down');
      return [{ id: 1 }];
    });
    await expect(cache.activeRules()).rejects.toThrow('database down');
    fail = false;
    expect(await cache.activeRules()).toEqual([{ id: 1 }]);
  });

  it("forgets on another replica's write, not on its own echo (clear already forgot)", async () => {
    let handler: (message: unknown, own: boolean) => void = () => undefined;
    const broadcast = {
      subscribe: async (_topic: string, handle: typeof handler) => {
        handler = handle;
      },
      publish: () => undefined,
    } as unknown as ReplicaBroadcast;
    const { cache, reads } = setup(undefined, broadcast);
    await cache.onModuleInit();
    await cache.activeRules();
    handler({}, true);
    await cache.activeRules();
    expect(reads).toEqual(['rules']);
    handler({}, false);
    await cache.activeRules();
    expect(reads).toEqual(['rules', 'rules']);
  });
});
