import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import { INestApplicationContext, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger as PinoNestLogger } from 'nestjs-pino';
import request from 'supertest';
import { OutboxRelayService, WebhookMaintenanceService } from '@pos/webhooks';
import { WorkerModule } from '../../apps/worker/src/worker.module';
// Internal on purpose: the test holds a relay claim open while a "sale" writes its event.
import { OutboxRelayRepository } from '../../libs/webhooks/src/application/webhook.ports';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp, usingMysql } from '../support/test-app';
import { eventually, Received, WebhookReceiver } from './receiver';

/**
 * Signed webhooks end to end, on the embedded default (relay and deliveries in the API process)
 * and on MySQL + Redis (BullMQ, relay and deliveries in a worker context), with a real receiver
 * on 127.0.0.1. The app allows private targets (everything here is loopback) except in the SSRF
 * block, which runs its own app with the default setting. Retries are 1 s apart.
 */
const FAST = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_RETRY_SCHEDULE: '1,1,1',
  WEBHOOK_RELAY_INTERVAL_MS: '100',
  WEBHOOK_SWEEP_INTERVAL_MS: '1000',
  WEBHOOK_TIMEOUT_MS: '3000',
  LOG_LEVEL: 'debug',
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface Stack {
  t: TestApp;
  worker?: INestApplicationContext;
  /** Where the relay and the deliveries run: the worker with Redis, else the API. */
  runner: INestApplicationContext;
  close(): Promise<void>;
}

async function startStack(overrides: Record<string, string>): Promise<Stack> {
  const t = await startTestApp(overrides);
  // The harness boots with `logger: false` and buffered logs, which leaves Nest's log buffer
  // attached (every Logger line held back): flush it so this suite sees what production logs.
  Logger.flush();
  let worker: INestApplicationContext | undefined;
  if (t.isMysql) {
    worker = await NestFactory.createApplicationContext(WorkerModule.register(t.config), { logger: false });
    await worker.init();
    // `logger: false` above switched Nest's (process-wide) logger off again: back to pino.
    t.app.useLogger(t.app.get(PinoNestLogger));
    Logger.flush();
  }
  return {
    t,
    worker,
    runner: worker ?? t.app,
    close: async () => {
      await worker?.close();
      await t.close();
    },
  };
}

/** A timestamp parameter for raw SQL (better-sqlite3 binds no Date). */
function sqlTime(t: TestApp, d: Date): Date | string {
  return t.isMysql ? d : d.toISOString().replace('T', ' ').replace('Z', '');
}

function signatureOf(secret: string, r: Received): string {
  return createHmac('sha256', secret)
    .update(`${String(r.headers['x-service-timestamp'])}.${r.rawBody}`)
    .digest('hex');
}

// Every log line the service writes is captured (not printed) so a test can look for secrets in
// it: pino writes to fd 1 through fs.write (SonicBoom), or to process.stdout when something (jest)
// has patched it, so both are intercepted.
const logged: string[] = [];
const realStdoutWrite = process.stdout.write.bind(process.stdout);
jest.spyOn(process.stdout, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
  const text = String(chunk);
  if (!text.startsWith('{"level"')) return (realStdoutWrite as (...a: unknown[]) => boolean)(chunk, ...rest);
  logged.push(text);
  const cb = rest.find((r): r is () => void => typeof r === 'function');
  if (cb) process.nextTick(cb);
  return true;
}) as typeof process.stdout.write);
type Write = (fd: number, data: unknown, ...rest: unknown[]) => unknown;
const realWrite = fs.write as unknown as Write;
const realWriteSync = fs.writeSync as unknown as Write;
jest.spyOn(fs, 'write').mockImplementation(((fd: number, data: unknown, ...rest: unknown[]) => {
  if (fd !== 1 && fd !== 2) return realWrite(fd, data, ...rest);
  logged.push(String(data));
  const cb = rest.find((r): r is (e: null, n: number) => void => typeof r === 'function');
  const n = typeof data === 'string' ? Buffer.byteLength(data) : (data as Buffer).length;
  if (cb) process.nextTick(() => cb(null, n));
}) as unknown as typeof fs.write);
jest.spyOn(fs, 'writeSync').mockImplementation(((fd: number, data: unknown, ...rest: unknown[]) => {
  if (fd !== 1 && fd !== 2) return realWriteSync(fd, data, ...rest);
  logged.push(String(data));
  return typeof data === 'string' ? Buffer.byteLength(data) : (data as Buffer).length;
}) as unknown as typeof fs.writeSync);

