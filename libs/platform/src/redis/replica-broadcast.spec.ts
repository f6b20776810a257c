import { EventEmitter } from 'node:events';
import type { RedisClient } from './redis-connections';
import { ReplicaBroadcast } from './replica-broadcast';

/** One fake Redis for every replica: PUBLISH reaches each subscriber connection, its publisher's own included, as Redis does. */
function fakeRedis() {
  const subscribers: EventEmitter[] = [];
  const replica = () => {
    const subscriber = Object.assign(new EventEmitter(), { status: 'ready', subscribe: async () => 1 });
    subscribers.push(subscriber);
    const publisher = Object.assign(new EventEmitter(), {
      publish: async (channel: string, raw: string) => {
        for (const s of subscribers) s.emit('message', channel, raw);
        return subscribers.length;
      },
    });
    return new ReplicaBroadcast('pos', publisher as unknown as RedisClient, subscriber as unknown as RedisClient);
  };
  return { replica, raw: (channel: string, raw: string) => subscribers.forEach((s) => s.emit('message', channel, raw)) };
}

describe('ReplicaBroadcast', () => {
  it("tells a handler whether a message is its own process's echo, and hands over the message as published", async () => {
    const redis = fakeRedis();
    const a = redis.replica();
    const b = redis.replica();
    const heard: { at: string; message: unknown; own: boolean }[] = [];
    await a.subscribe('t', (message, own) => heard.push({ at: 'a', message, own }));
    await b.subscribe('t', (message, own) => heard.push({ at: 'b', message, own }));
    a.publish('t', { ids: [1, 2] });
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard).toEqual([
      { at: 'a', message: { ids: [1, 2] }, own: true },
      { at: 'b', message: { ids: [1, 2] }, own: false },
    ]);
  });

  it("hands on a replica's message that carries no origin (a version before it) as another's", async () => {
    const redis = fakeRedis();
    const a = redis.replica();
    const heard: unknown[] = [];
    await a.subscribe('t', (message, own) => heard.push([message, own]));
    redis.raw('pos:broadcast:t', JSON.stringify({ kind: 'token', id: 3 }));
    redis.raw('pos:broadcast:t', '[1]');
    redis.raw('pos:broadcast:t', 'not json');
    expect(heard).toEqual([
      [{ kind: 'token', id: 3 }, false],
      [[1], false],
    ]);
  });
});
