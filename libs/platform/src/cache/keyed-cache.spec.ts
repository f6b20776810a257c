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
    const small = new KeyedCache<string>(60_000, { max: 2 });
    const { load } = loader({ 1: 'a', 2: 'b', 3: 'c' });
    await small.getMany([1, 2, 3], load);
    expect(small.size).toBe(2);
    const none = new KeyedCache<string>(0);
    await none.getMany([1], load);
    expect(none.size).toBe(0);
  });

  it('answers in the order asked, each key once', async () => {
    const cache = new KeyedCache<string>(60_000);
    const { load } = loader({ 1: 'a', 2: 'b', 3: 'c' });
    await cache.getMany([2], load);
    expect([...(await cache.getMany([3, 2, 1, 3], load)).keys()]).toEqual([3, 2, 1]);
  });

  it('reads a key again once its TTL has passed', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    try {
      const cache = new KeyedCache<string>(5000);
      const { calls, load } = loader({ 1: 'a' });
      await cache.getMany([1], load);
      jest.setSystemTime(1_004_999);
      await cache.getMany([1], load);
      jest.setSystemTime(1_005_000);
      await cache.getMany([1], load);
      expect(calls).toEqual([[1], [1]]);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('KeyedCache.get', () => {
  const gate = () => {
    let open!: () => void;
    const opened = new Promise<void>((r) => (open = r));
    return { open, opened };
  };

  it('caches one value by a string key (a cache of one key holds a single value)', async () => {
    const cache = new KeyedCache<number, string>(60_000);
    let reads = 0;
    const load = async () => ++reads;
    expect(await cache.get('USD', load)).toBe(1);
    expect(await cache.get('USD', load)).toBe(1);
    expect(await cache.get('JPY', load)).toBe(2);
    cache.forget(['USD']);
    expect(await cache.get('USD', load)).toBe(3);
    expect(await cache.get('JPY', load)).toBe(2);
  });

  it('a key being read is read once for every caller asking meanwhile', async () => {
    const cache = new KeyedCache<string, string>(60_000);
    const { open, opened } = gate();
    let reads = 0;
    const load = async () => {
      reads++;
      await opened;
      return 'rules';
    };
    const waiting = [cache.get('r', load), cache.get('r', load), cache.getMany(['r', 's'], async (ids) => new Map(ids.map((id) => [id, `${id}!`])))];
    open();
    expect(await Promise.all(waiting)).toEqual([
      'rules',
      'rules',
      new Map([
        ['r', 'rules'],
        ['s', 's!'],
      ]),
    ]);
    expect(reads).toBe(1);
  });

  it('a caller after a forget does not join the read it overlapped, and nothing is shared with a TTL of 0', async () => {
    const cache = new KeyedCache<string>(60_000);
    const { open, opened } = gate();
    let version = 'before';
    const reads: string[] = [];
    const load = async () => {
      const seen = version;
      reads.push(seen);
      await opened;
      return seen;
    };
    const first = cache.get(1, load);
    version = 'after';
    cache.forget([1]);
    const second = cache.get(1, load);
    open();
    expect([await first, await second]).toEqual(['before', 'after']);
    expect(await cache.get(1, load)).toBe('after');
    expect(reads).toEqual(['before', 'after']);

    const none = new KeyedCache<string>(0);
    let count = 0;
    const counted = async () => `${++count}`;
    expect(await Promise.all([none.get(1, counted), none.get(1, counted)])).toEqual(['1', '2']);
  });

  it('keeps absent keys only when asked to, and nothing from a failed read', async () => {
    const found = new KeyedCache<string>(60_000, { keepAbsent: false });
    let stored: string | null = null;
    let reads = 0;
    const load = async () => {
      reads++;
      return stored;
    };
    expect(await found.get(7, load)).toBeNull();
    stored = 'created behind the service';
    expect(await found.get(7, load)).toBe('created behind the service');
    expect(await found.get(7, load)).toBe('created behind the service');
    expect(reads).toBe(2);

    const absent = new KeyedCache<string>(60_000);
    stored = null;
    await absent.get(7, load);
    stored = 'later';
    expect(await absent.get(7, load)).toBeNull();

    const failing = new KeyedCache<number>(60_000);
    let fail = true;
    const flaky = async () => {
      if (fail) throw new Error('database down');
      return 42;
    };
    const both = [failing.get(1, flaky), failing.get(1, flaky)];
    await expect(both[0]).rejects.toThrow('database down');
    await expect(both[1]).rejects.toThrow('database down');
    fail = false;
    expect(await failing.get(1, flaky)).toBe(42);
    expect(failing.size).toBe(1);
  });
});
