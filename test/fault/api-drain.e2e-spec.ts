import { Agent, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { ProcessLifecycle } from '@pos/platform';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';
import { timed } from './fault-tools';

/**
 * Issue 14 item 6: on shutdown the API drains: health 503 (`draining`), `Connection: close` on
 * responses, idle keep-alive connections closed, every request it accepted answered in full,
 * and the close does not wait for the forced-exit timer.
 */
describe('API drain on shutdown (keep-alive traffic)', () => {
  it('answers health 503 "draining" with Connection: close once draining has begun', async () => {
    const t = await startTestApp();
    try {
      await request(t.http).get('/api/v1/health').expect(200);
      t.app.get(ProcessLifecycle).beginDrain('test');
      const res = await request(t.http).get('/api/v1/health');
      expect(res.status).toBe(503);
      expect(res.body.data.status).toBe('draining');
      expect(res.headers.connection).toBe('close');
    } finally {
      await t.close();
    }
  });

  it('finishes every accepted request under keep-alive load, closes the connections and the app promptly', async () => {
    let t: TestApp | undefined = await startTestApp({ SHUTDOWN_TIMEOUT_MS: '600000' });
    const token = await login(t, DEMO.cashier);
    await t.app.listen(0, '127.0.0.1');
    const server = t.app.getHttpServer();
    const port = (server.address() as AddressInfo).port;
    let accepted = 0;
    let finished = 0;
    server.on('request', (_req, res) => {
      accepted++;
      res.once('finish', () => finished++);
    });
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const statuses = new Map<number, number>();
    let closeHeaders = 0;
    let stop = false;
    const get = () =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path: '/api/v1/pos/products', agent, headers: bearer(token) }, (res) => {
          if (res.headers.connection === 'close') closeHeaders++;
          res.resume();
          res.once('end', () => resolve(res.statusCode ?? 0));
          res.once('error', reject);
        });
        req.once('error', reject);
        req.end();
      });
    const loops = Array.from({ length: 8 }, async () => {
      while (!stop) {
        try {
          const status = await get();
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        } catch {
          return; // the server stopped taking connections: this client would go to another replica
        }
      }
    });
    await new Promise((r) => setTimeout(r, 400));
    const { ms } = await timed(() => t!.app.close());
    stop = true;
    await Promise.all(loops);
    agent.destroy();
    console.info(
      `drain: closed in ${ms} ms; accepted ${accepted}, answered ${finished}; statuses ${JSON.stringify([...statuses])}; ${closeHeaders} with Connection: close`,
    );
    expect(finished).toBe(accepted);
    expect([...statuses.keys()]).toEqual([200]);
    // (Connection: close shows only on responses in flight at that moment: logged, asserted by the health case above)
    // Closed by the drain, not by force: SHUTDOWN_TIMEOUT_MS (10 min) is beyond the jest backstop, so a
    // drain that never finished would fail the test rather than pass on a forced exit.
    t = undefined;
  });
});
