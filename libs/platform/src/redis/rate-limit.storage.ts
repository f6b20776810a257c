import type { ThrottlerStorage } from '@nestjs/throttler';
import type { RedisClient } from './redis-connections';
import { RedisOutageLog } from './redis-outage';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** One round trip per check: count, start the window on the first hit, read what is left of it. One key, so it runs on Redis Cluster too. */
const INCREMENT = `
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {hits, ttl}`;

/** After a failed call, Redis is tried again at most this often; checks in between count in memory. */
const PROBE_EVERY_MS = 1000;
/** Memory counters keep at most this many windows: past it the oldest-started one is forgotten (O(1), even under a flood of new keys). */
const MEMORY_MAX_KEYS = 100_000;

type RedisWithScript = RedisClient & { posRateLimitIncrement(key: string, ttlMs: number): Promise<[number, number]> };

/**
 * Rate-limit counters in Redis (shared by every replica), fixed windows of `ttl` ms, on a
 * connection of their own that never queues or waits (failFastRedisOptions).
 *
 * Policy while Redis is down or not answering: fail OPEN to per-process counters. Selling goes
 * on; each replica enforces the limits on its own share of the traffic (so a client spread over
 * N replicas gets up to N times the limit) until Redis answers again, when the shared counters
 * take over and the memory ones are dropped. The outage and its end are logged once each,
 * with how many checks were counted in memory. A failed call marks Redis down for
 * PROBE_EVERY_MS, so an outage costs one timeout per second, not one per request.
 */
export class ResilientRateLimitStorage implements ThrottlerStorage {
  private readonly memory = new MemoryRateLimitStorage();
  private readonly outage = new RedisOutageLog('Rate-limit counters', 'RateLimit');
  private retryAt = 0;
  private countedInMemory = 0;

  constructor(private readonly redis: RedisClient) {
    redis.defineCommand('posRateLimitIncrement', { numberOfKeys: 1, lua: INCREMENT });
    redis.on('error', () => undefined); // reported through `outage` when a check fails
  }

  async increment(key: string, ttl: number, limit: number, _blockDuration: number, _throttlerName: string): Promise<ThrottlerStorageRecord> {
    if (Date.now() >= this.retryAt) {
      try {
        const [hits, ttlMs] = await (this.redis as RedisWithScript).posRateLimitIncrement(key, ttl);
        if (this.outage.isDown) {
          this.outage.recovered(`${this.countedInMemory} checks were counted per process meanwhile`);
          this.memory.clear();
          this.countedInMemory = 0;
        }
        return record(Number(hits), Number(ttlMs), limit);
      } catch (error) {
        this.retryAt = Date.now() + PROBE_EVERY_MS;
        this.outage.failed(error as Error, 'rate limits are counted per process (fail open) until it returns');
      }
    }
    return this.incrementInMemory(key, ttl, limit);
  }

  /** Checks counted in memory during the current outage (0 when Redis answers). */
  get fallbackCount(): number {
    return this.countedInMemory;
  }

  private incrementInMemory(key: string, ttl: number, limit: number): ThrottlerStorageRecord {
    this.countedInMemory++;
    return this.memory.count(key, ttl, limit);
  }

  async close(): Promise<void> {
    if (this.redis.status !== 'end') await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/**
 * Rate-limit counters of one process: fixed windows of `ttl` ms, one map operation per check.
 * The counters of the embedded default (no Redis) and the Redis storage's fallback during an
 * outage. (@nestjs/throttler's own memory storage keeps every hit's expiry and filters that list
 * on each check: its cost grows with the limit.)
 */
export class MemoryRateLimitStorage implements ThrottlerStorage {
  private readonly windows = new Map<string, { hits: number; expiresAt: number }>();

  increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    return Promise.resolve(this.count(key, ttl, limit));
  }

  count(key: string, ttl: number, limit: number): ThrottlerStorageRecord {
    const now = Date.now();
    let entry = this.windows.get(key);
    if (!entry || entry.expiresAt <= now) {
      if (entry) this.windows.delete(key);
      else if (this.windows.size >= MEMORY_MAX_KEYS) this.windows.delete(this.windows.keys().next().value as string);
      entry = { hits: 0, expiresAt: now + ttl };
      this.windows.set(key, entry);
    }
    entry.hits++;
    return record(entry.hits, entry.expiresAt - now, limit);
  }

  clear(): void {
    this.windows.clear();
  }
}

function record(hits: number, ttlMs: number, limit: number): ThrottlerStorageRecord {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  const isBlocked = hits > limit;
  return { totalHits: hits, timeToExpire: seconds, isBlocked, timeToBlockExpire: isBlocked ? seconds : 0 };
}
