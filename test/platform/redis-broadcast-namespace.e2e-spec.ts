import { randomBytes } from 'node:crypto';
import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigModule, loadConfig, RedisModule, ReplicaBroadcast } from '@pos/platform';

/**
 * Issue 24 item 4: pub/sub ignores the database number, so two deployments on one Redis that
 * differ only by it (redis://host/1 and redis://host/2, same QUEUE_PREFIX) heard each other's
 * replica broadcasts: a token revoked in one deployment was dropped from the other's caches
 * (and a user id of one is another user in the other). Each deployment now has its own
 * channels; replicas of one deployment still hear each other. Only channels are used on the
 * shared Redis (nothing is written to its databases).
 */
const redisUrl = process.env.TEST_REDIS_URL;
const withRedis = redisUrl ? describe : describe.skip;
if (!redisUrl) console.info('redis-broadcast-namespace: skipped (needs TEST_REDIS_URL: the MariaDB + Redis run)');

withRedis('Replica broadcast channels per deployment on one Redis (TEST_REDIS_URL run)', () => {
  const prefix = `pos-ns-${randomBytes(4).toString('hex')}`;
  const contexts: INestApplicationContext[] = [];

  async function deployment(db: number): Promise<{ broadcast: ReplicaBroadcast; heard: unknown[] }> {
    const url = new URL(redisUrl!);
    url.pathname = `/${db}`;
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', REDIS_URL: url.toString(), QUEUE_PREFIX: prefix });
    @Module({ imports: [ConfigModule.forRoot(config), RedisModule] })
    class BroadcastOnly {}
    const context = await NestFactory.createApplicationContext(BroadcastOnly, { logger: false });
    contexts.push(context);
    const broadcast = context.get(ReplicaBroadcast);
    const heard: unknown[] = [];
    await broadcast.subscribe('identity.revoked', (message) => heard.push(message));
    return { broadcast, heard };
  }

  afterAll(async () => {
    for (const c of contexts) await c.close();
  });

  it('a deployment on database 2 does not hear one on database 1 with the same prefix; a replica on database 1 does', async () => {
    const one = await deployment(1);
    const replicaOfOne = await deployment(1);
    const two = await deployment(2);
    // Subscriptions are made on ready; wait (boundedly) until every one is in place.
    for (let i = 0; i < 100 && [one, replicaOfOne, two].some((d) => d.heard.length === 0); i++) {
      for (const d of [one, replicaOfOne, two]) if (d.heard.length === 0) d.broadcast.publish('identity.revoked', { probe: true });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const d of [one, replicaOfOne, two]) d.heard.length = 0;

    one.broadcast.publish('identity.revoked', { tokenId: 7 });
    for (let i = 0; i < 100 && replicaOfOne.heard.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    // Round trip through Redis on the same connections: anything for `two` has arrived by then.
    two.broadcast.publish('identity.revoked', { tokenId: 8 });
    for (let i = 0; i < 100 && two.heard.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));

    expect(replicaOfOne.heard).toEqual([{ tokenId: 7 }]);
    expect(one.heard).toEqual([{ tokenId: 7 }]);
    expect(two.heard).toEqual([{ tokenId: 8 }]);
  });
});
