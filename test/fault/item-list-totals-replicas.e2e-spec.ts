import request from 'supertest';
import { bearer, DEMO, login, usingMysql } from '../support/test-app';
import { timed, TwoReplicas, until } from './fault-tools';

/**
 * Two API replicas on one MySQL database and one Redis, each holding GET /items totals
 * (ItemListTotals). An item created through one: the other's next pages show the new total
 * through the item write broadcast, never by its totals expiring (the TTL outlasts the run).
 */
const describeMysql = usingMysql() ? describe : describe.skip;
const CACHE_TTL_MS = 600_000;
if (!usingMysql()) console.info('item list totals across replicas: skipped (needs TEST_DB=mysql: two replicas share a MySQL database and a Redis)');

describeMysql('Item list totals across two replicas (MySQL + private Redis)', () => {
  const replicas = new TwoReplicas(6395, { REFERENCE_CACHE_TTL_MS: String(CACHE_TTL_MS) });
  let manager: string;

  beforeAll(async () => {
    await replicas.start();
    manager = await login(replicas.a, DEMO.manager);
  });
  afterAll(() => replicas.stop());

  const totalOnB = async () => {
    const res = await request(replicas.bHttp).get('/api/v1/items').query({ q: 'replitot', per_page: 1 }).set(bearer(manager));
    expect(res.status).toBe(200);
    return res.body.meta.total as number;
  };
  const create = async (k: number) =>
    expect(
      (
        await request(replicas.a.http)
          .post('/api/v1/items')
          .set(bearer(manager))
          .send({ sku: `REPLITOT-${k}`, name: `Replitot ${k}`, base_price: 1 })
      ).status,
    ).toBe(201);

  it('an item created on replica A: replica B shows the new total without waiting for its TTL', async () => {
    await create(1);
    await create(2);
    expect(await totalOnB()).toBe(2); // counted on B, and held there now
    await create(3);
    const { value, ms } = await timed(() => until(totalOnB, (n) => n === 3, CACHE_TTL_MS, 50));
    console.info(`replica B showed the new total ${ms} ms after the write on A (TTL ${CACHE_TTL_MS} ms)`);
    expect(value).toBe(3);
  });
});
