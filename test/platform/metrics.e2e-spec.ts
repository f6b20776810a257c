import type { Server } from 'node:http';
import { AddressInfo, createServer } from 'node:net';
import { NestFactory } from '@nestjs/core';
import request from 'supertest';
import { serveInternalMetrics } from '../../apps/api/src/http/http-metrics';
import { serveWorkerMetrics } from '../../apps/worker/src/worker-metrics';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';

/** Prometheus text, line by line: every sample line must parse; returns series -> value (NaN in any case, as Prometheus reads it). */
function parsePrometheus(text: string): Map<string, number> {
  const series = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*\})? (-?[0-9.e+-]+|[Nn]a[Nn]|[+-]Inf)$/.exec(line);
    if (!m) throw new Error(`not Prometheus text: ${JSON.stringify(line)}`);
    series.set(`${m[1]}${m[2] ?? ''}`, Number(m[3]));
  }
  return series;
}

/** Issue 13, metrics: GET /metrics (Prometheus text, behind METRICS_TOKEN when set) and the worker's own listener. */
describe('Metrics', () => {
  let t: TestApp;
  let admin: string;
  let currency: string;
  const api = () => request(t.http);
  const scrape = async () => {
    const res = await api().get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheus(res.text);
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await login(t, DEMO.admin);
    currency = String((await t.db.query('SELECT currency_code FROM stores WHERE id = 1'))[0].currency_code);
    expect((await api().post('/api/v1/sessions/open').set(bearer(admin)).send({ store_id: 1, opening_balance: 50 })).status).toBe(200);
  });
  afterAll(() => t.close());

  it('serves every family the runbook names, as parseable Prometheus text', async () => {
    const res = await api().get('/metrics');
    expect(res.status).toBe(200);
    parsePrometheus(res.text);
    for (const family of [
      'http_request_duration_seconds histogram',
      'http_requests_in_flight gauge',
      'pos_checkouts_total counter',
      'pos_checkout_amount_minor_total counter',
      'pos_queue_jobs_waiting gauge',
      'pos_queue_jobs_failed gauge',
      'pos_outbox_lag_seconds gauge',
      'pos_webhook_delivery_attempts_total counter',
      'pos_db_pool_connections gauge',
      'process_cpu_user_seconds_total counter',
      'nodejs_eventloop_lag_seconds gauge',
    ])
      expect(res.text).toContain(`# TYPE ${family}`);
    expect(res.text).toMatch(/^pos_queue_jobs_waiting\{queue="pos-webhooks"\} \d+$/m);
    expect(res.text).toMatch(/^pos_outbox_lag_seconds \d/m);
  });

  it('counts a checkout once (not its replay) with its amount, and the request by route template', async () => {
    const before = await scrape();
    const [item] = await t.db.query("SELECT id FROM items WHERE sku = 'BEV-001'");
    const priced = await api()
      .post('/api/v1/pricing/cart')
      .set(bearer(admin))
      .send({ store_id: 1, items: [{ id: Number(item.id), qty: 2 }] });
    const total = priced.body.data.total as number;
    const body = {
      store_id: 1,
      idempotency_key: 'metrics-sale-1',
      items: [{ id: Number(item.id), qty: 2 }],
      payments: [{ payment_method_code: 'cash', amount: total }],
      total_amount: total,
    };
    expect((await api().post('/api/v1/pos/checkout').set(bearer(admin)).send(body)).status).toBe(201);
    const replay = await api().post('/api/v1/pos/checkout').set(bearer(admin)).send(body);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const after = await scrape();

    const delta = (key: string) => (after.get(key) ?? 0) - (before.get(key) ?? 0);
    const labels = `{mode="online",currency="${currency}"}`;
    expect(delta(`pos_checkouts_total${labels}`)).toBe(1);
    // Integer minor units of the sale's currency (exact), never a float in major units.
    const [{ decimals }] = await t.db.query('SELECT decimals FROM currencies WHERE code = ?', [currency]);
    expect(delta(`pos_checkout_amount_minor_total${labels}`)).toBe(Math.round(total * 10 ** Number(decimals)));
    expect([...after.keys()].some((k) => k.startsWith('pos_checkout_amount_total'))).toBe(false);
    expect(delta('http_request_duration_seconds_count{method="POST",route="/api/v1/pos/checkout",status="201"}')).toBe(2);
    // Ids never become labels: a detail route is one series, whatever the id.
    await api().get('/api/v1/sales/999999').set(bearer(admin));
    const detail = [...(await scrape()).keys()].filter((k) => k.startsWith('http_request_duration_seconds_count') && k.includes('/api/v1/sales/'));
    expect(detail).toEqual(['http_request_duration_seconds_count{method="GET",route="/api/v1/sales/:sale",status="404"}']);
  });

  it('labels unmatched paths with one series and counts nothing in flight between requests', async () => {
    await api().get('/no/such/path/123');
    await api().get('/no/such/path/456');
    const after = await scrape();
    expect(after.get('http_request_duration_seconds_count{method="GET",route="unmatched",status="404"}')).toBeGreaterThanOrEqual(2);
    expect([...after.keys()].some((k) => k.includes('/no/such'))).toBe(false);
    // The scrape itself is the one request in flight while the text is written.
    expect(after.get('http_requests_in_flight')).toBe(1);
  });

  describe('with METRICS_TOKEN set', () => {
    let secured: TestApp;
    const token = 'metrics-scrape-token-0123456789';
    beforeAll(async () => {
      secured = await startTestApp({ METRICS_TOKEN: token });
    });
    afterAll(() => secured.close());

    it('refuses a missing or wrong token with 401 and serves the right one', async () => {
      expectErrorNoEnvelopeId(await request(secured.http).get('/metrics'));
      expectErrorNoEnvelopeId(await request(secured.http).get('/metrics').set(bearer('wrong-token')));
      expectErrorNoEnvelopeId(
        await request(secured.http)
          .get('/metrics')
          .set(bearer(`${token}x`)),
      );
      const ok = await request(secured.http).get('/metrics').set(bearer(token));
      expect(ok.status).toBe(200);
      expect(parsePrometheus(ok.text).size).toBeGreaterThan(10);
    });
  });

  it('is off (404) with METRICS_ENABLED=false', async () => {
    const off = await startTestApp({ METRICS_ENABLED: 'false' });
    try {
      expectErrorEnvelope(await request(off.http).get('/metrics'), 404);
    } finally {
      await off.close();
    }
  });

  it('the worker serves its own registry on a plain node:http listener, bound to the internal host (127.0.0.1)', async () => {
    const config = { ...t.config, metrics: { ...t.config.metrics, workerPort: await freePort() } };
    const worker = await NestFactory.createApplicationContext(WorkerModule.register(config), { logger: false });
    const server = await serveWorkerMetrics(worker, config);
    try {
      expect(server).not.toBeNull();
      const { port, address } = server!.address() as AddressInfo;
      expect(port).toBe(config.metrics.workerPort);
      // Not every interface (:: or 0.0.0.0): the sales counters stay on the host unless METRICS_HOST says otherwise.
      expect(address).toBe('127.0.0.1');
      const res = await request(`http://127.0.0.1:${port}`).get('/metrics');
      expect(res.status).toBe(200);
      const series = parsePrometheus(res.text);
      expect(series.has('pos_queue_jobs_failed{queue="pos-webhooks"}')).toBe(true);
      expect(series.has('process_cpu_user_seconds_total')).toBe(true);
      expect((await request(`http://127.0.0.1:${port}`).get('/other')).status).toBe(404);
    } finally {
      if (server) await new Promise((resolve) => server.close(resolve));
      await worker.close();
    }
  });

  describe('with METRICS_PORT set (an internal listener)', () => {
    let internal: TestApp;
    let server: Server | null;
    const token = 'metrics-scrape-token-internal-0123456789';
    beforeAll(async () => {
      internal = await startTestApp({ METRICS_PORT: String(await freePort()), METRICS_TOKEN: token });
      server = await serveInternalMetrics(internal.app, internal.config);
    });
    afterAll(async () => {
      if (server) await new Promise((resolve) => server!.close(resolve));
      await internal.close();
    });

    it('serves /metrics only there, bound to 127.0.0.1, behind the token; the public port answers 404', async () => {
      expectErrorEnvelope(await request(internal.http).get('/metrics').set(bearer(token)), 404);
      const { port, address } = server!.address() as AddressInfo;
      expect(port).toBe(internal.config.metrics.port);
      expect(address).toBe('127.0.0.1');
      const origin = `http://127.0.0.1:${port}`;
      expectErrorNoEnvelopeId(await request(origin).get('/metrics'));
      const ok = await request(origin).get('/metrics').set(bearer(token));
      expect(ok.status).toBe(200);
      expect(ok.text).toContain('# TYPE pos_checkout_amount_minor_total counter');
    });
  });
});

/** A port free right now on 127.0.0.1 (the listeners under test take a configured port, as in production). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

function expectErrorNoEnvelopeId(res: request.Response): void {
  expect(res.status).toBe(401);
  expect(res.body).toMatchObject({ success: false });
  expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
}
