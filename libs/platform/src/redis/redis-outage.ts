import { once } from 'node:events';
import { Logger } from '@nestjs/common';
import type { Cluster, Redis, RedisOptions } from 'ioredis';

/** Redis or Cluster (redis-connections.ts names it RedisClient; not imported here, which it imports). */
type RedisClient = Redis | Cluster;

/**
 * Options for connections whose callers must never wait for Redis: no offline queue (a command
 * while disconnected fails at once instead of running minutes later, after its caller gave
 * up), one retry, and a short command timeout for a Redis that is up but not answering.
 * Used by the rate-limit counters and the BullMQ producers; BullMQ workers keep their own
 * blocking connections (they must wait).
 */
export function failFastRedisOptions(commandTimeoutMs: number): RedisOptions {
  return { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: commandTimeoutMs, enableReadyCheck: true };
}

/**
 * Logs a Redis outage once when it starts and once when it ends (with how long it lasted),
 * instead of one line per reconnection attempt or failed command. ioredis reconnects with its
 * own backoff (50 ms more per attempt, at most 2 s).
 */
export class RedisOutageLog {
  private downSince?: number;
  private readonly logger: Logger;

  constructor(
    private readonly what: string,
    context = 'Redis',
  ) {
    this.logger = new Logger(context);
  }

  /** Follows a connection's own events; the connection also counts as down on a failed command (see `failed`). */
  watch(client: RedisClient): this {
    client.on('error', (err: Error) => this.failed(err));
    client.on('ready', () => this.recovered());
    return this;
  }

  get isDown(): boolean {
    return this.downSince !== undefined;
  }

  failed(err?: Error, consequence = ''): void {
    if (this.downSince !== undefined) return;
    this.downSince = Date.now();
    this.logger.warn(`${this.what}: Redis unavailable${err ? ` (${err.message})` : ''}${consequence ? `; ${consequence}` : ''}`);
  }

  recovered(detail = ''): void {
    if (this.downSince === undefined) return;
    const seconds = ((Date.now() - this.downSince) / 1000).toFixed(1);
    this.downSince = undefined;
    this.logger.log(`${this.what}: Redis is back after ${seconds} s${detail ? `; ${detail}` : ''}`);
  }
}

/** Waits (boundedly) for a new connection to be ready, so the first requests do not meet a "down" Redis. */
export async function readyOrNot<C extends RedisClient>(client: C, ms = 2000): Promise<C> {
  if (client.status === 'ready') return client;
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(), ms);
  await once(client, 'ready', { signal: timer.signal }).catch(() => undefined);
  clearTimeout(timeout);
  return client;
}
