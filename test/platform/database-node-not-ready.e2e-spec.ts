import request from 'supertest';
import { QueryFailedError } from 'typeorm';
import { TypeOrmItemRepository } from '../../libs/catalog/src/infrastructure/item.repository';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 24 item 2: a Galera node outside the primary component (partitioned, joining, desynced)
 * answers every table read and write with errno 1047 ER_UNKNOWN_COM_ERROR ("WSREP has not yet
 * prepared node for application use") while `SELECT 1` still passes. Requests it fails are an
 * outage of that node (503 service_unavailable with Retry-After, as any other), never a 500; and
 * the health checks read a real table, so such a node reports the database down. The node is
 * faked the way the contention test fakes a deadlock: the driver's error, thrown where the
 * query would run.
 */
const notReady = () =>
  new QueryFailedError(
    'SELECT 1 FROM items',
    [],
    Object.assign(new Error('WSREP has not yet prepared node for application use'), {
      code: 'ER_UNKNOWN_COM_ERROR',
      errno: 1047,
      sqlState: '08S01',
      fatal: false,
    }),
  );

describe('A database node that is not ready (Galera 1047)', () => {
  let t: TestApp;
  let manager: string;
  const api = () => request(t.http);

  beforeAll(async () => {
    t = await startTestApp();
    manager = await login(t, DEMO.manager);
  });
  afterAll(() => t.close());

  it('answers 503 service_unavailable with Retry-After, not 500, tried once (another node or later will do)', async () => {
    const spy = jest.spyOn(TypeOrmItemRepository.prototype, 'create').mockRejectedValue(notReady());
    try {
      const res = await api().post('/api/v1/items').set(bearer(manager)).send({ sku: 'NR-1', name: 'Not Ready Gizmo', base_price: 1 });
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).toEqual({ success: false, message: 'The service is temporarily unavailable. Try again shortly.', code: 'service_unavailable' });
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
    const left = (await t.db.query("SELECT COUNT(*) AS n FROM items WHERE sku = 'NR-1'")) as { n: number }[];
    expect(Number(left[0].n)).toBe(0);
  });

  it('health and readiness read a real table: a node that passes SELECT 1 but refuses tables is down (503)', async () => {
    const real = t.db.query.bind(t.db);
    const seen: string[] = [];
    // The node as Galera leaves it: statements without a table pass, any table read is refused.
    const spy = jest.spyOn(t.db, 'query').mockImplementation(async (sql: string, params?: unknown[]) => {
      seen.push(sql);
      if (/\bFROM\b/i.test(sql)) throw notReady();
      return real(sql, params);
    });
    try {
      const health = await api().get('/api/v1/health');
      expect(health.status).toBe(503);
      expect(health.body.data).toMatchObject({ status: 'error', checks: { database: { status: 'down' } } });
      const ready = await api().get('/api/v1/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.body.data).toMatchObject({ status: 'not_ready', checks: { database: { status: 'down' }, migrations: { status: 'down' } } });
      expect(seen.some((q) => /^SELECT 1 FROM\b/i.test(q))).toBe(true);
    } finally {
      spy.mockRestore();
    }
    expect((await api().get('/api/v1/health')).status).toBe(200);
    expect((await api().get('/api/v1/health/ready')).status).toBe(200);
  });
});
