import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { RedisClient } from './redis-connections';
import { RedisOutageLog } from './redis-outage';

/** `own`: this process published it (Redis echoes a message to its publisher's subscriptions too). */
type Handler = (message: unknown, own: boolean) => void;

/** The field that carries a message's publisher; old replicas ignore it, handlers never see it. */
const ORIGIN = '_origin';

/**
 * The deployment's channel namespace: QUEUE_PREFIX, and the database number when it is not 0.
 * Pub/sub ignores database numbers, so two deployments on one Redis that differ only by their
 * database (redis://host/1 and redis://host/2, same prefix) would otherwise hear each other's
 * revocations (issue 24 item 4). Database 0 keeps `<QUEUE_PREFIX>:broadcast:<topic>`, so replicas
 * of an upgraded and a not yet upgraded version still hear each other during a rolling deploy.
 */
export function broadcastNamespace(queuePrefix: string, db: number): string {
  return db === 0 ? queuePrefix : `${queuePrefix}:db${db}`;
}

/**
 * Tells every replica of this deployment about something that must not wait for a cache to
 * expire (a revoked token, a disabled user): Redis pub/sub on `<namespace>:broadcast:<topic>`,
 * the namespace being the deployment's (broadcastNamespace).
 * Without Redis there is one process and nothing to tell (publish is a no-op; local handlers
 * are the caller's business). Best effort by design: while Redis is down a message is lost
 * and the other replicas fall back to their cache TTL (AUTH_CACHE_TTL_MS).
 */
export class ReplicaBroadcast {
  private readonly logger = new Logger('ReplicaBroadcast');
  private readonly handlers = new Map<string, Handler[]>();
  private readonly outage = new RedisOutageLog('Replica broadcast', 'ReplicaBroadcast');
  /** This process's mark on what it publishes, so its own echo is told apart. */
  private readonly origin = randomUUID();

  constructor(
    private readonly namespace: string,
    private readonly publisher?: RedisClient,
    private readonly subscriber?: RedisClient,
  ) {
    subscriber?.on('error', (err: Error) => this.outage.failed(err, 'other replicas see revocations within AUTH_CACHE_TTL_MS'));
    subscriber?.on('ready', () => {
      this.outage.recovered();
      // (Re)connected: subscribe again to every topic (idempotent), so no subscription depends on
      // a command queued before the connection was ready.
      const channels = [...this.handlers.keys()].map((t) => this.channel(t));
      if (channels.length) subscriber.subscribe(...channels).catch(() => undefined);
    });
    publisher?.on('error', () => undefined);
    subscriber?.on('message', (channel: string, raw: string) => {
      const topic = channel.slice(this.channel('').length);
      let message: unknown;
      try {
        message = JSON.parse(raw);
      } catch {
        return;
      }
      let own = false;
      if (message !== null && typeof message === 'object' && ORIGIN in message) {
        const { [ORIGIN]: origin, ...rest } = message as Record<string, unknown>;
        own = origin === this.origin;
        message = rest;
      }
      for (const handle of this.handlers.get(topic) ?? []) {
        try {
          handle(message, own);
        } catch (error) {
          this.logger.warn(`${topic} handler failed: ${(error as Error).message}`);
        }
      }
    });
  }

  private channel(topic: string): string {
    return `${this.namespace}:broadcast:${topic}`;
  }

  /**
   * Handlers run in every replica for each message published on `topic`, this one's included
   * (`own` is then true: a handler whose publisher already acted locally skips its echo).
   */
  async subscribe(topic: string, handle: Handler): Promise<void> {
    const list = this.handlers.get(topic) ?? [];
    list.push(handle);
    this.handlers.set(topic, list);
    // Only on a ready connection: ioredis writes SUBSCRIBE as soon as the socket is up, before its
    // ready check, whose INFO then fails in subscriber mode (a false outage at every boot). Until
    // ready, the 'ready' listener subscribes every topic registered by then, this one included.
    if (this.subscriber?.status === 'ready' && list.length === 1)
      await this.subscriber.subscribe(this.channel(topic)).catch((error: Error) => this.logger.warn(`cannot subscribe to ${topic} yet: ${error.message}`));
  }

  /** Never throws and never waits for an absent Redis (fail-fast connection). */
  publish(topic: string, message: object): void {
    if (!this.publisher) return;
    this.publisher
      .publish(this.channel(topic), JSON.stringify({ ...message, [ORIGIN]: this.origin }))
      .catch((error: Error) => this.outage.failed(error, 'a revocation reached only this replica'));
  }

  async close(): Promise<void> {
    for (const c of [this.subscriber, this.publisher]) if (c && c.status !== 'end') await c.quit().catch(() => c.disconnect());
  }
}
