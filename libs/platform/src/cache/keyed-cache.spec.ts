import { KeyedCache } from './keyed-cache';

describe('KeyedCache', () => {
  const loader = (values: Record<number, string>) => {
    const calls: number[][] = [];
    const load = async (ids: number[]) => {
      calls.push(ids);
      return new Map(ids.filter((id) => id in values).map((id) => [id, values[id]]));
    };
    return { calls, load };
  };

  it('reads only the ids it does not hold, absent ones included, once each', async () => {
    const cache = new KeyedCache<string>(60_000);
    const { calls, load } = loader({ 1: 'a', 2: 'b' });
    expect([...(await cache.getMany([1, 2, 2, 3], load))]).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, null],
    ]);
    expect([...(await cache.getMany([3, 1, 4], load))]).toEqual([
      [3, null],
      [1, 'a'],
      [4, null],
    ]);
    expect(calls).toEqual([[1, 2, 3], [4]]);
  });

  it('forgets ids at once, and does not keep what a load overlapping a forget read', async () => {
    const cache = new KeyedCache<string>(60_000);
    const values: Record<number, string> = { 1: 'old' };
    const { calls, load } = loader(values);
    await cache.getMany([1], load);
    values[1] = 'new';
    cache.forget([1]);
    expect((await cache.getMany([1], load)).get(1)).toBe('new');

    let release!: () => void;
    const slow = async (ids: number[]) => {
      await new Promise<void>((r) => (release = r));
      return load(ids);
    };
    values[2] = 'before';
    const pending = cache.getMany([2], slow);
    await new Promise((r) => setImmediate(r));
    cache.forget([2]);
    release();
    expect((await pending).get(2)).toBe('before');
    values[2] = 'after';
    expect((await cache.getMany([2], load)).get(2)).toBe('after');
    expect(calls.length).toBe(4);
  });

  it('keeps at most `max` ids and nothing with a TTL of 0', async () => {
    const small = new KeyedCache<string>(60_000, 2);
    const { load } = loader({ 1: 'a', 2: 'b', 3: 'c' });
    await small.getMany([1, 2, 3], load);
    expect(small.size).toBe(2);
    const none = new KeyedCache<string>(0);
    await none.getMany([1], load);
    expect(none.size).toBe(0);
  });
});
