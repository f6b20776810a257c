import request from 'supertest';
import { ProcessLifecycle } from '@pos/platform';
import { startTestApp, TestApp } from '../support/test-app';

/** Issue 13, health: /health/live answers while the process runs; /health/ready only when it can serve. */
describe('Health: liveness and readiness', () => {
  let t: TestApp;
  const api = () => request(t.http);

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('is live and ready with every check up, without a token', async () => {
    const live = await api().get('/api/v1/health/live');
    expect(live.status).toBe(200);
    expect(live.body.data).toMatchObject({ status: 'ok', uptime_seconds: expect.any(Number) });
    const ready = await api().get('/api/v1/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.data.status).toBe('ready');
    expect(ready.body.data.checks).toMatchObject({
      database: { status: 'up' },
      migrations: { status: 'up' },
      ...(t.isMysql ? { redis: { status: 'up' } } : {}),
    });
    expect((await api().get('/api/v1/health')).status).toBe(200);
  });

  it('is not ready while a migration is pending', async () => {
    const [last] = (await t.db.query('SELECT id, timestamp, name FROM migrations ORDER BY id DESC LIMIT 1')) as {
      id: number;
      timestamp: number;
      name: string;
    }[];
    await t.db.query('DELETE FROM migrations WHERE id = ?', [last.id]);
    try {
      const ready = await api().get('/api/v1/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.body.data).toMatchObject({
        status: 'not_ready',
        checks: { database: { status: 'up' }, migrations: { status: 'down', error: 'pending migrations' } },
      });
    } finally {
      await t.db.query('INSERT INTO migrations (id, timestamp, name) VALUES (?, ?, ?)', [last.id, last.timestamp, last.name]);
    }
    expect((await api().get('/api/v1/health/ready')).status).toBe(200);
  });

  it('is 503 (not ready, database down) when the database is unreachable, and ready again once it is back', async () => {
    await t.db.destroy();
    try {
      const ready = await api().get('/api/v1/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.body.data).toMatchObject({ status: 'not_ready', checks: { database: { status: 'down' }, migrations: { status: 'down' } } });
      expect((await api().get('/api/v1/health')).status).toBe(503);
      expect((await api().get('/api/v1/health/live')).status).toBe(200);
    } finally {
      await t.db.initialize();
    }
    if (!t.isMysql) await t.db.runMigrations(); // the embedded database lives in memory: a new connection starts empty
    expect((await api().get('/api/v1/health/ready')).status).toBe(200);
  });

  // Last: draining cannot be undone (the process is on its way out).
  it('turns 503 once shutdown begins (draining), while liveness stays 200', async () => {
    t.app.get(ProcessLifecycle).beginDrain('test');
    const ready = await api().get('/api/v1/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.data.status).toBe('shutting_down');
    expect((await api().get('/api/v1/health/live')).status).toBe(200);
  });
});