describe('Webhooks', () => {
  let s: Stack;
  let t: TestApp;
  let admin: string;
  let cashier: string;
  let receiver: WebhookReceiver;
  const secrets: string[] = [];
  const api = () => request(t.http);
  let beverage: number;
  let saleN = 0;

  const create = (body: Record<string, unknown>, token = admin) => api().post('/api/v1/webhooks').set(bearer(token)).send(body);
  const endpointFor = async (path: string, events: string[] = ['*'], extra: Record<string, unknown> = {}) => {
    const res = await create({ url: receiver.url(path), events, description: `receiver ${path}`, ...extra });
    expect(res.status).toBe(201);
    secrets.push(res.body.data.secret);
    return res.body.data as { id: number; secret: string };
  };
  const deliveries = async (endpointId: number, query = '') =>
    (await api().get(`/api/v1/webhooks/${endpointId}/deliveries${query}`).set(bearer(admin))).body as {
      data: { id: string; status: string; attempts: number; event: string; last_status_code: number | null; last_error: string | null }[];
      meta: { total: number };
    };
  const detail = async (endpointId: number, delivery: string) =>
    (await api().get(`/api/v1/webhooks/${endpointId}/deliveries/${delivery}`).set(bearer(admin))).body.data;
  const sell = () =>
    api()
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .send({
        store_id: 1,
        idempotency_key: `wh-sale-${++saleN}-${Date.now()}`,
        items: [{ id: beverage, qty: 1 }],
        payments: [{ payment_method_code: 'cash', amount: 2 }],
        total_amount: 1.32,
      });

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    s = await startStack(FAST);
    t = s.t;
    admin = await login(t, DEMO.admin);
    cashier = await login(t, DEMO.cashier);
    beverage = Number((await t.db.query("SELECT id FROM items WHERE sku = 'BEV-001'"))[0].id);
    const opened = await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 50 });
    expect(opened.status).toBe(200);
  });
  afterAll(async () => {
    await s.close();
    await receiver.close();
  });

  describe('endpoints API', () => {
    it('needs webhooks.manage (admin has it; manager and cashier do not) and a token', async () => {
      const manager = await login(t, DEMO.manager);
      for (const token of [manager, cashier]) {
        expectErrorEnvelope(await create({ url: receiver.url('/x'), events: ['*'] }, token), 403);
        expectErrorEnvelope(await api().get('/api/v1/webhooks').set(bearer(token)), 403);
      }
      expectErrorEnvelope(await api().get('/api/v1/webhooks'), 401);
    });

    it('validates the body: url, events against the known kinds or *, description, active', async () => {
      const cases: [Record<string, unknown>, string[]][] = [
        [{ events: ['*'] }, ['url']],
        [{ url: receiver.url('/a') }, ['events']],
        [{ url: receiver.url('/a'), events: [] }, ['events']],
        [{ url: receiver.url('/a'), events: ['sale.completed', 'sale.exploded'] }, ['events']],
        [{ url: receiver.url('/a'), events: 'sale.completed' }, ['events']],
        [{ url: receiver.url('/a'), events: [42] }, ['events']],
        [{ url: 'ftp://127.0.0.1/x', events: ['*'] }, ['url']],
        [{ url: 'http://user:pw@127.0.0.1/x', events: ['*'] }, ['url']],
        [{ url: 'not a url', events: ['*'] }, ['url']],
        [{ url: '   ', events: ['*'] }, ['url']],
        [{ url: receiver.url('/a'), events: ['*'], description: 'd'.repeat(256) }, ['description']],
        [{ url: receiver.url('/a'), events: ['*'], active: 'sometimes' }, ['active']],
      ];
      for (const [body, fields] of cases) {
        const res = await create(body);
        expectErrorEnvelope(res, 422, 'The given data was invalid.');
        expect(Object.keys(res.body.errors).sort()).toEqual(fields);
      }
      expect(Number((await t.db.query('SELECT COUNT(*) AS n FROM webhook_endpoints'))[0].n)).toBe(0);
    });

    it('creates (201) with the signing secret shown once and stored only sealed; lists, shows, updates, deletes', async () => {
      const res = await create({ url: receiver.url('/crud#frag'), events: ['sale.completed', 'sale.completed', 'ping'], description: ' Books ' });
      expect(res.status).toBe(201);
      const e = res.body.data;
      secrets.push(e.secret);
      expect(e).toMatchObject({
        url: receiver.url('/crud'),
        events: ['sale.completed', 'ping'],
        description: 'Books',
        active: true,
        disabled_at: null,
        failing_since: null,
      });
      expect(e.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      const [row] = await t.db.query('SELECT secret_sealed FROM webhook_endpoints WHERE id = ?', [e.id]);
      expect(row.secret_sealed).not.toContain(e.secret);
      expect(row.secret_sealed).not.toContain(e.secret.slice(6, 20));

      const shown = await api().get(`/api/v1/webhooks/${e.id}`).set(bearer(admin));
      expect(shown.status).toBe(200);
      expect(shown.body.data.secret).toBeUndefined();
      expect(JSON.stringify(shown.body)).not.toContain(e.secret);
      const list = await api().get('/api/v1/webhooks?per_page=500').set(bearer(admin));
      expect(list.status).toBe(200);
      expect(list.body.meta).toMatchObject({ current_page: 1, per_page: 100 });
      expect(JSON.stringify(list.body)).not.toContain('whsec_');
      expectErrorEnvelope(await api().get('/api/v1/webhooks?per_page=0').set(bearer(admin)), 422);

      const updated = await api()
        .put(`/api/v1/webhooks/${e.id}`)
        .set(bearer(admin))
        .send({ events: ['*'], active: false });
      expect(updated.status).toBe(200);
      expect(updated.body.data).toMatchObject({ events: ['*'], active: false, url: receiver.url('/crud'), description: 'Books' });
      expectErrorEnvelope(
        await api()
          .put(`/api/v1/webhooks/${e.id}`)
          .set(bearer(admin))
          .send({ events: ['nope'] }),
        422,
      );
      expectErrorEnvelope(await api().put(`/api/v1/webhooks/${e.id}`).set(bearer(admin)).send({ url: '' }), 422);

      expectErrorEnvelope(await api().post(`/api/v1/webhooks/${e.id}/ping`).set(bearer(admin)), 409);
      const removed = await api().delete(`/api/v1/webhooks/${e.id}`).set(bearer(admin));
      expect(removed.status).toBe(200);
      expect(removed.body).toEqual({ success: true, message: 'Webhook endpoint deleted.' });
      for (const path of [`/api/v1/webhooks/${e.id}`, '/api/v1/webhooks/abc', '/api/v1/webhooks/999999', `/api/v1/webhooks/999999/deliveries`]) {
        expectErrorEnvelope(await api().get(path).set(bearer(admin)), 404);
      }
      expectErrorEnvelope(await api().delete(`/api/v1/webhooks/${e.id}`).set(bearer(admin)), 404);
    });

    it('documents every webhook route in OpenAPI with its envelope and errors', async () => {
      const doc = (await request(t.http).get('/api/docs-json')).body;
      const ops: [string, string, string][] = [
        ['/api/v1/webhooks', 'post', '201'],
        ['/api/v1/webhooks', 'get', '200'],
        ['/api/v1/webhooks/{webhook}', 'get', '200'],
        ['/api/v1/webhooks/{webhook}', 'put', '200'],
        ['/api/v1/webhooks/{webhook}', 'delete', '200'],
        ['/api/v1/webhooks/{webhook}/rotate-secret', 'post', '200'],
        ['/api/v1/webhooks/{webhook}/ping', 'post', '202'],
        ['/api/v1/webhooks/{webhook}/deliveries', 'get', '200'],
        ['/api/v1/webhooks/{webhook}/deliveries/{delivery}', 'get', '200'],
        ['/api/v1/webhooks/{webhook}/deliveries/{delivery}/redeliver', 'post', '202'],
      ];
      for (const [path, method, status] of ops) {
        const op = doc.paths[path]?.[method];
        expect(op).toBeDefined();
        expect(op['x-permission']).toBe('webhooks.manage');
        expect(op.responses[status].content['application/json'].schema).toBeDefined();
        for (const err of ['401', '403']) expect(op.responses[err]).toBeDefined();
      }
      expect(doc.paths['/api/v1/webhooks'].post.responses['422']).toBeDefined();
      expect(doc.components.schemas.CreatedWebhookEndpointSchema.properties.secret).toBeDefined();
    });
  });

  describe('deliveries', () => {
    let sales: { id: number; secret: string };
    let flaky: { id: number; secret: string };

    it('delivers sale.completed with the four X-Service-* headers and a signature verified from the raw body', async () => {
      sales = await endpointFor('/sales', ['sale.completed']);
      const sale = await sell();
      expect(sale.status).toBe(201);
      const [got] = await receiver.waitFor('/sales', (g) => g.length >= 1);
      expect(got.headers['x-service-event']).toBe('sale.completed');
      expect(got.headers['content-type']).toBe('application/json');
      expect(got.headers['user-agent']).toMatch(/^POS-Service-Webhooks\//);
      const ts = Number(got.headers['x-service-timestamp']);
      expect(String(ts)).toMatch(/^\d{10}$/);
      expect(Math.abs(ts - Date.now() / 1000)).toBeLessThan(30);
      expect(got.headers['x-service-signature']).toBe(signatureOf(sales.secret, got));
      expect(got.headers['x-service-signature']).toMatch(/^[0-9a-f]{64}$/);
      expect(got.deliveryId).toMatch(UUID);
      expect(Object.keys(got.body).sort()).toEqual(['created_at', 'data', 'id', 'type']);
      expect(got.body.type).toBe('sale.completed');
      expect(new Date(got.body.created_at).toISOString()).toBe(got.body.created_at);
      expect((got.body.data.sale as { id: number; receipt_number: string }).id).toBe(sale.body.data.id);
      expect((got.body.data.sale as { receipt_number: string }).receipt_number).toBe(sale.body.data.receipt_number);
      // only what it subscribed to: no session or inventory events
      await new Promise((r) => setTimeout(r, 500));
      expect(receiver.at('/sales').map((r) => r.body.type)).toEqual(['sale.completed']);

      const log = await eventually(
        () => deliveries(sales.id),
        (l) => l.data[0]?.status === 'delivered',
      );
      expect(log.data[0]).toMatchObject({
        id: got.deliveryId,
        event: 'sale.completed',
        status: 'delivered',
        attempts: 1,
        last_status_code: 200,
        last_error: null,
      });
    });

    it('a receiver answering 500 once gets the same delivery id again; the log shows both attempts', async () => {
      receiver.on('/flaky', (_r, seenBefore) => (seenBefore === 0 ? { status: 500, body: 'boom' } : { status: 204 }));
      flaky = await endpointFor('/flaky', ['sale.completed']);
      expect((await sell()).status).toBe(201);
      const got = await receiver.waitFor('/flaky', (g) => g.length >= 2);
      expect(got).toHaveLength(2);
      expect(got[1].deliveryId).toBe(got[0].deliveryId);
      expect(got[1].body.id).toBe(got[0].body.id);
      for (const r of got) expect(r.headers['x-service-signature']).toBe(signatureOf(flaky.secret, r));
      expect(got[1].at - got[0].at).toBeGreaterThanOrEqual(900); // the 1 s retry

      const d = await eventually(
        () => detail(flaky.id, got[0].deliveryId),
        (x) => x.status === 'delivered',
      );
      expect(d).toMatchObject({ id: got[0].deliveryId, status: 'delivered', attempts: 2, last_status_code: 204, next_attempt_at: null });
      expect(d.attempt_log).toEqual([
        expect.objectContaining({ attempt: 1, status_code: 500, error: 'HTTP 500', response_excerpt: 'boom', remote_address: '127.0.0.1' }),
        expect.objectContaining({ attempt: 2, status_code: 204, error: null }),
      ]);
      expect(d.attempt_log[0].duration_ms).toEqual(expect.any(Number));
      expect(d.payload).toMatchObject({ id: got[0].body.id, type: 'sale.completed' });
      const endpoint = (await api().get(`/api/v1/webhooks/${flaky.id}`).set(bearer(admin))).body.data;
      expect(endpoint.failing_since).toBeNull(); // the success ended the failing streak
    });

    it('redelivers a delivery with the same delivery id', async () => {
      const [first] = receiver.at('/sales');
      const res = await api().post(`/api/v1/webhooks/${sales.id}/deliveries/${first.deliveryId}/redeliver`).set(bearer(admin));
      expect(res.status).toBe(202);
      expect(res.body.data).toMatchObject({ id: first.deliveryId, status: 'pending' });
      const got = (await receiver.waitFor('/sales', (g) => g.filter((r) => r.deliveryId === first.deliveryId).length >= 2)).filter(
        (r) => r.deliveryId === first.deliveryId,
      );
      expect(got[1].body).toEqual(first.body);
      expect(got[1].rawBody).toBe(first.rawBody);
      expect(got[1].headers['x-service-signature']).toBe(signatureOf(sales.secret, got[1]));
      const d = await eventually(
        () => detail(sales.id, first.deliveryId),
        (x) => x.status === 'delivered' && x.attempts === 2,
      );
      expect(d.attempt_log.map((a: { attempt: number }) => a.attempt)).toEqual([1, 2]);
      expectErrorEnvelope(
        await api()
          .post(`/api/v1/webhooks/${sales.id}/deliveries/${'0'.repeat(36)}/redeliver`)
          .set(bearer(admin)),
        404,
      );
      expectErrorEnvelope(await api().post(`/api/v1/webhooks/${flaky.id}/deliveries/${first.deliveryId}/redeliver`).set(bearer(admin)), 404);
      expectErrorEnvelope(await api().get(`/api/v1/webhooks/${sales.id}/deliveries/not-a-uuid`).set(bearer(admin)), 404);
    });

    it('pings one endpoint, whatever it subscribes to', async () => {
      const res = await api().post(`/api/v1/webhooks/${sales.id}/ping`).set(bearer(admin));
      expect(res.status).toBe(202);
      expect(res.body.data).toMatchObject({ event: 'ping', status: 'pending', attempts: 0 });
      const got = await receiver.waitFor('/sales', (g) => g.some((r) => r.body.type === 'ping'));
      const ping = got.find((r) => r.body.type === 'ping')!;
      expect(ping.deliveryId).toBe(res.body.data.id);
      expect(ping.headers['x-service-event']).toBe('ping');
      expect(ping.body.data).toMatchObject({ endpoint_id: sales.id });
      expect(ping.headers['x-service-signature']).toBe(signatureOf(sales.secret, ping));
      expect(receiver.at('/flaky').some((r) => r.body.type === 'ping')).toBe(false);
      const filtered = await deliveries(sales.id, '?event=ping');
      expect(filtered.data.map((d) => d.event)).toEqual(['ping']);
      expectErrorEnvelope(await api().get(`/api/v1/webhooks/${sales.id}/deliveries?status=lost`).set(bearer(admin)), 422);
    });

    it('rotates the secret: both signatures for 24 hours, the new one first', async () => {
      const res = await api().post(`/api/v1/webhooks/${sales.id}/rotate-secret`).set(bearer(admin));
      expect(res.status).toBe(200);
      const { secret, previous_secret_expires_at } = res.body.data;
      secrets.push(secret);
      expect(secret).not.toBe(sales.secret);
      const hours = (new Date(previous_secret_expires_at).getTime() - Date.now()) / 3_600_000;
      expect(hours).toBeGreaterThan(23.9);
      expect(hours).toBeLessThanOrEqual(24);
      const before = receiver.at('/sales').length;
      await api().post(`/api/v1/webhooks/${sales.id}/ping`).set(bearer(admin));
      const got = (await receiver.waitFor('/sales', (g) => g.length > before))[before];
      expect(String(got.headers['x-service-signature']).split(',')).toEqual([signatureOf(secret, got), signatureOf(sales.secret, got)]);
      // after the overlap only the new secret signs
      await t.db.query('UPDATE webhook_endpoints SET previous_secret_expires_at = ? WHERE id = ?', [sqlTime(t, new Date(Date.now() - 1000)), sales.id]);
      await api().post(`/api/v1/webhooks/${sales.id}/ping`).set(bearer(admin));
      const later = (await receiver.waitFor('/sales', (g) => g.length > before + 1))[before + 1];
      expect(later.headers['x-service-signature']).toBe(signatureOf(secret, later));
      sales.secret = secret;
    });

    it('fans one event out to every subscribed endpoint and skips inactive ones', async () => {
      const all = await endpointFor('/all', ['*']);
      const paused = await endpointFor('/paused', ['*'], { active: false });
      const customer = await api().post('/api/v1/customers').set(bearer(admin)).send({ name: 'Webhook Watcher', email: 'watcher@example.com' });
      expect(customer.status).toBe(201);
      const got = await receiver.waitFor('/all', (g) => g.some((r) => r.body.type === 'customer.created'));
      expect(got.find((r) => r.body.type === 'customer.created')!.body.data).toMatchObject({ customer: { id: customer.body.data.id } });
      await new Promise((r) => setTimeout(r, 500));
      expect(receiver.at('/paused')).toEqual([]);
      expect((await deliveries(paused.id)).meta.total).toBe(0);
      expect(receiver.at('/sales').some((r) => r.body.type === 'customer.created')).toBe(false);
      expect((await deliveries(all.id, '?status=delivered')).data.every((d) => d.status === 'delivered')).toBe(true);
    });

    it('retries on the schedule, then marks the delivery failed with every attempt logged', async () => {
      receiver.on('/gone', () => ({ status: 410 }));
      const gone = await endpointFor('/gone', ['ping']);
      const res = await api().post(`/api/v1/webhooks/${gone.id}/ping`).set(bearer(admin));
      const got = await receiver.waitFor('/gone', (g) => g.length >= 4);
      expect(new Set(got.map((r) => r.deliveryId))).toEqual(new Set([res.body.data.id]));
      const d = await eventually(
        () => detail(gone.id, res.body.data.id),
        (x) => x.status === 'failed',
      );
      expect(d).toMatchObject({ attempts: 4, last_status_code: 410, last_error: 'HTTP 410', next_attempt_at: null });
      expect(d.attempt_log.map((a: { status_code: number }) => a.status_code)).toEqual([410, 410, 410, 410]);
      await new Promise((r) => setTimeout(r, 1500));
      expect(receiver.at('/gone')).toHaveLength(4);
      const endpoint = (await api().get(`/api/v1/webhooks/${gone.id}`).set(bearer(admin))).body.data;
      expect(endpoint.failing_since).not.toBeNull();
      expect(endpoint.active).toBe(true); // not failing for 72 hours yet
    });

    it('logs a redirect and a closed port as failed attempts; never follows redirects', async () => {
      receiver.on('/redirect', () => ({ status: 302, body: 'elsewhere' }));
      const redirect = await endpointFor('/redirect', ['ping']);
      const res = await api().post(`/api/v1/webhooks/${redirect.id}/ping`).set(bearer(admin));
      await receiver.waitFor('/redirect', (g) => g.length >= 1);
      const d = await eventually(
        () => detail(redirect.id, res.body.data.id),
        (x) => x.attempts >= 1,
      );
      expect(d.attempt_log[0]).toMatchObject({ status_code: 302, error: 'HTTP 302 (redirects are not followed)' });
      await api().put(`/api/v1/webhooks/${redirect.id}`).set(bearer(admin)).send({ active: false });

      const dead = await endpointFor('/dead', ['ping']);
      await t.db.query('UPDATE webhook_endpoints SET url = ? WHERE id = ?', ['http://127.0.0.1:1/dead', dead.id]);
      const pinged = await api().post(`/api/v1/webhooks/${dead.id}/ping`).set(bearer(admin));
      const failed = await eventually(
        () => detail(dead.id, pinged.body.data.id),
        (x) => x.attempts >= 1,
      );
      expect(failed.attempt_log[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/ECONNREFUSED/) });
      await api().put(`/api/v1/webhooks/${dead.id}`).set(bearer(admin)).send({ active: false });

      // a secret sealed under another APP_KEY: nothing is sent, the attempt says what to do
      const sealedElsewhere = await endpointFor('/sealed-elsewhere', ['ping']);
      await t.db.query('UPDATE webhook_endpoints SET secret_sealed = ? WHERE id = ?', ['v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA', sealedElsewhere.id]);
      const unsent = await api().post(`/api/v1/webhooks/${sealedElsewhere.id}/ping`).set(bearer(admin));
      const unreadable = await eventually(
        () => detail(sealedElsewhere.id, unsent.body.data.id),
        (x) => x.attempts >= 1,
      );
      expect(unreadable.attempt_log[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/signing secret cannot be opened.*rotate/) });
      expect(receiver.at('/sealed-elsewhere')).toEqual([]);
      await api().put(`/api/v1/webhooks/${sealedElsewhere.id}`).set(bearer(admin)).send({ active: false });
    });

    it('disables an endpoint failing continuously for 72 hours, says so, and re-enables it on request', async () => {
      receiver.on('/down', () => ({ status: 503 }));
      const down = await endpointFor('/down', ['ping']);
      await t.db.query('UPDATE webhook_endpoints SET failing_since = ? WHERE id = ?', [sqlTime(t, new Date(Date.now() - 73 * 3_600_000)), down.id]);
      await api().post(`/api/v1/webhooks/${down.id}/ping`).set(bearer(admin));
      const e = await eventually(
        async () => (await api().get(`/api/v1/webhooks/${down.id}`).set(bearer(admin))).body.data,
        (x) => x.disabled_at !== null,
      );
      expect(e.active).toBe(false);
      expect(e.disabled_reason).toMatch(/failed for 72 hours/);
      // the pending retry (due 1 s after the failure) is not sent to a disabled endpoint
      const [d] = (
        await eventually(
          () => deliveries(down.id),
          (l) => l.data[0]?.status === 'failed',
        )
      ).data;
      expect(d).toMatchObject({ status: 'failed', attempts: 1, last_error: expect.stringMatching(/inactive or disabled/) });
      expect(receiver.at('/down')).toHaveLength(1);
      expectErrorEnvelope(await api().post(`/api/v1/webhooks/${down.id}/ping`).set(bearer(admin)), 409);
      expectErrorEnvelope(await api().post(`/api/v1/webhooks/${down.id}/deliveries/${d.id}/redeliver`).set(bearer(admin)), 409);

      receiver.on('/down', () => ({ status: 200 }));
      const again = await api().put(`/api/v1/webhooks/${down.id}`).set(bearer(admin)).send({ active: true });
      expect(again.body.data).toMatchObject({ active: true, disabled_at: null, disabled_reason: null, failing_since: null });
      expect((await api().post(`/api/v1/webhooks/${down.id}/deliveries/${d.id}/redeliver`).set(bearer(admin))).status).toBe(202);
      await receiver.waitFor('/down', (g) => g.length >= 2);
    });

    it('queues again a due delivery whose job was lost (the sweep), with the same delivery id', async () => {
      const [first] = receiver.at('/sales');
      const before = receiver.at('/sales').filter((r) => r.deliveryId === first.deliveryId).length;
      // As after a Redis restart that lost the queue: the row says pending and due, no job exists.
      await t.db.query("UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, round_start = attempts WHERE uuid = ?", [
        sqlTime(t, new Date(Date.now() - 60_000)),
        first.deliveryId,
      ]);
      const got = await receiver.waitFor('/sales', (g) => g.filter((r) => r.deliveryId === first.deliveryId).length > before, 15_000);
      expect(got.filter((r) => r.deliveryId === first.deliveryId).length).toBe(before + 1);
      await eventually(
        () => detail(sales.id, first.deliveryId),
        (x) => x.status === 'delivered',
      );
    });

    it('relays each event once even with several relays at once', async () => {
      const relay = s.runner.get(OutboxRelayService);
      const [{ maxId }] = await t.db.query('SELECT COALESCE(MAX(id), 0) AS maxId FROM outbox_events');
      const values = Array.from({ length: 300 }, (_, i) => `('customer.updated', NULL, '{"n":${i}}', ?, NULL)`).join(', ');
      await t.db.query(
        `INSERT INTO outbox_events (type, store_id, payload, created_at, published_at) VALUES ${values}`,
        Array(300).fill(sqlTime(t, new Date())),
      );
      const runs = await Promise.all([relay.relayOnce(), relay.relayOnce(), relay.relayOnce(), relay.relayOnce()]);
      const claimed = runs.flatMap((r) => r.events);
      expect(new Set(claimed).size).toBe(claimed.length);
      await eventually(
        async () => Number((await t.db.query('SELECT COUNT(*) AS n FROM outbox_events WHERE id > ? AND published_at IS NULL', [maxId]))[0].n),
        (n) => n === 0,
      );
      const all = (await api().get('/api/v1/webhooks').set(bearer(admin))).body.data.find((e: { url: string }) => e.url.endsWith('/all'));
      const perEvent = await t.db.query('SELECT event_id, COUNT(*) AS n FROM webhook_deliveries WHERE endpoint_id = ? AND event_id > ? GROUP BY event_id', [
        all.id,
        maxId,
      ]);
      expect(perEvent).toHaveLength(300);
      expect(perEvent.every((r: { n: number | string }) => Number(r.n) === 1)).toBe(true);
      const got = await receiver.waitFor('/all', (g) => g.filter((r) => r.body.id > Number(maxId)).length >= 300, 30_000);
      const ids = got.filter((r) => r.body.id > Number(maxId)).map((r) => r.body.id);
      expect(new Set(ids).size).toBe(300);
    });

    (usingMysql() ? it : it.skip)('a relay claim never makes a change wait to write its event (MySQL: READ COMMITTED, no gap locks)', async () => {
      const relay = s.runner.get(OutboxRelayService);
      const outbox = s.runner.get(OutboxRelayRepository);
      const insert = "INSERT INTO outbox_events (type, store_id, payload, created_at, published_at) VALUES ('customer.updated', NULL, '{}', NOW(3), NULL)";
      // The worker's own relay runs meanwhile and may claim the new event first: then try again,
      // until this transaction holds a claim while another connection writes.
      let waited: number | null = null;
      for (let attempt = 0; attempt < 20 && waited === null; attempt++) {
        await t.db.query(insert);
        waited = await relay.inRelayTransaction(async (): Promise<number | null> => {
          if (!(await outbox.claimUnpublished(200)).length) return null;
          // another connection writes an event, as a sale committing now would
          const sale = t.db.createQueryRunner();
          try {
            await sale.query('SET SESSION innodb_lock_wait_timeout = 2');
            const started = Date.now();
            await sale.query(insert);
            return Date.now() - started;
          } finally {
            await sale.release();
          }
        });
      }
      expect(waited).not.toBeNull();
      expect(waited).toBeLessThan(1000);
    });

    it('deleting an endpoint while an attempt is in flight ends quietly (no error, no retry)', async () => {
      receiver.on('/slow', () => ({ status: 200, delayMs: 1500 }));
      const slow = await endpointFor('/slow', ['ping']);
      const res = await api().post(`/api/v1/webhooks/${slow.id}/ping`).set(bearer(admin));
      await receiver.waitFor('/slow', (g) => g.length >= 1);
      const mark = logged.length;
      expect((await api().delete(`/api/v1/webhooks/${slow.id}`).set(bearer(admin))).status).toBe(200);
      await new Promise((r) => setTimeout(r, 4000));
      expect(logged.slice(mark).filter((line) => /"level":(40|50)/.test(line))).toEqual([]);
      expect(await t.db.query('SELECT id FROM webhook_deliveries WHERE uuid = ?', [res.body.data.id])).toEqual([]);
      expect(receiver.at('/slow')).toHaveLength(1);
    });

    it('purges delivery logs and published events past the retention period (events: EVENT_RETENTION_DAYS, with their deliveries)', async () => {
      const maintenance = s.runner.get(WebhookMaintenanceService);
      const old = sqlTime(t, new Date(Date.now() - 31 * 86_400_000));
      const [gone] = (await api().get('/api/v1/webhooks').set(bearer(admin))).body.data.filter((e: { url: string }) => e.url.endsWith('/gone'));
      const [d] = await t.db.query('SELECT id, event_id FROM webhook_deliveries WHERE endpoint_id = ?', [gone.id]);
      await t.db.query('UPDATE webhook_deliveries SET updated_at = ? WHERE id = ?', [old, d.id]);
      await t.db.query('UPDATE outbox_events SET published_at = ?, created_at = ? WHERE id = ?', [old, old, d.event_id]);
      const [{ n: recent }] = await t.db.query('SELECT COUNT(*) AS n FROM webhook_deliveries');
      const [{ n: others }] = await t.db.query('SELECT COUNT(*) AS n FROM webhook_deliveries WHERE event_id = ? AND id <> ?', [d.event_id, d.id]);
      const result = await maintenance.purge();
      expect(result).toEqual({ deliveries: 1 + Number(others), events: 1 });
      expect(await t.db.query('SELECT id FROM webhook_deliveries WHERE id = ?', [d.id])).toEqual([]);
      expect(await t.db.query('SELECT id FROM webhook_delivery_attempts WHERE delivery_id = ?', [d.id])).toEqual([]);
      expect(await t.db.query('SELECT id FROM outbox_events WHERE id = ?', [d.event_id])).toEqual([]);
      expect(Number((await t.db.query('SELECT COUNT(*) AS n FROM webhook_deliveries'))[0].n)).toBe(Number(recent) - 1 - Number(others));
      expect(await maintenance.purge()).toEqual({ deliveries: 0, events: 0 });
    });
  });

  describe('SSRF guard (WEBHOOK_ALLOW_PRIVATE_TARGETS unset)', () => {
    let g: Stack;
    let token: string;

    beforeAll(async () => {
      g = await startStack({ ...FAST, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' });
      token = await login(g.t, DEMO.admin);
    });
    afterAll(() => g.close());

    it('refuses loopback in every spelling, private, link-local (metadata), multicast and unspecified targets with 422', async () => {
      const port = receiver.port;
      // Issue 25 item 8: the message names the kind of address, never the address itself.
      const ipLiteral = /\b\d{1,3}(\.\d{1,3}){3}\b|(?<![0-9a-z:])[0-9a-f]{0,4}(:[0-9a-f]{0,4}){2,}/i;
      for (const [url, kind] of [
        [`http://127.0.0.1:${port}/x`, 'is a loopback address'],
        [`http://127.0.0.2:${port}/x`, 'is a loopback address'],
        [`http://127.1:${port}/x`, 'is a loopback address'],
        [`http://2130706433:${port}/x`, 'is a loopback address'],
        [`http://0x7f.0.0.1:${port}/x`, 'is a loopback address'],
        [`http://[::1]:${port}/x`, 'is a loopback address'],
        [`http://[::ffff:127.0.0.1]:${port}/x`, 'is a loopback address'],
        [`http://[0:0:0:0:0:ffff:7f00:1]:${port}/x`, 'is a loopback address'],
        [`http://localhost:${port}/x`, 'resolves to a loopback address'],
        [`http://0.0.0.0:${port}/x`, 'is an unspecified address'],
        [`http://[::]:${port}/x`, 'is an unspecified address'],
        ['http://169.254.169.254/latest/meta-data/', 'is a link-local address'],
        ['http://[fe80::1]/x', 'is a link-local address'],
        ['http://10.0.0.8/x', 'is a private address'],
        ['http://172.16.5.4/x', 'is a private address'],
        ['http://192.168.0.10/x', 'is a private address'],
        ['http://100.64.1.1/x', 'is a carrier-grade NAT address'],
        ['http://[fd00::1]/x', 'is a private address'],
        ['http://224.0.0.1/x', 'is a multicast address'],
        ['http://[ff02::1]/x', 'is a multicast address'],
        ['https://255.255.255.255/x', 'is the broadcast address'],
      ]) {
        const res = await request(g.t.http)
          .post('/api/v1/webhooks')
          .set(bearer(token))
          .send({ url, events: ['*'] });
        expectErrorEnvelope(res, 422);
        expect(res.body.errors.url[0]).toMatch(/webhooks may only target public addresses/);
        expect(res.body.errors.url[0]).toContain(`The url's host ${kind}:`);
        expect(JSON.stringify([res.body.message, res.body.errors])).not.toMatch(ipLiteral);
      }
      const update = await request(g.t.http)
        .put('/api/v1/webhooks/1')
        .set(bearer(token))
        .send({ url: `http://localhost:${port}/x` });
      expect([404, 422]).toContain(update.status);
      expect(Number((await g.t.db.query('SELECT COUNT(*) AS n FROM webhook_endpoints'))[0].n)).toBe(0);
    });

    it('checks again at delivery, on the address connected to: a name re-pointed at loopback is refused, nothing is sent', async () => {
      // Accepted while its name resolved to a public address (created inactive: nothing is ever sent
      // there), then the name points at loopback (DNS rebinding): simulated by rewriting the URL.
      const ids: number[] = [];
      for (const host of ['localhost', '127.0.0.1']) {
        const created = await request(g.t.http)
          .post('/api/v1/webhooks')
          .set(bearer(token))
          .send({ url: 'http://93.184.215.14/hook', events: ['*'], active: false });
        expect(created.status).toBe(201);
        secrets.push(created.body.data.secret);
        await g.t.db.query('UPDATE webhook_endpoints SET url = ? WHERE id = ?', [`http://${host}:${receiver.port}/rebound-${host}`, created.body.data.id]);
        expect((await request(g.t.http).put(`/api/v1/webhooks/${created.body.data.id}`).set(bearer(token)).send({ active: true })).status).toBe(200);
        ids.push(created.body.data.id);
      }
      const cust = await request(g.t.http).post('/api/v1/customers').set(bearer(token)).send({ name: 'Rebinding Test' });
      expect(cust.status).toBe(201);
      for (const id of ids) {
        const d = await eventually(
          async () => (await request(g.t.http).get(`/api/v1/webhooks/${id}/deliveries`).set(bearer(token))).body.data[0],
          (x) => x?.attempts >= 1,
        );
        const full = (await request(g.t.http).get(`/api/v1/webhooks/${id}/deliveries/${d.id}`).set(bearer(token))).body.data;
        expect(full.attempt_log[0]).toMatchObject({
          status_code: null,
          error: 'Refused: the target is a loopback address (SSRF guard)', // the kind, not where the name points
          remote_address: null,
        });
      }
      expect(receiver.received.filter((r) => r.path.startsWith('/rebound'))).toEqual([]);
    });
  });

  it('never writes a signing secret to the log', async () => {
    const text = logged.join('');
    expect(text).toMatch(/"level":\d+/); // the capture works: pino lines were seen
    expect(secrets.length).toBeGreaterThanOrEqual(8);
    for (const secret of secrets) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secret.slice('whsec_'.length));
    }
  });
});
