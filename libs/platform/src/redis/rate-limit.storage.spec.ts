import { MemoryRateLimitStorage } from './rate-limit.storage';

describe('MemoryRateLimitStorage (per-process fixed windows)', () => {
  it('counts hits in a window, blocks past the limit and starts a new window when it ends', () => {
    const s = new MemoryRateLimitStorage();
    let now = 1_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    for (let i = 1; i <= 3; i++) expect(s.count('k', 60_000, 3)).toMatchObject({ totalHits: i, isBlocked: false });
    expect(s.count('k', 60_000, 3)).toMatchObject({ totalHits: 4, isBlocked: true, timeToBlockExpire: 60 });
    now += 30_000;
    expect(s.count('k', 60_000, 3)).toMatchObject({ totalHits: 5, isBlocked: true, timeToExpire: 30 });
    expect(s.count('other', 60_000, 3)).toMatchObject({ totalHits: 1, isBlocked: false });
    now += 30_000;
    expect(s.count('k', 60_000, 3)).toMatchObject({ totalHits: 1, isBlocked: false, timeToExpire: 60 });
    jest.restoreAllMocks();
  });

  it('keeps one entry per key whatever the number of hits (the check costs one map operation, not one per hit in the window)', () => {
    const s = new MemoryRateLimitStorage();
    for (let i = 0; i < 20_000; i++) s.count('busy', 60_000, 1_000_000);
    const windows = (s as unknown as { windows: Map<string, { hits: number }> }).windows;
    expect(windows.size).toBe(1);
    expect(windows.get('busy')?.hits).toBe(20_000);
  });
});
